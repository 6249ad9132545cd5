// Context cost: the tokens a tool's definition takes in every model call that carries it, counted
// with a real tokenizer (js-tiktoken, its ranks bundled: nothing is downloaded at run time), what
// the tool set each run carried (or, where it did not say, the registered set) costs per model call
// and per day from the recorded usage, and which tools cost most for the least use. Pure. docs/definition-lint.md, "Context cost".

import { Tiktoken } from "js-tiktoken/lite";
import cl100kBase from "js-tiktoken/ranks/cl100k_base";
import o200kBase from "js-tiktoken/ranks/o200k_base";

export type Encoding = "o200k_base" | "cl100k_base";
/** The tokenizer a model family is counted with, and whether it is that family's own (`exact`) or an estimate. */
export type Tokenizer = { encoding: Encoding; family: string; exact: boolean };

const RANKS = { o200k_base: o200kBase, cl100k_base: cl100kBase };
const encoders = new Map<Encoding, Tiktoken>();

/**
 * A model's tokenizer, by its name (a provider prefix such as "openai/" set aside): OpenAI's
 * o200k_base for GPT-4o, GPT-4.1, GPT-4.5, GPT-5, the o-series and gpt-oss, cl100k_base for GPT-4
 * and GPT-3.5. Other families (Claude, Gemini, Llama, …) publish no tokenizer of their current
 * models that runs offline: their figures are o200k_base's, marked as an estimate.
 */
export function tokenizerFor(modelName: string): Tokenizer {
  const name = modelName.slice(modelName.lastIndexOf("/") + 1).toLowerCase();
  if (/^(gpt-4o|chatgpt-4o|gpt-4\.1|gpt-4\.5|gpt-5|o[1-9](-|$)|gpt-oss)/.test(name))
    return { encoding: "o200k_base", family: "OpenAI GPT-4o and later", exact: true };
  if (/^(gpt-4|gpt-3\.5|gpt-35)/.test(name)) return { encoding: "cl100k_base", family: "OpenAI GPT-4 and GPT-3.5", exact: true };
  return { encoding: "o200k_base", family: "other (estimated with o200k_base)", exact: false };
}

type Definition = { name: string; description?: string; parameters: unknown };

/** Token counts of definition texts already counted: the same definitions are counted on every tool page (~0.2 ms each). */
const counted = new Map<string, number>();
const COUNTED_MAX = 10_000;

/** The definition as OpenAI's API carries it ({"type":"function","function":{…}}), in tokens; the provider's own wrapping adds a few per tool. */
export function definitionTokens(tool: Definition, encoding: Encoding = "o200k_base"): number {
  const text = JSON.stringify({ type: "function", function: { name: tool.name, description: tool.description ?? "", parameters: tool.parameters } });
  const key = `${encoding}\n${text}`;
  const known = counted.get(key);
  if (known !== undefined) return known;
  let encoder = encoders.get(encoding);
  if (!encoder) encoders.set(encoding, (encoder = new Tiktoken(RANKS[encoding])));
  const tokens = encoder.encode(text).length;
  if (counted.size >= COUNTED_MAX) counted.clear();
  counted.set(key, tokens);
  return tokens;
}

/** A tool set's tokens per model call, and each tool's, the costliest first. */
export function toolSetTokens(
  tools: readonly Definition[],
  encoding: Encoding = "o200k_base",
): { tokenizer: string; total: number; tools: { name: string; tokens: number }[] } {
  const each = tools.map((t) => ({ name: t.name, tokens: definitionTokens(t, encoding) })).sort((a, b) => b.tokens - a.tokens || (a.name < b.name ? -1 : 1));
  return { tokenizer: encoding, total: each.reduce((s, t) => s + t.tokens, 0), tools: each };
}

type Usage = { inputTokens: number; outputTokens: number; costUsd: number };

/** Each hour is paired with at most this many of the hours after it: a month of hours gives ~46,000 pairs, not 259,000. */
const PAIRS_PER_HOUR = 64;

/**
 * What one input token costs, from usage rows (hours of one model): every two hours whose mixes of
 * input and output differ give both prices (two equations cost = a · input + b · output), and the
 * price is the median of their input prices (`fit`); when no two hours tell the prices apart
 * (output always the same share of input), the cost over the input tokens, which counts the output
 * as input (`upper bound`). Null without usage figures. The median, not a least-squares fit over
 * all hours: an hour's tokens count every call's usage and its cost only the calls that reported
 * one (an OpenTelemetry span gives tokens, no cost), so an hour that mixes both looks cheap; it
 * moves only the pairs it is in, where it would pull a least-squares fit of every hour.
 */
