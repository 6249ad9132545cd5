// Realistic events for the ingestion benchmark: runs of ~6 calls over 30 days, ~6% invalid
// spread over every category, the corrected call following each invalid one, varied models,
// results and usage.

/** A small seeded PRNG (mulberry32), so every run sends the same events. */
function prng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const MODELS = [
  { model: { provider: "anthropic", name: "claude-sonnet-4-5", version: "20250929" }, inPrice: 3, outPrice: 15 },
  { model: { provider: "anthropic", name: "claude-haiku-4-5", version: "20251001" }, inPrice: 1, outPrice: 5 },
  { model: { provider: "openai", name: "gpt-4.1", version: "2025-04-14" }, inPrice: 2, outPrice: 8 },
  { model: { provider: "openai", name: "gpt-4.1-mini" }, inPrice: 0.4, outPrice: 1.6 },
  { model: { provider: "google", name: "gemini-2.5-pro" }, inPrice: 1.25, outPrice: 10 },
  { model: { name: "llama-3.1-70b-instruct", version: "q4" }, inPrice: 0, outPrice: 0 },
];
const AGENTS = ["loan-assistant", "collections-bot", "support-triage"];
const ENVIRONMENTS = ["production", "production", "production", "staging"];
const STATUSES = ["open", "closed", "overdue"] as const;

type Invalid = { tool: string; arguments: unknown; outcome?: object };
/** One invalid request per category (docs/events.md), as models really get them wrong. */
const INVALID: ((pick: <T>(xs: readonly T[]) => T, loan: string) => Invalid)[] = [
  (_, loan) => ({ tool: "getloan", arguments: `{loannumber: ${loan}` }), // malformed_arguments
  (pick, loan) => ({ tool: pick(["getloans", "get_loan", "GetLoan", "loan_lookup"]), arguments: { loannumber: loan } }), // unknown_tool
  (_, loan) => ({ tool: "getloan", arguments: { loannumber: loan, customername: "Ada Lovelace" } }), // extra_argument
  () => ({ tool: "getloan", arguments: {} }), // missing_argument
  (_, loan) => ({ tool: "getloan", arguments: { loannumber: Number(loan) } }), // wrong_type
  (pick) => ({ tool: "listopenloans", arguments: { status: pick(["pending", "Open", "active"]) } }), // invalid_choice
  (_, loan) => ({ tool: "getloan", arguments: { loannumber: loan.slice(0, 3) } }), // out_of_range
  (_, loan) => ({
    tool: "getloan",
    arguments: { loannumber: loan, includehistory: true },
    outcome: { valid: false, category: "not_allowed", message: "Error: loan history needs the auditor role; ask a supervisor." },
  }), // not_allowed (the harness's verdict)
];

/** `count` events in run order (a run's calls are adjacent, as a harness sends them); the same for the same seed. */
export function generateEvents(count: number, seed = 42): Record<string, unknown>[] {
  return [...eventStream(count, seed)];
}

/** generateEvents one at a time, so that a caller can serialise them without holding them all. */
export function* eventStream(count: number, seed = 42): Generator<Record<string, unknown>> {
  const random = prng(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;
  const int = (lo: number, hi: number) => lo + Math.floor(random() * (hi - lo + 1));
  const start = Date.UTC(2026, 9, 31); // 30 days up to 2026-11-30
  const span = 30 * 24 * 3600 * 1000;
  let made = 0;
  for (let run = 0; made < count; run++) {
    const runId = `run_${seed}_${run.toString(36).padStart(6, "0")}`;
    const { model, inPrice, outPrice } = pick(MODELS);
    const metadata = { agent: pick(AGENTS), environment: pick(ENVIRONMENTS) };
    let time = start + Math.floor(random() * span);
    const length = int(3, 9);
    let context = int(800, 4000);
    let fixing: Invalid | undefined;
    let fixingId: string | undefined;
    for (let step = 0; step < length + (fixing ? 1 : 0) && made < count; step++) {
      const id = `toolu_${seed}_${run.toString(36)}_${step}`;
      const loan = String(int(1000, 99_999_999)).padStart(4, "0");
      const outputTokens = int(12, 220);
      context += int(150, 900);
      const base: Record<string, unknown> = {
        id,
        runId,
        step,
        timestamp: new Date(time).toISOString(),
        model,
        usage: { inputTokens: context, outputTokens, costUsd: Math.round(((context * inPrice + outputTokens * outPrice) / 1e6) * 1e8) / 1e8 },
        metadata,
      };
      time += int(800, 20_000);
      let event: Record<string, unknown>;
      if (!fixing && random() < 0.06) {
        fixing = pick(INVALID)(pick, loan);
        fixingId = id;
        event = { ...base, ...fixing, result: { status: "error", summary: "rejected by the harness", latencyMs: int(1, 5) } };
      } else {
        const list = fixing ? fixing.tool === "listopenloans" : random() < 0.3;
        event = {
          ...base,
          tool: list ? "listopenloans" : "getloan",
          arguments: list ? { status: pick(STATUSES) } : random() < 0.2 ? { loannumber: loan, includehistory: random() < 0.5 } : { loannumber: loan },
          ...(random() < 0.3 ? { outcome: { valid: true } } : {}),
          ...(fixing && random() < 0.5 ? { correctsId: fixingId } : {}),
          result:
            random() < 0.97
              ? { status: "ok", summary: list ? `${int(0, 40)} loans` : `loan ${loan}: ${pick(STATUSES)}, due 2026-12-${int(10, 28)}`, latencyMs: int(20, 900) }
              : { status: "not_found", summary: `no loan ${loan}`, latencyMs: int(20, 300) },
        };
        fixing = undefined;
      }
      made++;
      yield event;
    }
  }
}
