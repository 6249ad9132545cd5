import { z } from "zod";

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
  scopeName: 200,
  silenceReason: 500,
  /** the note sent with Acknowledge, Resolve or Snooze (on the incident's timeline) */
  actionNote: 1000,
  /** the incident's own note (shown on the list, sent in webhooks) */
  incidentNote: 2000,
  password: 200,
} as const;

/** What a refused over-long text is told: the field, the limit and the length sent. */
export const tooLongMessage = (what: string, max: number, length: number) =>
  `${what} is at most ${max.toLocaleString("en")} characters; you sent ${length.toLocaleString("en")}: shorten it (nothing is cut)`;

/** A trimmed text of at most `max` characters, refused beyond with tooLongMessage. */
export const limitedText = (what: string, max: number) =>
  z
    .string()
    .trim()
    .max(max, { error: (issue) => tooLongMessage(what, max, String(issue.input).length) });