export function inputTokenPrice(rows: readonly Usage[]): { usd: number; method: "fit" | "upper bound" } | null {
  const rated = rows.filter((r) => r.inputTokens > 0 && r.costUsd > 0);
  const input = rated.reduce((s, r) => s + r.inputTokens, 0);
  if (!input) return null;
  const prices: number[] = [];
  for (let i = 0; i < rated.length; i++) {
    for (let j = i + 1; j < Math.min(rated.length, i + 1 + PAIRS_PER_HOUR); j++) {
      const [p, q] = [rated[i]!, rated[j]!];
      const det = p.inputTokens * q.outputTokens - q.inputTokens * p.outputTokens;
      // two hours whose output is the same share of their input cannot tell the prices apart
      if (!(Math.abs(det) > 1e-3 * (p.inputTokens * q.outputTokens + q.inputTokens * p.outputTokens))) continue;
      const a = (p.costUsd * q.outputTokens - q.costUsd * p.outputTokens) / det;
      const b = (p.inputTokens * q.costUsd - q.inputTokens * p.costUsd) / det;
      if (a > 0 && b >= 0) prices.push(a);
    }
  }
  if (prices.length) return { usd: median(prices), method: "fit" };
  return { usd: rated.reduce((s, r) => s + r.costUsd, 0) / input, method: "upper bound" };
}

