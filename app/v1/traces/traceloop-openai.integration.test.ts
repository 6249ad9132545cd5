import { OpenAIInstrumentation } from "@traceloop/instrumentation-openai";
import OpenAI from "openai";
import { describe, it } from "vitest";
import { instrumentedRuns, openAiConversation, RESPONSE_MODEL } from "@/test/scripted-model";

/** OpenLLMetry's @traceloop/instrumentation-openai 0.27.0 around openai 6.30.1, unmodified (see openinference-openai's test). */
const instrumentation = new OpenAIInstrumentation();
instrumentation.manuallyInstrument(OpenAI);
const run = instrumentedRuns(instrumentation, (url) => {
  const client = new OpenAI({ apiKey: "sk-test", baseURL: `${url}/v1` });
  return (script) => openAiConversation(client, script);
});

describe("OpenLLMetry OpenAI", () => {
  const expected = {
    provider: "openai",
    name: "gpt-4o-mini",
    version: RESPONSE_MODEL.openai,
    malformed: { category: "malformed_arguments", arguments: '{"loannumber": "4471", "includehistory": tru' },
  };
  it("a conversation span around each conversation (protobuf)", () => run("http/protobuf", true, expected));
  it("no span around the conversations (JSON)", () => run("http/json", false, expected));
});
