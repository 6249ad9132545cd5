import type Anthropic from "@anthropic-ai/sdk";
import * as anthropicSdk from "anthropic-sdk-0";
import { AnthropicInstrumentation } from "@traceloop/instrumentation-anthropic";
import { describe, it } from "vitest";
import { ANTHROPIC_EXPECTED, anthropicConversation, instrumentedRuns } from "@/test/scripted-model";
import { ANTHROPIC_TOOLS } from "@/test/scripted-tools";

/**
 * OpenLLMetry's @traceloop/instrumentation-anthropic 0.27.0 around @anthropic-ai/sdk 0.80.0
 * (installed as `anthropic-sdk-0`: the instrumentation patches `Anthropic.Completions`, which
 * SDK 1.x no longer has, and fails on it), unmodified. It sends no tool definitions: the calls land
 * unchecked, then the test does what Connect and the Tools page tell such a project to do — an
 * admin pastes the agent's Anthropic `tools` array and re-checks the stored calls.
 */
const instrumentation = new AnthropicInstrumentation();
// it patches the module's Anthropic class; its types name the 1.x module
instrumentation.manuallyInstrument(anthropicSdk as never);
const run = instrumentedRuns(instrumentation, (url) => {
  // the agent is written against SDK 1.x's types; 0.80's client has the same messages.create
  const client = new anthropicSdk.Anthropic({ apiKey: "sk-ant-test", baseURL: url }) as unknown as Anthropic;
  return (script) => anthropicConversation(client, script);
});

describe("OpenLLMetry Anthropic", () => {
  const expected = { ...ANTHROPIC_EXPECTED, paste: ANTHROPIC_TOOLS };
  it("a conversation span around each conversation (protobuf)", () => run("http/protobuf", true, expected));
  it("no span around the conversations (JSON)", () => run("http/json", false, expected));
});
