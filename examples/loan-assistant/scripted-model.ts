/**
 * A deterministic stand-in for a language model (no network): each conversation is a script of
 * turns. A turn writes tool calls in the provider's shape; when a call comes back refused, the
 * model reads the message and writes the correction the message asks for — or gives up when the
 * message does not say how to fix the call.
 */

export type Provider = "openai" | "anthropic";
type Call = { name: string; args: Record<string, unknown> | string };
/** A turn: its calls; `fix` answers the refusal message of a call with the corrected call (null: give up). */
type Turn = { say: string; calls: Call[]; fix?: (message: string, call: Call) => Call | null };

export type Script = { provider: Provider; task: string; turns: Turn[] };

/** The loan assistant's conversations: valid calls, the usual mistakes, and the corrections. */
export const SCRIPTS: Script[] = [
  {
    provider: "openai",
    task: "What is the balance of loan 4471?",
    // a number for a digit string: "Send it as "4471"."
    turns: [
      {
        say: "Looking up the loan.",
        calls: [{ name: "getloan", args: '{"loannumber": 4471}' }],
        fix: (m) => fixFromMessage(m, { name: "getloan", args: { loannumber: "4471" } }),
      },
    ],
  },
  {
    provider: "anthropic",
    task: "Show the next three payments of loan 8812.",
    // an unknown tool name: "Did you mean 'getpayments'?"
    turns: [
      {
        say: "Fetching the payments.",
        calls: [{ name: "get_payments", args: { loannumber: "8812", months: 3 } }],
        fix: (m, c) => (m.includes("Did you mean 'getpayments'") ? { ...c, name: "getpayments" } : null),
      },
    ],
  },
  {
    provider: "openai",
    task: "Send letters about loan 8812 by post, and show its balance.",
    // parallel calls; a missing argument in one of them
    turns: [
      {
        say: "Updating the contact channel and reading the loan.",
        calls: [
          { name: "setcontact", args: { loannumber: "8812" } },
          { name: "getloan", args: { loannumber: "8812" } },
        ],
        fix: (m, c) => (m.includes("'channel'") ? { ...c, args: { ...(c.args as object), channel: "post" } } : null),
      },
    ],
  },
  {
    provider: "anthropic",
    task: "Text me about loan 4471 from now on.",
    // a value outside the enum: "must be one of email, sms, post"
    turns: [
      {
        say: "Switching to text messages.",
        calls: [{ name: "setcontact", args: { loannumber: "4471", channel: "text" } }],
        fix: (m, c) => (m.includes("sms") ? { ...c, args: { loannumber: "4471", channel: "sms" } } : null),
      },
    ],
  },
  {
    provider: "anthropic",
    task: "Balance and payments for the next 12 months of loan 4471.",
    turns: [
      {
        say: "Reading both.",
        calls: [
          { name: "getloan", args: { loannumber: "4471" } },
          { name: "getpayments", args: { loannumber: "4471", months: 12 } },
        ],
      },
    ],
  },
];

function fixFromMessage(message: string, corrected: Call): Call | null {
  return /Send it as "\d+"/.test(message) ? corrected : null;
}

let counter = 0;
const nextId = (prefix: string) => `${prefix}_${String(++counter).padStart(4, "0")}`;

/** A turn's calls as the provider's assistant message holds them, with the turn's token usage. */
export function assistantMessage(provider: Provider, say: string, calls: Call[]) {
  const usage = { inputTokens: 220 + 40 * calls.length, outputTokens: 18 * calls.length };
  if (provider === "openai") {
    return {
      usage,
      message: {
        role: "assistant" as const,
        content: null,
        tool_calls: calls.map((c) => ({
          id: nextId("call"),
          type: "function" as const,
          function: { name: c.name, arguments: typeof c.args === "string" ? c.args : JSON.stringify(c.args) },
        })),
      },
    };
  }
  return {
    usage,
    message: {
      role: "assistant" as const,
      content: [{ type: "text" as const, text: say }, ...calls.map((c) => ({ type: "tool_use" as const, id: nextId("toolu"), name: c.name, input: c.args }))],
    },
  };
}
