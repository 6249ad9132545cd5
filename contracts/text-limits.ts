import { z } from "zod";
import { formatCount } from "./format-number";
import { preview, unstorableText } from "./json-walk";

/**
 * The longest names an event carries (contracts/event.ts refuses longer ones). Filters on these
 * names take the same limits: a longer filter could match nothing, so it is refused with why.
 */
export const EVENT_NAME_LIMITS = {
  id: 128,
  runId: 256,
  tool: 200,
  modelProvider: 100,
  model: 200,
  modelVersion: 200,
  toolVersion: 100,
} as const;

/**
 * The longest text each name and note field keeps, in characters (after trimming the ends):
 * stored whole up to here and refused beyond with a message saying so, never cut. The forms
 * show the same numbers (components/counted-input.tsx), the schemas below refuse with them.
 */
export const TEXT_LIMITS = {
  projectName: 80,
  projectSlug: 63,
  personName: 80,
  apiKeyName: 80,
  webhookName: 120,
  webhookUrl: 2000,
  /** a silence's tool or model (the longest name an event carries) */
  scopeName: EVENT_NAME_LIMITS.tool,
  silenceReason: 500,
  /** the note sent with Acknowledge, Resolve or Snooze (on the incident's timeline) */
  actionNote: 1000,
  /** the incident's own note (shown on the list, sent in webhooks) */
  incidentNote: 2000,
  password: 200,
} as const;

/** The explorer's search text: the longest text a search looks for. */
export const SEARCH_TEXT_MAX = 200;

/** What a refused over-long filter is told: the filter, its limit, why, and the length sent. */
const filterTooLongMessage = (what: string, max: number, length: number) =>
  `${what} is at most ${formatCount(max)} characters (no event carries a longer one, so nothing could match); you sent ${formatCount(length)}`;

/**
 * Text PostgreSQL can take: no NUL, no lone surrogate; refused saying what was sent, what is wrong
 * where, and what to do. An event's field with one could not be stored, nor a name or a note; a
 * filter with one could match nothing (no stored event holds one). Sent on, the database refused
 * the whole statement: a 500.
 */
export const refuseUnstorable = (what: string) => (value: string, ctx: z.RefinementCtx) => {
  const problem = unstorableText(value);
  if (problem) ctx.addIssue({ code: "custom", message: `${what} ${preview(value)} ${problem}` });
};

/** An optional filter on a name events carry (EVENT_NAME_LIMITS): refused beyond its limit with filterTooLongMessage, and when it cannot be stored. */
export const filterText = (what: keyof typeof EVENT_NAME_LIMITS, max: number = EVENT_NAME_LIMITS[what]) =>
  z
    .string()
    .max(max, { error: (issue) => filterTooLongMessage(what, max, String(issue.input).length) })
    .superRefine(refuseUnstorable(what));

/** A required name (a tool to read, validate or check): not empty, and at most its event limit. */
export const nameText = (what: keyof typeof EVENT_NAME_LIMITS) => filterText(what).min(1, `name the ${what === "tool" ? "tool" : what}`);

/** What a refused over-long text is told: the field, the limit and the length sent. */
export const tooLongMessage = (what: string, max: number, length: number) =>
  `${what} is at most ${formatCount(max)} characters; you sent ${formatCount(length)}: shorten it (nothing is cut)`;

/** A trimmed text of at most `max` characters, refused beyond with tooLongMessage. */
export const limitedText = (what: string, max: number) =>
  z
    .string()
    .trim()
    .max(max, { error: (issue) => tooLongMessage(what, max, String(issue.input).length) })
    .superRefine(refuseUnstorable(what));
