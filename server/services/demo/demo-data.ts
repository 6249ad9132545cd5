import type { Category } from "../../../contracts/categories";
import type { ToolCallEvent } from "../../../contracts/event";
import type { JsonObject } from "../../../isomorphic/tool-schema";
import { schemaVersion } from "../../domain/schema-version";
import { DAY_MS, HOUR_MS } from "../../../contracts/metrics";

/**
 * Demo traffic: a loan-servicing agent calling its tools (`getloan`, `listopenloans` and a few more)
 * and a few more. Pure and deterministic: the same seed and `now` give the same events, and
 * event ids depend only on the seed, the day and the run, so loading again counts duplicates.
 */

export type DemoTool = { name: string; description: string; parameters: JsonObject };

// ---------------------------------------------------------------------------------------------
// Tools

const loannumber = { type: "string", minLength: 4, maxLength: 8, pattern: "^[0-9]+$", description: "The 4 to 8 digit loan number" };
const customerid = { type: "string", pattern: "^C[0-9]{6}$", description: "The customer id: C and 6 digits, for example C104233." };
const date = (description: string) => ({ type: "string", format: "date", description });
const object = (properties: JsonObject, required: string[]) => ({ type: "object", properties, required, additionalProperties: false });

/** The two loan-servicing tools every example and test uses, as JSON Schemas. */
export const LOAN_TOOLS: DemoTool[] = [
  {
    name: "getloan",
    description: "Returns the status, due date, outstanding amount and any fee for one personal loan. Use when you have a loan number.",
    parameters: {
      type: "object",
      properties: {
        loannumber: { type: "string", minLength: 4, maxLength: 8, pattern: "^[0-9]+$", description: "The 4 to 8 digit loan number" },
        includehistory: { type: "boolean", default: false },
      },
      required: ["loannumber"],
      additionalProperties: false,
    },
  },
  {
    name: "listopenloans",
    description: "Lists loan numbers by status.",
    parameters: {
      type: "object",
      properties: { status: { type: "string", enum: ["open", "closed", "overdue"] } },
      required: ["status"],
      additionalProperties: false,
    },
  },
];

const REFUND_REASONS = ["late_fee_waiver", "duplicate_charge", "goodwill", "bank_error"];

export const DEMO_TOOLS: DemoTool[] = [
  ...LOAN_TOOLS,
  {
    name: "searchpayments",
    description: "Lists the payments received for one loan between two dates, newest first. Use to check whether and when a payment arrived.",
    parameters: object(
      {
        loannumber,
        from: date("First day, YYYY-MM-DD"),
        to: date("Last day, YYYY-MM-DD; default today"),
        limit: { type: "integer", minimum: 1, maximum: 100, default: 20 },
      },
      ["loannumber", "from"],
    ),
  },
  {
    name: "refundfee",
    description: "Refunds all or part of a fee charged on a loan. Refunds above 500 need approval from a person.",
    parameters: object(
      {
        loannumber,
        amount: { type: "number", exclusiveMinimum: 0, maximum: 10000, description: "Amount in EUR" },
        reason: { type: "string", enum: REFUND_REASONS },
      },
      ["loannumber", "amount", "reason"],
    ),
  },
  {
    name: "getcustomer",
    description: "Returns a customer's name, contact details and, on request, their loans and notes. Use when you have a customer id.",
    parameters: object({ customerid, include: { type: "array", items: { type: "string", enum: ["loans", "contacts", "notes"] }, uniqueItems: true } }, [
      "customerid",
    ]),
  },
  {
    name: "sendmessage",
    // this description and schedulecallback's were written from one template: they nearly repeat each other (a confusable pair before any run)
    description: "Contacts a customer about their loan by message: use when the customer should hear from the bank soon.",
    parameters: object({ customerid, channel: { type: "string", enum: ["email", "sms"] }, body: { type: "string", minLength: 1, maxLength: 500 } }, [
      "customerid",
      "channel",
      "body",
    ]),
  },
  {
    name: "schedulecallback",
    description: "Contacts a customer about their loan by phone: use when the customer should hear from the bank soon.",
    parameters: object(
      {
        customerid,
        slot: object(
          {
            date: date("Day of the call, YYYY-MM-DD"),
            time: { type: "string", pattern: "^([01][0-9]|2[0-3]):[0-5][0-9]$", description: "HH:MM, 24-hour clock" },
          },
          ["date", "time"],
        ),
        note: { type: "string", maxLength: 200 },
      },
      ["customerid", "slot"],
    ),
  },
  {
    name: "createticket",
    description: "Opens a ticket for the back office when something needs a person.",
    parameters: object(
      {
        subject: { type: "string", minLength: 5, maxLength: 120 },
        priority: { type: "string", enum: ["low", "normal", "high", "urgent"] },
        tags: { type: "array", items: { type: "string", minLength: 1, maxLength: 30 }, maxItems: 5, uniqueItems: true },
        loannumber,
      },
      ["subject", "priority"],
    ),
  },
];

