import { CATEGORY_DESCRIPTIONS, type Category } from "../../../contracts/categories";
import { categoryLabel } from "../format";
import { exceedsViewLimits } from "../json-view";
import type { CallDetail } from "./types";
import { formatCount, formatUsd } from "../../../contracts/format-number";

/**
 * What the call page shows, decided from the stored call: which value to mark, which cards
 * appear, and the sentences that depend on the verdicts. No markup here (see view.test.ts).
 */

/** One problem Toolgate found, as stored in the call's `violations`. */
export type Violation = { category: string; path: string; message: string; keyword: string };

type Verdicts = Pick<CallDetail, "valid" | "category" | "checkedValid" | "checkedCategory" | "checkedPath" | "violations" | "verdictsDiffer">;

/** The failing value to mark in the arguments, and the cards the page shows below them. */
export function callView(call: Verdicts) {
  const violations = (Array.isArray(call.violations) ? call.violations : []) as Violation[];
  const unknownTool = (call.category ?? call.checkedCategory) === "unknown_tool";
  const failingPath = call.valid === false || call.checkedValid === false ? (call.checkedPath ?? violations[0]?.path ?? null) : null;
  // an unknown tool has no schema to place a path in: the tool name is what is marked
  const highlightPath = unknownTool ? null : failingPath;
  return {
    violations,
    unknownTool,
    highlightPath,
    argumentsNote:
      highlightPath !== null
        ? "As the model wrote them. The failing value is marked red."
        : unknownTool
          ? "As the model wrote them. The tool name is what failed."
          : "As the model wrote them.",
    /** the verdict card: for a refused call, or when the harness and Toolgate disagree */
    showVerdict: call.valid === false || call.verdictsDiffer,
    /** the model's next attempt: only a refused call has one */
    showNextAttempt: call.valid === false,
  };
}

/** The heading of the verdict card and, for a refused call, its category with what it means. */
export function verdictHeading(call: Pick<CallDetail, "valid" | "category">): { title: string; category: Category | null; description: string | null } {
  const refused = call.valid === false;
  const category = refused ? (call.category as Category | null) : null;
  return {
    title: refused ? "Why it was refused" : "The verdicts differ",
    category,
    description: category ? `${categoryLabel(category)}: ${lowerFirst(CATEGORY_DESCRIPTIONS[category] ?? "")}` : null,
  };
}

/** "The arguments are not a JSON object." → "the arguments are not a JSON object." */
const lowerFirst = (text: string) => text.charAt(0).toLowerCase() + text.slice(1);

/** Whose message the model got: the harness's when it sent a verdict, else the one Toolgate wrote. */
export function returnedMessageCaption(harnessValid: boolean | null): string {
  return harnessValid !== null ? "Message the harness returned to the model" : "Toolgate's message for the model (the harness sent no verdict of its own)";
}

/** The harness column repeats nothing: its message is the one shown above when that is what the refused call got. */
export function harnessMessageShownAbove(call: Pick<CallDetail, "valid" | "message" | "harnessMessage">): boolean {
  return call.valid === false && !!call.harnessMessage && call.harnessMessage === call.message;
}

/** "Toolgate (schema 4b97f36a0abe)": the schema version it checked against, shortened. */
export function toolgateColumnTitle(checkedVersion: string | null): string {
  return `Toolgate${checkedVersion ? ` (schema ${checkedVersion.slice(0, 12)})` : ""}`;
}

/** The badge colour of a result status the harness reported. */
export function resultTone(status: string): "green" | "red" | "amber" {
  return status === "ok" ? "green" : status === "error" ? "red" : "amber";
}

/** "1,868 in · 62 out · $0.0065", or null when the call reported neither input tokens nor a cost. */
export function usageText(call: Pick<CallDetail, "inputTokens" | "outputTokens" | "costUsd">): string | null {
  const parts = [
    call.inputTokens !== null ? `${formatCount(call.inputTokens)} in` : null,
    call.outputTokens !== null ? `${formatCount(call.outputTokens)} out` : null,
    call.costUsd !== null ? formatUsd(call.costUsd) : null,
  ].filter((part) => part !== null);
  return parts.length ? parts.join(" · ") : null;
}

/** Metadata as short badges: the first 50 entries, each cut at 200 characters (the raw JSON download has them whole). */
export function metadataEntries(metadata: unknown): [string, string][] {
  if (typeof metadata !== "object" || metadata === null || Array.isArray(metadata)) return [];
  const entries = Object.entries(metadata);
  const shown = entries.slice(0, 50).map(([k, v]): [string, string] => {
    const text = typeof v === "string" ? v : exceedsViewLimits(v) ? "(large value: see the raw JSON)" : JSON.stringify(v);
    return [k.length > 200 ? `${k.slice(0, 200)}…` : k, text.length > 200 ? `${text.slice(0, 200)}…` : text];
  });
  return entries.length > shown.length ? [...shown, ["…", `${entries.length - shown.length} more in the raw JSON`]] : shown;
}

/** Where the model's next attempt sits in the run: its step, or "next call" for a call without one. */
export function attemptPosition(next: Pick<CallDetail, "step">): string {
  return next.step !== null ? `step ${next.step}` : "next call";
}

/** Why the page has no schema to show, when it has none. */
export function missingSchemaReason(call: Pick<CallDetail, "category" | "checkedCategory" | "checkedVersion">): "unknown_tool" | "unchecked" | "expired" {
  if (call.category === "unknown_tool" || call.checkedCategory === "unknown_tool") return "unknown_tool";
  return call.checkedVersion === null ? "unchecked" : "expired";
}
