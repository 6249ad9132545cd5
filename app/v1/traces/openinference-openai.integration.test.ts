import { OpenAIInstrumentation } from "@arizeai/openinference-instrumentation-openai";
import OpenAI from "openai";
import { describe, it } from "vitest";
import { instrumentedRuns, openAiConversation, RESPONSE_MODEL } from "@/test/scripted-model";

/**
 * @arizeai/openinference-instrumentation-openai 4.2.7 around openai 6.30.1, unmodified,
 * exporting through the OTLP exporter set up only by the three OTEL_EXPORTER_OTLP_* variables,
 * against a scripted model on 127.0.0.1 (test/scripted-model.ts).
 */
const instrumentation = new OpenAIInstrumentation();
instrumentation.manuallyInstrument(OpenAI);
const run = instrumentedRuns(instrumentation, (url) => {
  const client = new OpenAI({ apiKey: "sk-test", baseURL: `${url}/v1` });
  return (script) => openAiConversation(client, script);
});

describe("OpenInference OpenAI", () => {
  const expected = {
    provider: "openai",
    name: "gpt-4o-mini",
    version: RESPONSE_MODEL.openai,
    malformed: { category: "malformed_arguments", arguments: '{"loannumber": "4471", "includehistory": tru' },
  };
  it("a conversation span around each conversation (protobuf)", () => run("http/protobuf", true, expected));
  it("no span around the conversations: every model call its own trace (JSON)", () => run("http/json", false, expected));
});