const TOOL_VERSIONS = new Map(DEMO_TOOLS.map((t) => [t.name, schemaVersion(t.parameters)]));

/**
 * The schema change the demo shows closing the loop: until this many days before `now` models
 * often send getloan's loan number as a number (an extra LOAN_NUMBER_CONFUSION of its first
 * attempts); then the loan number's description starts saying "digits, as a string", and that
 * mistake falls back to the usual rate. Validation is the same, so is every verdict.
 */
export const SCHEMA_FIX_DAYS_AGO = 22;
const LOAN_NUMBER_CONFUSION = 0.06;
const getloanTool = LOAN_TOOLS[0]!;
const getloanProperties = getloanTool.parameters.properties as Record<string, JsonObject>;
export const DEMO_SCHEMA_FIX: DemoTool = {
  ...getloanTool,
  parameters: {
    ...getloanTool.parameters,
    properties: {
      ...getloanProperties,
      loannumber: { ...getloanProperties.loannumber, description: 'The loan number: 4 to 8 digits, as a string (for example "4471"), not a number.' },
    },
  },
};
const FIXED_VERSION = schemaVersion(DEMO_SCHEMA_FIX.parameters);

// ---------------------------------------------------------------------------------------------
// Seeded randomness

/** mulberry32: a tiny, fast 32-bit PRNG; returns floats in [0, 1). */
function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function mix(...parts: number[]): number {
  let h = 0x811c9dc5;
  for (const part of parts) h = Math.imul(h ^ (part | 0), 0x01000193) ^ (h >>> 13);
  return h >>> 0;
}

type Rng = () => number;
type Draw = (key: string, p: number) => boolean;

/**
 * Bernoulli(p) draws per key, nudged toward p·n hits so far: still random, but even a
 * short window shows each model's rate instead of a lucky or unlucky streak.
 */
function steadyDraws(rng: Rng): Draw {
  const tallies = new Map<string, { n: number; hits: number }>();
  return (key, p) => {
    const t = tallies.get(key) ?? { n: 0, hits: 0 };
    tallies.set(key, t);
    const hit = rng() < p + (p * t.n - t.hits) * 0.1;
    t.n++;
    if (hit) t.hits++;
    return hit;
  };
}

const int = (rng: Rng, min: number, max: number) => min + Math.floor(rng() * (max - min + 1));
const pick = <T>(rng: Rng, items: readonly T[]): T => items[Math.floor(rng() * items.length)]!;
function weighted<T>(rng: Rng, entries: readonly (readonly [T, number])[]): T {
  const total = entries.reduce((sum, [, w]) => sum + w, 0);
  let r = rng() * total;
  for (const [value, w] of entries) if ((r -= w) < 0) return value;
  return entries[entries.length - 1]![0];
}

// ---------------------------------------------------------------------------------------------
// Models

export type DemoModel = {
  key: string;
  model: ToolCallEvent["model"];
  /** Target share of invalid calls. */
  invalidRate: number;
  /** Share of its invalid calls whose harness answered "Error 422". */
  error422?: number;
  /** USD per million input / output tokens. */
  price: [number, number];
  /** Category weight multipliers: where this model tends to go wrong. */
  leans?: Partial<Record<Category, number>>;
};

