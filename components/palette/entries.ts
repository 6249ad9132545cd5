// What the command palette lists, from the project's names (palette.index) and the ids found
// for what was typed (palette.lookup). Pure.

import { scopeText, type IncidentScope } from "../alerts/format";
import { explorerUrl } from "../calls/explorer-params";
import { callHref, runHref } from "../calls/format";
import { formatCount } from "../../contracts/format-number";
import { formatDateTimeZoned } from "../../isomorphic/time-zone";
import { NAV, SUBPAGES } from "../project-pages";
import type { Entry, EntryKind } from "./match";

export type PaletteIndex = {
  tools: { name: string; calls: number }[];
  modelVersions: { model: string; version: string; calls: number }[];
  incidents: { id: string; rule: string; state: string; firedAt: string; scope: IncidentScope }[];
  rules: { id: string; name: string; enabled: boolean }[];
};

export type IdMatches = {
  calls: { id: string; runId: string; tool: string; timestamp: string; valid: boolean | null }[];
  runs: { runId: string; calls: number; last: string }[];
  incidents: { id: string; state: string; firedAt: string; rule: string }[];
};

/** The headings of the palette's groups. */
const GROUPS: { kind: EntryKind; heading: string }[] = [
  { kind: "call", heading: "Calls" },
  { kind: "run", heading: "Runs" },
  { kind: "page", heading: "Pages" },
  { kind: "tool", heading: "Tools" },
  { kind: "model", heading: "Model versions" },
  { kind: "incident", heading: "Incidents" },
  { kind: "rule", heading: "Alert rules" },
  { kind: "action", heading: "Help" },
];

const calls = (n: number) => `${formatCount(n)} call${n === 1 ? "" : "s"}`;
const verdict = (valid: boolean | null) => (valid === null ? "unchecked" : valid ? "valid" : "invalid");

/** Every page of the project, then its tools, model versions, incidents and alert rules, and the shortcuts' list. */
export function indexEntries(slug: string, index: PaletteIndex | undefined, zone: string): Entry[] {
  const base = `/p/${slug}`;
  const pages: Entry[] = [
    ...NAV.map((p) => ({ key: `page:${p.path}`, kind: "page" as const, label: p.label, href: base + p.path, detail: `g then ${p.key}` })),
    ...SUBPAGES.map((p) => ({ key: `page:${p.path}`, kind: "page" as const, label: p.label, href: base + p.path, keywords: p.keywords })),
  ];
  const help: Entry = { key: "action:shortcuts", kind: "action", label: "Keyboard shortcuts", action: "shortcuts", detail: "?", keywords: ["help", "keys"] };
  if (!index) return [...pages, help];
  return [
    ...pages,
    ...index.tools.map((t) => ({
      key: `tool:${t.name}`,
      kind: "tool" as const,
      label: t.name,
      href: `${base}/tools/${encodeURIComponent(t.name)}`,
      detail: t.calls ? `${calls(t.calls)} in 30 days` : "registered, no calls in 30 days",
    })),
    ...index.modelVersions.map((m) => ({
      key: `model:${m.model}@${m.version}`,
      kind: "model" as const,
      label: m.version ? `${m.model} ${m.version}` : m.model,
      keywords: [m.model, m.version].filter(Boolean),
      href: explorerUrl(slug, { model: m.model, modelVersion: m.version || undefined }),
      detail: `${calls(m.calls)} in 30 days · opens its calls`,
    })),
    ...index.incidents.map((i) => ({
      key: `incident:${i.id}`,
      kind: "incident" as const,
      label: i.rule,
      keywords: [i.id, scopeText(i.scope)],
      href: `${base}/alerts/${i.id}`,
      detail: `${i.state} · ${scopeText(i.scope)} · fired ${formatDateTimeZoned(i.firedAt, zone)}`,
    })),
    ...index.rules.map((r) => ({
      key: `rule:${r.id}`,
      kind: "rule" as const,
      label: r.name,
      href: `${base}/alerts/rules/${r.id}`,
      detail: r.enabled ? "alert rule" : "alert rule, switched off",
    })),
    help,
  ];
}

/** The calls, runs and incidents found by id, as entries (incidents the index already has keep theirs). */
export function idEntries(slug: string, found: IdMatches, zone: string): Entry[] {
  return [
    ...found.calls.map((c) => ({
      key: `call:${c.id}`,
      kind: "call" as const,
      label: c.id,
      keywords: [c.id],
      href: callHref(slug, c.id),
      detail: `${c.tool} · ${verdict(c.valid)} · run ${c.runId} · ${formatDateTimeZoned(c.timestamp, zone, "second")}`,
    })),
    ...found.runs.map((r) => ({
      key: `run:${r.runId}`,
      kind: "run" as const,
      label: r.runId,
      keywords: [r.runId],
      href: runHref(slug, r.runId),
      detail: `${calls(r.calls)} · last ${formatDateTimeZoned(r.last, zone)}`,
    })),
    ...found.incidents.map((i) => ({
      key: `incident:${i.id}`,
      kind: "incident" as const,
      label: i.rule,
      keywords: [i.id],
      href: `/p/${slug}/alerts/${i.id}`,
      detail: `${i.state} · fired ${formatDateTimeZoned(i.firedAt, zone)}`,
    })),
  ];
}

/** The entries of a query: those found by id first (they were typed whole or nearly), then the ranked names, no key twice. */
export function mergeEntries(byId: readonly Entry[], ranked: readonly Entry[]): Entry[] {
  const seen = new Set(byId.map((e) => e.key));
  return [...byId, ...ranked.filter((e) => !seen.has(e.key))];
}

/** The recent visits as entries, named from the index where it knows better (an incident's rule, a rule's name). */
export function recentEntries(recent: readonly { kind: string; label: string; href?: string }[], known: readonly Entry[]): Entry[] {
  const byHref = new Map(known.filter((e) => e.href).map((e) => [e.href, e]));
  return recent.map((r) => {
    const entry = r.href ? byHref.get(r.href) : undefined;
    return { ...(entry ?? { kind: r.kind as EntryKind, label: r.label, href: r.href }), key: `recent:${r.href}` };
  });
}

/**
 * Whether to say that no id matched the text: when no name matched either, or when the text has a
 * digit (ids nearly always have one, names seldom; "listopen" finding tools needs no such line).
 */
export const sayNoId = (text: string, namesMatched: number) => namesMatched === 0 || /\d/.test(text);

/** What the palette says when an id-like text found nothing: which kinds were looked for. */
export function noIdMessage(text: string): string {
  return `No call, run or incident with an id that is or starts with "${text.trim()}" in this project.`;
}

/**
 * The entries by kind, under their headings: the groups in the order of their best entry (so the
 * best match leads whatever its kind), each group's entries in the order given, at most `perGroup`.
 */
export function grouped(entries: readonly Entry[], perGroup = Infinity): { heading: string; entries: Entry[] }[] {
  const groups = new Map<EntryKind, Entry[]>();
  for (const entry of entries) {
    const list = groups.get(entry.kind) ?? [];
    if (!groups.has(entry.kind)) groups.set(entry.kind, list);
    if (list.length < perGroup) list.push(entry);
  }
  return [...groups].map(([kind, list]) => ({ heading: GROUPS.find((g) => g.kind === kind)!.heading, entries: list }));
}
