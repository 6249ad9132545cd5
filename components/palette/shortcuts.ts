// The project pages' keyboard shortcuts: what a key press does, and the list `?` shows. Pure.

import { NAV } from "../project-pages";

export type KeyPress = { key: string; metaKey: boolean; ctrlKey: boolean; altKey: boolean };
/** What the focused element is, as far as shortcuts care. */
export type FocusTarget = { tagName?: string; isContentEditable?: boolean; type?: string } | null;

export type KeyAction = { do: "palette" } | { do: "shortcuts" } | { do: "await-go" } | { do: "go"; path: string } | null;

/** A key press in these types text: single-key shortcuts leave it alone. */
const NOT_TEXT_INPUTS = new Set(["button", "checkbox", "radio", "submit", "reset", "range", "color", "file", "image"]);

export function isTypingTarget(target: FocusTarget): boolean {
  if (!target) return false;
  if (target.isContentEditable) return true;
  const tag = (target.tagName ?? "").toUpperCase();
  if (tag === "TEXTAREA" || tag === "SELECT") return true;
  return tag === "INPUT" && !NOT_TEXT_INPUTS.has((target.type ?? "text").toLowerCase());
}

/**
 * What a key press does on a project page. ⌘K / Ctrl-K opens the palette everywhere, even while
 * typing (a modified key types nothing); "/", "?" and "g then a letter" only when the focus is not
 * in a text field. `awaitingGo`: the previous key was a lone "g".
 */
export function keyAction(press: KeyPress, typing: boolean, awaitingGo: boolean): KeyAction {
  const key = press.key;
  if ((press.metaKey || press.ctrlKey) && !press.altKey && key.toLowerCase() === "k") return { do: "palette" };
  if (typing || press.metaKey || press.ctrlKey || press.altKey) return null;
  if (awaitingGo) {
    const page = NAV.find((p) => p.key === key.toLowerCase());
    return page ? { do: "go", path: page.path } : null;
  }
  if (key === "/") return { do: "palette" };
  if (key === "?") return { do: "shortcuts" };
  if (key === "g" || key === "G") return { do: "await-go" };
  return null;
}

/** How long after "g" its second key counts. */
export const GO_WINDOW_MS = 1500;

/** The list `?` shows, in the order shown. `keys` are pressed together unless `then`. */
export const SHORTCUT_LIST: { keys: string[]; then?: boolean; what: string }[] = [
  { keys: ["⌘", "K"], what: "Open the command palette (Ctrl K on Windows and Linux)" },
  { keys: ["/"], what: "Open the command palette" },
  { keys: ["?"], what: "Show these shortcuts" },
  ...NAV.map((page) => ({ keys: ["g", page.key], then: true, what: `Go to ${page.label}` })),
  { keys: ["↑ / ↓"], what: "In the palette: move through the results" },
  { keys: ["Enter"], what: "In the palette: open the selected result" },
  { keys: ["Esc"], what: "Close the palette or this list" },
];
