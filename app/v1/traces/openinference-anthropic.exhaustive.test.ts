import { AnthropicInstrumentation } from "@arizeai/openinference-instrumentation-anthropic";
import Anthropic from "@anthropic-ai/sdk";
import { describe, it } from "vitest";
import { ANTHROPIC_EXPECTED, instrumentedRuns, anthropicConversation } from "@/test/scripted-model";

/**
 * @arizeai/openinference-instrumentation-anthropic 0.2.8 around @anthropic-ai/sdk 1.17.0, unmodified (see openinference-openai's test).
 * The SDK traces each request itself too (a GenAI `chat` span without messages by default) to the
 * same provider, as it does to a harness's global one.
 */
const instrumentation = new AnthropicInstrumentation();
instrumentation.manuallyInstrument(Anthropic);
const run = instrumentedRuns(instrumentation, (url, provider) => {
  const client = new Anthropic({ apiKey: "sk-ant-test", baseURL: url, openTelemetry: { tracerProvider: provider } });
  return (script) => anthropicConversation(client, script);
});

describe("OpenInference Anthropic", () => {
  const expected = {
    ...ANTHROPIC_EXPECTED,
    refusedStatus: "error",
  };
  it("a conversation span around each conversation (protobuf)", () => run("http/protobuf", true, expected));
  it("no span around the conversations (JSON)", () => run("http/json", false, expected));
});