export const DEMO_MODELS: Record<"large09" | "large11" | "mini" | "globex", DemoModel> = {
  large09: { key: "large09", model: { provider: "acme", name: "acme-large", version: "2026-09" }, invalidRate: 0.06, price: [3, 15] },
  large11: {
    key: "large11",
    model: { provider: "acme", name: "acme-large", version: "2026-11" },
    invalidRate: 0.2,
    price: [3, 15],
    leans: { wrong_type: 4, out_of_range: 2 },
  },
  mini: { key: "mini", model: { provider: "acme", name: "acme-mini", version: "2026-10" }, invalidRate: 0.1, error422: 0.3, price: [0.4, 1.6] },
  globex: { key: "globex", model: { provider: "globex", name: "globex-pro" }, invalidRate: 0.04, price: [2.5, 10], leans: { malformed_arguments: 3 } },
};

/** acme-large 2026-11 ships this many days before `now` and takes most of the traffic within four days. */
export const REGRESSION_DAYS_AGO = 10;

function modelMix(daysAgo: number): [DemoModel, number][] {
  const share11 = daysAgo > REGRESSION_DAYS_AGO ? 0 : Math.min(0.55, 0.15 + (REGRESSION_DAYS_AGO - daysAgo) * 0.1);
  return [
    [DEMO_MODELS.large09, 0.6 - share11],
    [DEMO_MODELS.large11, share11],
    [DEMO_MODELS.mini, 0.25],
    [DEMO_MODELS.globex, 0.15],
  ];
}

/** The chance that the retry after an invalid call is valid: good messages teach, "Error 422" does not. */
const FIX_RATE = { goodMessage: 0.8, error422: 0.45 };
export const ERROR_422 = "Error 422";
const REFUND_POLICY_MESSAGE = "Error: refunds above 500 need approval from a person. Ask the customer to wait for a callback.";
const MAX_ATTEMPTS = 6;

/**
 * Chance that the first attempt at a call is invalid, chosen so that the share of invalid
 * attempts, retries included, is the model's target r: with f the chance that a retry fails
 * again, invalid/attempts = (q/(1−f)) / (1 + q/(1−f)) = r  ⇔  q = (1−f)·r/(1−r).
 */
function firstAttemptInvalid(m: DemoModel): number {
  const f = (m.error422 ?? 0) * (1 - FIX_RATE.error422) + (1 - (m.error422 ?? 0)) * (1 - FIX_RATE.goodMessage);
  return ((1 - f) * m.invalidRate) / (1 - m.invalidRate);
}

// ---------------------------------------------------------------------------------------------
// Valid arguments, and how a model gets them wrong

type Args = Record<string, unknown>;
type Ctx = { customerid: string; loans: string[]; day: string };
type Call = { tool: string; arguments: Args | string };

const iso = (d: Date) => d.toISOString().slice(0, 10);
const daysBefore = (day: string, n: number) => iso(new Date(Date.parse(day) - n * DAY_MS));

