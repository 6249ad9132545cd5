// Dry run of a schema change: each stored call's verdict now against its verdict under the
// proposed schema, tallied into fixed (invalid → valid), broken (valid → invalid), still invalid
// and unchanged, per category, with a few example call ids. Pure: the service feeds it pages.
import { formatCount } from "../contracts/format-number";

/**
 * Calls whose arguments are larger than this as JSON are not replayed: they are counted as
 * skipped (a dry run reads pages of calls into memory; 1 MB arguments are allowed at ingestion).
 */
export const DRY_RUN_MAX_ARGUMENT_BYTES = 256 * 1024;

/** How many example ids each outcome (and each category of it) keeps. */
export const DRY_RUN_EXAMPLES = 5;

export type Outcome = "fixed" | "broken" | "still_invalid" | "still_valid";

type CategoryTally = { category: string; fixed: number; broken: number; stillInvalid: number; examples: { fixed: string[]; broken: string[] } };

export type DryRunTally = {
  /** calls replayed */
  scanned: number;
  /** calls read but not replayed: their arguments are over DRY_RUN_MAX_ARGUMENT_BYTES */
  skipped: number;
  fixed: number;
  broken: number;
  stillInvalid: number;
  stillValid: number;
  /** invalid before and after, but for another reason (category) than before */
  recategorised: number;
  examples: { fixed: string[]; broken: string[] };
  /** fixed: the category before; broken and still invalid: the category after */
  byCategory: CategoryTally[];
};

export function emptyTally(): DryRunTally {
  return { scanned: 0, skipped: 0, fixed: 0, broken: 0, stillInvalid: 0, stillValid: 0, recategorised: 0, examples: { fixed: [], broken: [] }, byCategory: [] };
}

export function outcomeOf(before: boolean, after: boolean): Outcome {
  return before ? (after ? "still_valid" : "broken") : after ? "fixed" : "still_invalid";
}

const keep = (ids: string[], id: string) => {
  if (ids.length < DRY_RUN_EXAMPLES) ids.push(id);
};

function categoryEntry(tally: DryRunTally, category: string): CategoryTally {
  let entry = tally.byCategory.find((c) => c.category === category);
  if (!entry) {
    entry = { category, fixed: 0, broken: 0, stillInvalid: 0, examples: { fixed: [], broken: [] } };
    tally.byCategory.push(entry);
  }
  return entry;
}

/** Adds one call: its verdict before (as stored) and after (against the proposed schema). Mutates and returns `tally`. */
export function addCall(
  tally: DryRunTally,
  call: { id: string; before: { valid: boolean; category?: string | null }; after: { valid: boolean; category?: string | null } },
): DryRunTally {
  tally.scanned++;
  const outcome = outcomeOf(call.before.valid, call.after.valid);
  switch (outcome) {
    case "still_valid":
      tally.stillValid++;
      break;
    case "fixed":
    case "broken": {
      // a fixed call counts under the category it had, a broken one under the one it would get
      tally[outcome]++;
      keep(tally.examples[outcome], call.id);
      const entry = categoryEntry(tally, (outcome === "fixed" ? call.before : call.after).category ?? "");
      entry[outcome]++;
      keep(entry.examples[outcome], call.id);
      break;
    }
    case "still_invalid":
      tally.stillInvalid++;
      categoryEntry(tally, call.after.category ?? "").stillInvalid++;
      if ((call.before.category ?? "") !== (call.after.category ?? "")) tally.recategorised++;
      break;
  }
  return tally;
}

/** Two tallies of consecutive pages as one (examples: the first ones seen, in order). */
export function mergeTallies(a: DryRunTally, b: DryRunTally): DryRunTally {
  const merged = structuredClone(a);
  merged.scanned += b.scanned;
  merged.skipped += b.skipped;
  merged.fixed += b.fixed;
  merged.broken += b.broken;
  merged.stillInvalid += b.stillInvalid;
  merged.stillValid += b.stillValid;
  merged.recategorised += b.recategorised;
  for (const id of b.examples.fixed) keep(merged.examples.fixed, id);
  for (const id of b.examples.broken) keep(merged.examples.broken, id);
  for (const c of b.byCategory) {
    const entry = categoryEntry(merged, c.category);
    entry.fixed += c.fixed;
    entry.broken += c.broken;
    entry.stillInvalid += c.stillInvalid;
    for (const id of c.examples.fixed) keep(entry.examples.fixed, id);
    for (const id of c.examples.broken) keep(entry.examples.broken, id);
  }
  return merged;
}

/** One sentence for a CI log or the panel: what the change would do to the calls replayed. */
export function summarizeDryRun(t: DryRunTally): string {
  const skipped = t.skipped
    ? ` ${formatCount(t.skipped)} calls skipped: their arguments are over ${DRY_RUN_MAX_ARGUMENT_BYTES / 1024} KiB, too large to replay here.`
    : "";
  if (t.scanned === 0)
    return (t.skipped ? "No call of this tool in the range could be replayed." : "No calls of this tool in the range: nothing to replay.") + skipped;
  const parts = [
    `${formatCount(t.scanned)} calls replayed`,
    `${formatCount(t.fixed)} invalid calls would become valid`,
    `${formatCount(t.broken)} valid calls would be refused`,
  ];
  return `${parts.join(", ")}${t.broken > 0 ? " — this change breaks calls models already make." : "."}${skipped}`;
}

/** Calls read so far, replayed or skipped: what the limit and the progress count. */
export const callsRead = (t: DryRunTally) => t.scanned + t.skipped;
