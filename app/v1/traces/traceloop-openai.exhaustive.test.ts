import { OpenAIInstrumentation } from "@traceloop/instrumentation-openai";
import OpenAI from "openai";
import { describe, it } from "vitest";
import { instrumentedRuns, OPENAI_EXPECTED, openAiAgent } from "@/test/scripted-model";

/**
 * OpenLLMetry's @traceloop/instrumentation-openai 0.27.0 around openai 7.60.0, unmodified (see openinference-openai's
 * test), patched by `manuallyInstrument`: the package's require hook takes `openai` >=4 <7 only.
 */
const instrumentation = new OpenAIInstrumentation();
instrumentation.manuallyInstrument(OpenAI);
const run = instrumentedRuns(instrumentation, openAiAgent(OpenAI));

describe("OpenLLMetry OpenAI", () => {
  it("a conversation span around each conversation (protobuf)", () => run("http/protobuf", true, OPENAI_EXPECTED));
  it("no span around the conversations (JSON)", () => run("http/json", false, OPENAI_EXPECTED));
});