const VALID: Record<string, (rng: Rng, ctx: Ctx) => Args> = {
  getloan: (rng, ctx) => ({ loannumber: pick(rng, ctx.loans), ...(rng() < 0.3 ? { includehistory: true } : {}) }),
  listopenloans: (rng) => ({
    status: weighted(rng, [
      ["overdue", 6],
      ["open", 3],
      ["closed", 1],
    ]),
  }),
  searchpayments: (rng, ctx) => ({
    loannumber: ctx.loans[0],
    from: daysBefore(ctx.day, pick(rng, [30, 60, 90])),
    ...(rng() < 0.5 ? { to: ctx.day } : {}),
    ...(rng() < 0.4 ? { limit: pick(rng, [10, 20, 50]) } : {}),
  }),
  refundfee: (rng, ctx) => ({ loannumber: ctx.loans[0], amount: pick(rng, [15, 25, 35, 50, 120, 250, 500]), reason: pick(rng, REFUND_REASONS) }),
  getcustomer: (rng, ctx) => ({ customerid: ctx.customerid, ...(rng() < 0.5 ? { include: rng() < 0.5 ? ["loans"] : ["loans", "contacts"] } : {}) }),
  sendmessage: (rng, ctx) => ({
    customerid: ctx.customerid,
    channel: rng() < 0.7 ? "email" : "sms",
    body: pick(rng, [
      `Your payment on loan ${ctx.loans[0]} arrived after the due date, which is why a fee was charged.`,
      `We have refunded the fee on loan ${ctx.loans[0]}. It will show on your account within 3 working days.`,
      `Loan ${ctx.loans[0]} is overdue. Please pay the outstanding amount or reply to arrange a plan.`,
      "A colleague will call you at the time you chose.",
    ]),
  }),
  schedulecallback: (rng, ctx) => ({
    customerid: ctx.customerid,
    slot: { date: daysBefore(ctx.day, -int(rng, 1, 5)), time: `${String(int(rng, 9, 16)).padStart(2, "0")}:${pick(rng, ["00", "15", "30", "45"])}` },
    ...(rng() < 0.3 ? { note: "Customer asks about the late fee." } : {}),
  }),
  createticket: (rng, ctx) => ({
    subject: pick(rng, ["Fee dispute needs review", "Customer asks for a payment plan", "Payment not matched to loan"]),
    priority: weighted(rng, [
      ["normal", 5],
      ["high", 3],
      ["low", 1],
      ["urgent", 1],
    ]),
    ...(rng() < 0.6 ? { tags: rng() < 0.5 ? ["fees"] : ["fees", "loan"] } : {}),
    loannumber: ctx.loans[0],
  }),
};

const TYPOS: Record<string, string[]> = {
  getloan: ["getloans", "get_loan", "getLoan"],
  listopenloans: ["listopenloan", "list_open_loans"],
  searchpayments: ["searchpayment", "getpayments"],
  refundfee: ["refund_fee", "refundfees"],
  getcustomer: ["getcustomers", "get_customer"],
  sendmessage: ["sendmsg", "send_message"],
  schedulecallback: ["schedulecall", "bookcallback"],
  createticket: ["createtickets", "openticket"],
};

const EXTRAS: Record<string, (a: Args) => Args> = {
  getloan: (a) => ({ ...a, customername: "Ada Lovelace" }),
  listopenloans: (a) => ({ ...a, limit: 10 }),
  searchpayments: (a) => ({ ...a, customerid: "C104233" }),
  refundfee: (a) => ({ ...a, currency: "EUR" }),
  getcustomer: (a) => ({ ...a, loannumber: "4471" }),
  sendmessage: (a) => ({ ...a, subject: "About your loan" }),
  schedulecallback: (a) => ({ ...a, slot: { ...(a.slot as Args), timezone: "Europe/Berlin" } }), // nested
  createticket: (a) => ({ ...a, assignee: "back-office" }),
};

