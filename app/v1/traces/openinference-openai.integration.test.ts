import { OpenAIInstrumentation } from "@arizeai/openinference-instrumentation-openai";
import { trace } from "@opentelemetry/api";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, it } from "vitest";
import { makeProject } from "@/test/fixtures";
import { recordingTracer, servedTraces } from "@/test/otlp";
import { CONVERSATIONS, configuredProvider, expectScriptsLanded, openAiConversation, RESPONSE_MODEL, serveScriptedModel } from "@/test/scripted-model";

/**
 * @arizeai/openinference-instrumentation-openai 4.2.7 around openai 6.30.1, unmodified,
 * exporting through the OTLP exporter set up only by the three OTEL_EXPORTER_OTLP_* variables,
 * against a scripted model on 127.0.0.1.
 */
const served = servedTraces();
let model: Awaited<ReturnType<typeof serveScriptedModel>>;
const instrumentation = new OpenAIInstrumentation();
instrumentation.manuallyInstrument(OpenAI);
beforeAll(async () => {
  recordingTracer(); // installs the async context manager, so the model calls join the conversation's span
  model = await serveScriptedModel();
});
afterAll(() => model.close());

async function run(protocol: "http/protobuf" | "http/json", rootSpan: boolean) {
  const p = await makeProject();
  const { key } = await p.key();
  const provider = configuredProvider(served.url.replace(/\/v1\/traces$/, ""), key, protocol);
  instrumentation.setTracerProvider(provider);
  const client = new OpenAI({ apiKey: "sk-test", baseURL: `${model.url}/v1` });
  const tracer = provider.getTracer("agent");
  for (const script of CONVERSATIONS) {
    if (rootSpan) await tracer.startActiveSpan(`conversation ${script}`, (span) => openAiConversation(client, script).finally(() => span.end()));
    else await openAiConversation(client, script);
  }
  await provider.forceFlush();
  await provider.shutdown();
  trace.disable();
  return p.project.id;
}

describe("OpenInference OpenAI", () => {
  const expected = {
    provider: "openai",
    name: "gpt-4o-mini",
    version: RESPONSE_MODEL.openai,
    malformed: { category: "malformed_arguments", arguments: '{"loannumber": "4471", "includehistory": tru' },
  };
  it("a conversation span around each conversation (protobuf)", async () => {
    await expectScriptsLanded(served.sql, await run("http/protobuf", true), expected);
  });
  it("no span around the conversations: every model call its own trace (JSON)", async () => {
    await expectScriptsLanded(served.sql, await run("http/json", false), expected);
  });
});
