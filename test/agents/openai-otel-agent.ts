// A small agent instrumented with the official @opentelemetry/instrumentation-openai (on openai 6), run as
// its own Node process by app/v1/logs/otel-openai.exhaustive.test.ts. It knows nothing of
// Toolgate: the exporters read OTEL_EXPORTER_OTLP_ENDPOINT / _HEADERS / _PROTOCOL, and the
// model is whatever OpenAI-compatible server OPENAI_BASE_URL names. Content capture is the
// instrumentation's own switch (without it the package records no arguments).
import { createRequire } from "node:module";
import { context, trace } from "@opentelemetry/api";
import { OTLPLogExporter } from "@opentelemetry/exporter-logs-otlp-proto";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-proto";
import { OpenAIInstrumentation } from "@opentelemetry/instrumentation-openai";
import { BatchLogRecordProcessor, LoggerProvider } from "@opentelemetry/sdk-logs";
import { TracerProvider, BatchSpanProcessor } from "@opentelemetry/sdk-trace";
import { AsyncContext } from "../async-context";
import { OPENAI_TOOLS } from "../scripted-tools";

context.setGlobalContextManager(new AsyncContext());
const tracerProvider = new TracerProvider({ spanProcessors: [new BatchSpanProcessor({ exporter: new OTLPTraceExporter() })] });
const loggerProvider = new LoggerProvider({ processors: [new BatchLogRecordProcessor({ exporter: new OTLPLogExporter() })] });
trace.setGlobalTracerProvider(tracerProvider);
const instrumentation = new OpenAIInstrumentation({ captureMessageContent: true });
instrumentation.setTracerProvider(tracerProvider);
instrumentation.setLoggerProvider(loggerProvider);
instrumentation.enable();

// The instrumentation (0.22.0, the newest, as 0.21.0 before it) hooks `openai` >=4.19 <7 only, and its hook
// knows a package by its folder's name: the project's `openai` is 7, so the agent loads 6.30.1
// (the alias `openai-6`) and hands it to the patch the hook would run on an `openai` 6.
const require = createRequire(import.meta.url);
const openai6 = require("openai-6") as typeof import("openai-6");
const { VERSION } = require("openai-6/version") as typeof import("openai-6/version");
for (const definition of instrumentation.getModuleDefinitions()) definition.patch?.(openai6, VERSION);
const { default: OpenAI } = openai6;

/** The harness's tools: a wrong argument is answered as an error the model can correct. */
function runTool(name: string, args: string): string {
  let parsed: Record<string, unknown>;
  try {
    parsed = JSON.parse(args);
  } catch {
    return "Error: the arguments are not JSON";
  }
  if (name === "getloan") return typeof parsed.loannumber === "string" ? `loan ${parsed.loannumber}: balance 12,300` : "Error: loannumber must be a string";
  if (name === "listopenloans") return `loans ${String(parsed.status)}: 4471, 5120`;
  return `Error: no tool named "${name}"`;
}

async function main() {
  const client = new OpenAI({ apiKey: "test", baseURL: process.env.OPENAI_BASE_URL });
  const tracer = trace.getTracer("agent");
  await tracer.startActiveSpan("conversation", async (root) => {
    const messages: Parameters<typeof client.chat.completions.create>[0]["messages"] = [
      { role: "system", content: "You are a loan assistant." },
      { role: "user", content: "What is the balance of loan 4471, and which loans are overdue?" },
    ];
    for (let turn = 0; turn < 6; turn++) {
      const completion = await client.chat.completions.create({ model: "gpt-4o-mini", messages, tools: OPENAI_TOOLS });
      const message = completion.choices[0]!.message;
      if (!message.tool_calls?.length) break;
      messages.push(message);
      for (const call of message.tool_calls) {
        if (call.type !== "function") continue;
        messages.push({ role: "tool", tool_call_id: call.id, content: runTool(call.function.name, call.function.arguments) });
      }
    }
    root.end();
  });
  await tracerProvider.shutdown();
  await loggerProvider.shutdown();
}

void main();