/** Per tool and category: the corrupted arguments (or raw text) a model writes. */
const WRONG: Record<string, Partial<Record<Category, (a: Args, rng: Rng) => Args>>> = {
  getloan: {
    wrong_type: (a, rng) => (rng() < 0.8 ? { ...a, loannumber: Number(a.loannumber) } : { ...a, includehistory: "yes" }),
    out_of_range: (a, rng) => ({ ...a, loannumber: rng() < 0.6 ? String(a.loannumber).slice(0, 3) : `LN${String(a.loannumber).slice(0, 5)}` }),
  },
  listopenloans: {
    wrong_type: (a) => ({ ...a, status: [a.status] }),
    invalid_choice: (a, rng) => ({ ...a, status: pick(rng, ["pending", "late", "active"]) }),
  },
  searchpayments: {
    wrong_type: (a, rng) => (rng() < 0.5 ? { ...a, limit: "20" } : { ...a, loannumber: Number(a.loannumber) }),
    out_of_range: (a, rng) => (rng() < 0.5 ? { ...a, limit: 500 } : { ...a, from: String(a.from).split("-").reverse().join("/") }),
  },
  refundfee: {
    wrong_type: (a) => ({ ...a, amount: `${a.amount}.00` }),
    invalid_choice: (a, rng) => ({ ...a, reason: pick(rng, ["customer_request", "late fee"]) }),
    out_of_range: (a, rng) => ({ ...a, amount: rng() < 0.5 ? 0 : 25000 }),
    not_allowed: (a, rng) => ({ ...a, amount: pick(rng, [650, 800, 1200, 2400]) }),
  },
  getcustomer: {
    wrong_type: (a) => ({ ...a, include: "loans" }),
    invalid_choice: (a) => ({ ...a, include: ["loans", "history"] }), // inside an array
    out_of_range: (a, rng) => (rng() < 0.5 ? { ...a, customerid: String(a.customerid).slice(1) } : { ...a, include: ["loans", "loans"] }),
  },
  sendmessage: {
    wrong_type: (a) => ({ ...a, body: [a.body] }),
    invalid_choice: (a, rng) => ({ ...a, channel: pick(rng, ["whatsapp", "phone", "letter"]) }),
    out_of_range: (a) => ({ ...a, body: `${a.body} `.repeat(12).trim() }), // over 500 characters
  },
  schedulecallback: {
    wrong_type: (a) => {
      const slot = a.slot as Args;
      return { ...a, slot: `${slot.date} ${slot.time}` };
    },
    out_of_range: (a, rng) => {
      const slot = a.slot as Args;
      return { ...a, slot: rng() < 0.6 ? { ...slot, time: pick(rng, ["2pm", "14h30", "9:00"]) } : { ...slot, date: "next tuesday" } }; // nested
    },
  },
  createticket: {
    wrong_type: (a) => ({ ...a, tags: "fees" }),
    invalid_choice: (a, rng) => ({ ...a, priority: pick(rng, ["critical", "p1", "medium"]) }),
    out_of_range: (a, rng) =>
      rng() < 0.5 ? { ...a, tags: ["fees", "loan", "dispute", "refund", "late", "customer", "vip"] } : { ...a, tags: ["fees", "fees"] }, // array cases
  },
};

const CATEGORY_WEIGHTS: Record<Category, number> = {
  malformed_arguments: 1,
  unknown_tool: 1.5,
  extra_argument: 1.5,
  missing_argument: 2,
  wrong_type: 2.5,
  invalid_choice: 2,
  out_of_range: 2.5,
  not_allowed: 12, // refundfee only: most of its refusals are the approval policy
};