const median = (values: number[]) => {
  const sorted = [...values].sort((x, y) => x - y);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

/**
 * One model's recorded usage over the range: its calls (one model call each), their usage, and per
 * hour for the price; `carried`, its calls of runs that recorded which tools they carried, per
 * distinct set (the set's tool names).
 */
export type ModelUsage = { model: string; name: string; calls: number; hours: readonly Usage[]; carried?: readonly CarriedSet[] } & Usage;
export type CarriedSet = { tools: readonly string[]; calls: number };

export type ContextCost = {
  days: number;
  /**
   * What the calls were counted with: `carried`, every call's run recorded the tools it carried;
   * `registered`, none did (each call counts the whole registered set); `mixed`, some did.
   */
  basis: "carried" | "registered" | "mixed";
  /** the calls of runs that recorded their tool set, of all calls; the distinct sets; carried names no definition is registered for (not counted) */
  carried: { calls: number; of: number; sets: number; unregistered: string[] };
  /** per model: its tokenizer, the tokens its calls carried (on average a call), its calls a day and what the sets cost it a day */
  models: {
    model: string;
    tokenizer: Tokenizer;
    /** tokens a call: the carried set's where the run recorded one, else the registered set's; the average over the model's calls */
    setTokens: number;
    /** its calls of runs that recorded their tool set */
    carriedCalls: number;
    callsPerDay: number;
    /** the sets' share of the model's recorded input tokens (null without usage figures) */
    inputShare: number | null;
    price: ReturnType<typeof inputTokenPrice>;
    setUsdPerDay: number | null;
  }[];
  /** per tool, costliest for the least use first: tokens per call (o200k_base), a day over the calls that carried it, USD a day, its own calls, USD per call of it */
  tools: { name: string; tokens: number; tokensPerDay: number; usdPerDay: number | null; uses: number; usdPerUse: number | null }[];
  /** the registered set's tokens in one model call (o200k_base), the carried tokens a day, and USD a day where prices are known */
  total: { tokens: number; tokensPerDay: number; usdPerDay: number | null };
};

/**
 * The context cost of a project's registered definitions over a range of `days`: every recorded
 * call is taken as one model call (parallel calls of one turn count once each, an overcount) that
 * carried the tool set its run recorded (`carried`), or the whole registered set where the run
 * recorded none. Only registered definitions are counted (a carried name without one is listed in
 * `carried.unregistered`). Tools are listed by cost a day per call of the tool itself, highest
 * first: a tool never called but carried in many requests first, by its cost a day.
 */
export function contextCost(input: {
  definitions: readonly Definition[];
  models: readonly ModelUsage[];
  uses: readonly { tool: string; calls: number }[];
  days: number;
}): ContextCost {
  const days = Math.max(input.days, 1 / 24);
  const tokens = new Map<Encoding, Map<string, number>>();
  const tokensOf = (encoding: Encoding) => {
    if (!tokens.has(encoding)) tokens.set(encoding, new Map(input.definitions.map((d) => [d.name, definitionTokens(d, encoding)])));
    return tokens.get(encoding)!;
  };
  const sum = (m: Map<string, number>) => [...m.values()].reduce((s, n) => s + n, 0);
  const registered = new Set(input.definitions.map((d) => d.name));
  const unregistered = new Set<string>();
  const sets = new Set<string>();
  /** per model: the calls that carried each registered tool */
  const carriers = new Map<string, Map<string, number>>();
  const models = input.models
    .filter((m) => m.calls > 0)
    .map((m) => {
      const tokenizer = tokenizerFor(m.name);
      const own = tokensOf(tokenizer.encoding);
      // a model's calls of a known set cannot outnumber its calls (the two reads of a range may differ
      // by calls written between them): the sets' calls are scaled down to the model's
      const carried = m.carried ?? [];
      const reported = carried.reduce((s, c) => s + c.calls, 0);
      const carriedCalls = Math.min(m.calls, reported);
      const share = reported ? carriedCalls / reported : 0;
      const fallback = m.calls - carriedCalls;
      const carrying = new Map(input.definitions.map((d) => [d.name, fallback]));
      let tokensCarried = fallback * sum(own);
      for (const set of carried) {
        sets.add([...new Set(set.tools)].sort().join("\n"));
        for (const name of new Set(set.tools)) {
          if (!registered.has(name)) {
            unregistered.add(name);
            continue;
          }
          carrying.set(name, carrying.get(name)! + set.calls * share);
          tokensCarried += own.get(name)! * set.calls * share;
        }
      }
      carriers.set(m.model, carrying);
      const setTokens = Math.round(tokensCarried / m.calls);
      const price = inputTokenPrice(m.hours);
      const callsPerDay = m.calls / days;
      return {
        model: m.model,
        tokenizer,
        setTokens,
        carriedCalls,
        callsPerDay,
        inputShare: m.inputTokens > 0 ? Math.min(1, tokensCarried / m.inputTokens) : null,
        price,
        setUsdPerDay: price ? (tokensCarried / days) * price.usd : null,
      };
    });
  const priced = models.some((m) => m.price);
  const uses = new Map(input.uses.map((u) => [u.tool, u.calls]));
  const tools = input.definitions
    .map((d) => {
      let tokensPerDay = 0;
      let usd = 0;
      for (const m of models) {
        const own = tokensOf(m.tokenizer.encoding).get(d.name)!;
        const perDay = (own * carriers.get(m.model)!.get(d.name)!) / days;
        tokensPerDay += perDay;
        usd += m.price ? perDay * m.price.usd : 0;
      }
      const used = uses.get(d.name) ?? 0;
      const usdPerDay = priced ? usd : null;
      return {
        name: d.name,
        tokens: tokensOf("o200k_base").get(d.name)!,
        tokensPerDay,
        usdPerDay,
        uses: used,
        usdPerUse: usdPerDay !== null && used > 0 ? (usdPerDay * days) / used : null,
      };
    })
    .sort((a, b) => {
      const weight = (t: typeof a) => t.usdPerDay ?? t.tokensPerDay;
      const perUse = (t: typeof a) => (t.uses ? weight(t) / t.uses : Infinity);
      return perUse(b) - perUse(a) || weight(b) - weight(a) || (a.name < b.name ? -1 : 1);
    });
  const calls = input.models.reduce((s, m) => s + Math.max(0, m.calls), 0);
  const carriedCalls = models.reduce((s, m) => s + m.carriedCalls, 0);
  return {
    days,
    basis: carriedCalls === 0 ? "registered" : carriedCalls >= calls ? "carried" : "mixed",
    carried: { calls: carriedCalls, of: calls, sets: sets.size, unregistered: [...unregistered].sort() },
    models,
    tools,
    total: {
      tokens: sum(tokensOf("o200k_base")),
      tokensPerDay: tools.reduce((s, t) => s + t.tokensPerDay, 0),
      usdPerDay: priced ? tools.reduce((s, t) => s + (t.usdPerDay ?? 0), 0) : null,
    },
  };
}
