import { LangChainInstrumentation } from "@arizeai/openinference-instrumentation-langchain";
import * as CallbackManagerModule from "@langchain/core/callbacks/manager";
import { ChatOpenAI } from "@langchain/openai";
import { describe, it } from "vitest";
import { instrumentedRuns, langChainAgent, OPENAI_EXPECTED } from "@/test/scripted-model";

/**
 * @arizeai/openinference-instrumentation-langchain 4.1.1 around @langchain/core 1.4.0 and
 * @langchain/openai 1.6.0 (openai 7.60.0), unmodified, exporting through the
 * OTLP exporter set up only by the three OTEL_EXPORTER_OTLP_* variables, against a scripted
 * model on 127.0.0.1 (test/scripted-model.ts). LangChain puts an unparsable call in
 * `invalid_tool_calls` and the tool's answer in a serialised ToolMessage.
 */
const instrumentation = new LangChainInstrumentation();
instrumentation.manuallyInstrument(CallbackManagerModule);
const run = instrumentedRuns(
  instrumentation,
  langChainAgent((url) => new ChatOpenAI({ model: "gpt-4o-mini", apiKey: "sk-test", configuration: { baseURL: `${url}/v1` } })),
);

describe("OpenInference LangChain", () => {
  it("a conversation span around each conversation (protobuf)", () => run("http/protobuf", true, OPENAI_EXPECTED));
  it("no span around the conversations: every model call its own trace (JSON)", () => run("http/json", false, OPENAI_EXPECTED));
});
