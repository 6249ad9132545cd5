import { OpenAIInstrumentation } from "@arizeai/openinference-instrumentation-openai";
import OpenAI from "openai";
import { describe, it } from "vitest";
import { instrumentedRuns, OPENAI_EXPECTED, openAiAgent } from "@/test/scripted-model";

/**
 * @arizeai/openinference-instrumentation-openai 4.2.7 around openai 7.60.0, unmodified,
 * exporting through the OTLP exporter set up only by the three OTEL_EXPORTER_OTLP_* variables,
 * against a scripted model on 127.0.0.1 (test/scripted-model.ts).
 */
const instrumentation = new OpenAIInstrumentation();
instrumentation.manuallyInstrument(OpenAI);
const run = instrumentedRuns(instrumentation, openAiAgent(OpenAI));

describe("OpenInference OpenAI", () => {
  it("a conversation span around each conversation (protobuf)", () => run("http/protobuf", true, OPENAI_EXPECTED));
  it("no span around the conversations: every model call its own trace (JSON)", () => run("http/json", false, OPENAI_EXPECTED));
});