/** The raw text of arguments that are not JSON: cut short, unquoted keys, or Python-style quotes. */
function malformed(a: Args, rng: Rng): string {
  const json = JSON.stringify(a);
  const style = int(rng, 0, 2);
  if (style === 0) return json.slice(0, -1);
  if (style === 1) return json.replace(/"(\w+)":/g, "$1: ");
  return json.replace(/"/g, "'");
}

function missing(tool: string, a: Args, rng: Rng): Args {
  if (tool === "schedulecallback" && rng() < 0.5) {
    const { time: _, ...slot } = a.slot as Args; // nested
    return { ...a, slot };
  }
  const required = (DEMO_TOOLS.find((t) => t.name === tool)!.parameters.required as string[]).filter((k) => k in a);
  const drop = pick(rng, required);
  return Object.fromEntries(Object.entries(a).filter(([k]) => k !== drop));
}

function categoriesFor(tool: string): Category[] {
  return ["malformed_arguments", "unknown_tool", "extra_argument", "missing_argument", ...(Object.keys(WRONG[tool] ?? {}) as Category[])];
}

function corrupt(tool: string, valid: Args, category: Category, rng: Rng): Call {
  switch (category) {
    case "malformed_arguments":
      return { tool, arguments: malformed(valid, rng) };
    case "unknown_tool":
      return { tool: pick(rng, TYPOS[tool]!), arguments: valid };
    case "extra_argument":
      return { tool, arguments: EXTRAS[tool]!(valid) };
    case "missing_argument":
      return { tool, arguments: missing(tool, valid, rng) };
    default:
      return { tool, arguments: WRONG[tool]![category]!(valid, rng) };
  }
}

// ---------------------------------------------------------------------------------------------
// Agents and runs

type Agent = "loan-assistant" | "collections-bot";
/**
 * The tools the collections bot's harness gives the model, and says so on each run's first event
 * (`toolSet`): its runs' context cost counts these five, the assistant's every registered tool.
 */
const COLLECTIONS_TOOLS = ["listopenloans", "getloan", "sendmessage", "schedulecallback", "createticket"];

/** What one run sets out to do: the tools it calls, in order (3 to 7 calls before retries). */
function plan(rng: Rng): { agent: Agent; tools: string[] } {
  const kind = weighted(rng, [
    ["fee", 3],
    ["status", 2],
    ["callback", 1],
    ["complaint", 1],
    ["sweep", 3],
  ] as const);
  const maybe = (p: number, tool: string) => (rng() < p ? [tool] : []);
  switch (kind) {
    case "fee":
      return { agent: "loan-assistant", tools: ["getcustomer", "getloan", "searchpayments", ...maybe(0.8, "refundfee"), "sendmessage"] };
    case "status":
      return { agent: "loan-assistant", tools: ["getcustomer", "getloan", ...maybe(0.4, "searchpayments"), "sendmessage"] };
    case "callback":
      return { agent: "loan-assistant", tools: ["getcustomer", "getloan", "schedulecallback", "sendmessage"] };
    case "complaint":
      return { agent: "loan-assistant", tools: ["getcustomer", "getloan", "searchpayments", ...maybe(0.5, "refundfee"), "createticket", "sendmessage"] };
    case "sweep":
      return {
        agent: "collections-bot",
        tools: [
          "listopenloans",
          ...Array<string>(int(rng, 1, 3)).fill("getloan"),
          pick(rng, ["sendmessage", "schedulecallback", "createticket"]),
          ...maybe(0.3, "sendmessage"),
        ],
      };
  }
}

const LATENCY_MS: Record<string, number> = {
  getloan: 120,
  listopenloans: 180,
  searchpayments: 350,
  refundfee: 600,
  getcustomer: 90,
  sendmessage: 450,
  schedulecallback: 300,
  createticket: 250,
};

/** Share of the day's runs that start in each UTC hour: a working-day curve. */
const HOURS = [1, 1, 1, 1, 1, 2, 4, 7, 10, 12, 12, 11, 9, 10, 11, 11, 10, 8, 6, 5, 4, 3, 2, 1];
/** Sunday … Saturday. */
const WEEKDAYS = [0.4, 1, 1.05, 1.05, 1, 0.9, 0.5];

export type DemoOptions = { now: Date; days?: number; seed?: number; runsPerDay?: number };

/**
 * `days` days of agent runs up to `now` (runs that would end after `now` are left out), about
 * `runsPerDay` runs on a weekday, fewer at weekends, most in working hours.
 */
export function generateDemoEvents({ now, days = 30, seed = 1, runsPerDay = 200 }: DemoOptions): ToolCallEvent[] {
  const events: ToolCallEvent[] = [];
  const today = Math.floor(now.getTime() / DAY_MS);
  for (let dayNumber = today - days + 1; dayNumber <= today; dayNumber++) {
    const rng = mulberry32(mix(seed, dayNumber)); // one stream per day: a day's runs do not depend on `days`
    const draw = steadyDraws(rng);
    const dayStart = dayNumber * DAY_MS;
    const day = iso(new Date(dayStart));
    const runs = Math.round(runsPerDay * WEEKDAYS[new Date(dayStart).getUTCDay()]! * (0.9 + 0.2 * rng()));
    for (let r = 0; r < runs; r++) {
      const start =
        dayStart +
        weighted(
          rng,
          HOURS.map((w, h) => [h, w] as const),
        ) *
          HOUR_MS +
        Math.floor(rng() * HOUR_MS);
      const run = generateRun(rng, draw, { seed, day, index: r, start, daysAgo: (now.getTime() - start) / DAY_MS });
      if (Date.parse(run[run.length - 1]!.timestamp) <= now.getTime()) events.push(...run);
    }
  }
  return events;
}

function generateRun(rng: Rng, draw: Draw, at: { seed: number; day: string; index: number; start: number; daysAgo: number }): ToolCallEvent[] {
  const m = weighted(rng, modelMix(at.daysAgo));
  const { agent, tools } = plan(rng);
  const ctx: Ctx = {
    customerid: `C${int(rng, 100000, 199999)}`,
    loans: Array.from({ length: 3 }, () => String(int(rng, 1000, 9_999_999))),
    day: at.day,
  };
  const environment = rng() < 0.85 ? "production" : "staging";
  const runId = `demo-${at.seed}-${at.day.replaceAll("-", "")}-${String(at.index).padStart(4, "0")}`;
  const q = firstAttemptInvalid(m);
  const events: ToolCallEvent[] = [];
  let time = at.start;

  let turn = -1;
  /**
   * `previous`: the invalid call this one retries. `together`: requested by the same model response
   * as the call before it (its turn, its time; the response's usage went with the first call).
   */
  const emit = (call: Call, verdict: { category: Category; message?: string } | null, previous: ToolCallEvent | undefined, together = false) => {
    const step = events.length;
    if (!together) turn++;
    // Pairing follows the tool name; a retry under another name (after or as an unknown tool) names its call explicitly.
    const correctsId = previous && previous.tool !== call.tool ? previous.id : undefined;
    const [inPrice, outPrice] = m.price;
    const inputTokens = 1400 + step * 380 + int(rng, 0, 200);
    const outputTokens = typeof call.arguments === "string" ? int(rng, 60, 160) : int(rng, 25, 110);
    const known = call.tool === DEMO_SCHEMA_FIX.name && at.daysAgo <= SCHEMA_FIX_DAYS_AGO ? FIXED_VERSION : TOOL_VERSIONS.get(call.tool);
    const invalidOutcome = verdict?.category === "not_allowed" || verdict?.message === ERROR_422;
    const event: ToolCallEvent = {
      id: `${runId}-${step}`,
      runId,
      step,
      turn,
      timestamp: together ? events.at(-1)!.timestamp : new Date(time).toISOString(),
      model: m.model,
      tool: call.tool,
      arguments: call.arguments,
      ...(invalidOutcome ? { outcome: { valid: false, category: verdict!.category, message: verdict!.message } } : {}),
      ...(verdict ? {} : resultFor(rng, call.tool)),
      ...(correctsId ? { correctsId } : {}),
      ...(together ? {} : { usage: { inputTokens, outputTokens, costUsd: Math.round(inputTokens * inPrice + outputTokens * outPrice) / 1e6 } }),
      ...(agent === "collections-bot" && known ? { toolVersion: known } : {}),
      ...(agent === "collections-bot" && step === 0 ? { toolSet: COLLECTIONS_TOOLS } : {}),
      metadata: { environment, agent },
    };
    events.push(event);
    if (!together) time += int(rng, 2, 12) * 1000 + (event.result?.latencyMs ?? 5);
    return event;
  };

  /** One tool's attempts until a valid call (or MAX_ATTEMPTS): where it stands. */
  type Attempts = { tool: string; valid: Args; invalid: boolean; confused: boolean; previous?: ToolCallEvent; attempt: number; done: boolean };
  const begin = (tool: string): Attempts => {
    const valid = VALID[tool]!(rng, ctx);
    const invalid = draw(`${m.key} first`, q);
    // Before the schema fix, the loan number often goes out as a number (see SCHEMA_FIX_DAYS_AGO).
    const confused = tool === DEMO_SCHEMA_FIX.name && at.daysAgo > SCHEMA_FIX_DAYS_AGO && !invalid && rng() < LOAN_NUMBER_CONFUSION;
    return { tool, valid, invalid: invalid || confused, confused, attempt: 0, done: false };
  };
  /** The next attempt of a tool; `together`: in the same model response as the call before it. */
  const next = (a: Attempts, together = false) => {
    const { tool, valid, previous } = a;
    if (!a.invalid) {
      // The demo's confusable pair (server/domain/confusable-tools.ts): after a refused getcustomer, every third run's
      // model calls getloan with the customer id instead (the same draws as the call it replaces, so the rest is unchanged).
      // Not after a misspelled name: that call's retry under the right name is its correction.
      const mixUp = tool === "getcustomer" && previous?.tool === "getcustomer" && at.index % 3 === 0;
      emit(mixUp ? { tool: "getloan", arguments: { customerid: ctx.customerid } } : { tool, arguments: valid }, null, mixUp ? undefined : previous, together);
      a.done = true;
      return;
    }
    const asNumber = a.confused && a.attempt === 0;
    const category: Category = asNumber
      ? "wrong_type"
      : weighted(
          rng,
          categoriesFor(tool).map((c) => [c, CATEGORY_WEIGHTS[c] * (m.leans?.[c] ?? 1)] as const),
        );
    const says422 = category !== "not_allowed" && draw(`${m.key} 422`, m.error422 ?? 0);
    const message = category === "not_allowed" ? REFUND_POLICY_MESSAGE : says422 ? ERROR_422 : undefined;
    const call = asNumber ? { tool, arguments: { ...valid, loannumber: Number(valid.loannumber) } } : corrupt(tool, valid, category, rng);
    a.previous = emit(call, { category, ...(message ? { message } : {}) }, previous, together);
    a.invalid = says422 ? draw(`${m.key} after 422`, 1 - FIX_RATE.error422) : draw(`${m.key} after message`, 1 - FIX_RATE.goodMessage);
    a.done = ++a.attempt >= MAX_ATTEMPTS;
  };

  // a sweep's loan lookups are requested together, in one model response (parallel calls, docs/events.md);
  // each invalid one is then retried in turns of its own
  for (const group of parallelGroups(tools, agent)) {
    const attempts = group.map(begin);
    attempts.forEach((a, i) => next(a, i > 0));
    for (const a of attempts) while (!a.done) next(a);
  }
  return events;
}

/** The plan's tools as the model requests them: the collections bot's consecutive getloan calls in one response. */
function parallelGroups(tools: readonly string[], agent: string): string[][] {
  const groups: string[][] = [];
  for (const tool of tools) {
    const last = groups.at(-1);
    if (agent === "collections-bot" && tool === "getloan" && last?.[0] === "getloan") last.push(tool);
    else groups.push([tool]);
  }
  return groups;
}

/** Tools that fail now and then, with what they say (a share of their calls, drawn from the same number as the rest). */
const FLAKY: Record<string, { share: number; summary: string }> = {
  sendmessage: { share: 0.06, summary: "Error: the SMS gateway answered 503 Service Unavailable. Try again in a minute." },
  refundfee: { share: 0.04, summary: "Error: the ledger is locked for the nightly close; refunds resume at 02:00 UTC." },
};

/**
 * What running a valid call gave: mostly ok, some tool errors (more for the flaky tools), not
 * found for lookups, timeouts of searchpayments' slow tail (its p95 stands out), a few calls
 * whose harness reported no result, and listopenloans answering an empty list now and then.
 */
function resultFor(rng: Rng, tool: string): { result?: NonNullable<ToolCallEvent["result"]> } {
  const latencyMs = Math.round(LATENCY_MS[tool]! * (0.5 + rng() + rng() * rng() * 2));
  const r = rng();
  if (r < 0.015) return { result: { status: "error", latencyMs, summary: "Error: upstream service returned 500." } };
  if (r < 0.015 + (FLAKY[tool]?.share ?? 0)) return { result: { status: "error", latencyMs, summary: FLAKY[tool]!.summary } };
  if ((tool === "getloan" || tool === "getcustomer") && r < 0.08) return { result: { status: "not_found", latencyMs } };
  if (tool === "searchpayments" && r > 0.97)
    return { result: { status: "timeout", latencyMs: 10_000, summary: "Error: searchpayments did not answer within 10000 ms." } };
  if (tool === "searchpayments" && r > 0.9) return { result: { status: "ok", latencyMs: latencyMs * 8 } }; // the slow tail
  if (r > 0.99) return {}; // the harness reported no result
  if (tool === "listopenloans" && r > 0.5 && r < 0.58) return { result: { status: "ok", latencyMs, summary: "[]" } };
  return { result: { status: "ok", latencyMs } };
}
