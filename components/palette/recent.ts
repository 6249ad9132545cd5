// The palette's "Recent": the project pages visited last, newest first, kept in the browser
// (localStorage, per project). Pure but for the two storage functions at the end.

import { NAV, SUBPAGES } from "../project-pages";
import type { Entry } from "./match";

export const RECENT_MAX = 6;

type Recent = Pick<Entry, "kind" | "label" | "href">;

const decode = (part: string) => {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
};

/** What a visited path of the project was, for the recent list; null for paths not worth listing (the palette lists them anyway, or unknown). */
export function describePath(slug: string, pathname: string): Recent | null {
  const base = `/p/${slug}`;
  if (pathname !== base && !pathname.startsWith(`${base}/`)) return null;
  const rest = pathname.slice(base.length);
  const parts = rest.split("/").filter(Boolean);
  const href = pathname;
  if (parts[0] === "tools" && parts[1]) return { kind: "tool", label: decode(parts[1]), href };
  if (parts[0] === "calls" && parts[1]) return { kind: "call", label: `Call ${decode(parts[1])}`, href };
  if (parts[0] === "runs" && parts[1]) return { kind: "run", label: `Run ${decode(parts[1])}`, href };
  if (parts[0] === "alerts" && parts[1] === "rules" && parts[2]) return { kind: "rule", label: "Alert rule", href };
  if (parts[0] === "alerts" && parts[1] && parts[1] !== "rules") return { kind: "incident", label: "Incident", href };
  const page = [...SUBPAGES, ...NAV].find((p) => p.path === rest);
  return page ? { kind: "page", label: page.label, href } : null;
}

/** The list with `item` first and no other item of the same href, at most RECENT_MAX. */
export function addRecent(list: readonly Recent[], item: Recent): Recent[] {
  return [item, ...list.filter((r) => r.href !== item.href)].slice(0, RECENT_MAX);
}

/** A stored list as far as it is valid (anything else in storage is ignored). */
export function parseRecent(text: string | null): Recent[] {
  try {
    const value: unknown = JSON.parse(text ?? "[]");
    if (!Array.isArray(value)) return [];
    return value
      .filter((r): r is Recent => !!r && typeof r.label === "string" && typeof r.href === "string" && typeof r.kind === "string")
      .slice(0, RECENT_MAX);
  } catch {
    return [];
  }
}

const storageKey = (slug: string) => `toolgate.recent.${slug}`;

export function readRecent(slug: string): Recent[] {
  try {
    return parseRecent(window.localStorage.getItem(storageKey(slug)));
  } catch {
    return []; // storage refused (private mode, quota): no recent list
  }
}

export function rememberVisit(slug: string, pathname: string) {
  const item = describePath(slug, pathname);
  if (!item) return;
  try {
    window.localStorage.setItem(storageKey(slug), JSON.stringify(addRecent(readRecent(slug), item)));
  } catch {
    // storage refused: the palette works without its recent list
  }
}
