import type { OtlpSpan } from "../../adapters/otlp/wire";
import { DEMO_MODELS } from "./demo-data";

/**
 * One demo run that arrives the way an instrumented agent sends it: GenAI-convention chat spans
 * over OTLP with the conversation on them (system instructions, the customer's request, the
 * model's turns with their tool calls, the tools' results), so that the run page's Conversation
 * section has something to show. Its first call sends the loan number as a number (invalid), the
 * tool's refusal goes back to the model, which corrects it; the loan's record is long enough to fold.
 */
export const DEMO_CONVERSATION_RUN = "demo-conversation-4471";

const TRACE = `de${"0".repeat(26)}4471`;
const SYSTEM =
  "You are the servicing assistant of Acme Bank's personal loans desk. Use the tools to look things up before answering. Never promise a refund above 500 EUR: open a ticket for a person instead. Answer the customer in two or three plain sentences.";
const REQUEST =
  "Hi, this is Dana Whitfield (customer C-20931). I paid my loan 4471 on time last week but I was still charged a late fee. Can you check and take it off?";

type Part = Record<string, unknown>;
type Turn = { text?: string; calls?: { id: string; name: string; arguments: Record<string, unknown> }[] };

const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** The loan record getloan returns: long enough (a year of history) that the page folds it. */
function loanRecord(now: number) {
  const history = Array.from({ length: 12 }, (_, i) => ({
    due: dayOf(now - (12 - i) * 30 * 86_400_000),
    amount: 412.5,
    paid: dayOf(now - (12 - i) * 30 * 86_400_000 - (i === 11 ? -1 : 2) * 86_400_000),
    status: i === 11 ? "paid_late" : "paid",
  }));
  return {
    loannumber: "4471",
    customerid: "C-20931",
    status: "current",
    outstanding: 8_240.17,
    nextdue: dayOf(now + 23 * 86_400_000),
    fees: [{ kind: "late_fee", amount: 35, charged: dayOf(now - 5 * 86_400_000) }],
    history,
  };
}

/** The conversation's turns: what each model call answered, and what each of its tool calls returned. */
function script(now: number): { turn: Turn; results: Record<string, string> }[] {
  const week = dayOf(now - 14 * 86_400_000);
  return [
    {
      turn: { text: "I'll look up loan 4471 first.", calls: [{ id: "call_demo_1", name: "getloan", arguments: { loannumber: 4471 } }] },
      results: { call_demo_1: "Invalid arguments for getloan: loannumber must be a string of 4 to 8 digits, got the number 4471." },
    },
    {
      turn: { calls: [{ id: "call_demo_2", name: "getloan", arguments: { loannumber: "4471" } }] },
      results: { call_demo_2: JSON.stringify(loanRecord(now), null, 2) },
    },
    {
      turn: {
        text: "The last instalment is marked late. Let me check when the payment arrived.",
        calls: [{ id: "call_demo_3", name: "searchpayments", arguments: { loannumber: "4471", from: week } }],
      },
      results: {
        call_demo_3: JSON.stringify([{ received: dayOf(now - 7 * 86_400_000), amount: 412.5, reference: "4471-NOV", channel: "bank_transfer" }]),
      },
    },
    {
      turn: {
        text: "The payment arrived on the due date; the bank booked it a day later. I'll refund the fee.",
        calls: [{ id: "call_demo_4", name: "refundfee", arguments: { loannumber: "4471", amount: 35, reason: "bank_error" } }],
      },
      results: { call_demo_4: JSON.stringify({ refunded: 35, currency: "EUR", reference: "RF-88213" }) },
    },
    {
      turn: {
        text: "Your payment for loan 4471 arrived on time; the delay was on our side. I have refunded the 35 EUR late fee (reference RF-88213); it shows on your account within two working days.",
      },
      results: {},
    },
  ];
}

const userMessage = { role: "user", parts: [{ type: "text", content: REQUEST }] };
const assistantMessage = (turn: Turn) => ({
  role: "assistant",
  parts: [
    ...(turn.text ? [{ type: "text", content: turn.text }] : []),
    ...(turn.calls ?? []).map((c) => ({ type: "tool_call", id: c.id, name: c.name, arguments: c.arguments })),
  ] as Part[],
});
const toolMessages = (results: Record<string, string>) =>
  Object.entries(results).map(([id, response]) => ({ role: "tool", parts: [{ type: "tool_call_response", id, response }] }));

/** The run's model-call spans, two hours before `now`, a few seconds apart. */
export function demoConversationSpans(now: Date): OtlpSpan[] {
  const start = now.getTime() - 2 * 3_600_000;
  const { model } = DEMO_MODELS.large11;
  const turns = script(start);
  const input: unknown[] = [userMessage];
  return turns.map(({ turn, results }, i) => {
    const startNs = BigInt(start + i * 4_000) * 1_000_000n;
    const span: OtlpSpan = {
      traceId: TRACE,
      spanId: (0x4471_0000 + i + 1).toString(16).padStart(16, "0"),
      parentSpanId: "",
      name: `chat ${model.name}`,
      kind: 3,
      startNs,
      endNs: startNs + 2_300_000_000n,
      attributes: {
        "gen_ai.operation.name": "chat",
        "gen_ai.provider.name": model.provider!,
        "gen_ai.request.model": model.name,
        "gen_ai.response.model": model.version!, // the version the SDK events name (the regression guard compares versions)
        "gen_ai.conversation.id": DEMO_CONVERSATION_RUN,
        "gen_ai.system_instructions": JSON.stringify([{ type: "text", content: SYSTEM }]),
        "gen_ai.input.messages": JSON.stringify(input),
        "gen_ai.output.messages": JSON.stringify([assistantMessage(turn)]),
        "gen_ai.usage.input_tokens": 900 + 350 * i,
        "gen_ai.usage.output_tokens": 40 + 10 * i,
      },
      events: [],
      status: { code: 0, message: "" },
      resource: { "service.name": "loan-agent" },
      scope: "demo",
    };
    input.push(assistantMessage(turn), ...toolMessages(results));
    return span;
  });
}
