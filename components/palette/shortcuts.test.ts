import { describe, expect, it } from "vitest";
import { isTypingTarget, keyAction, SHORTCUT_LIST, type KeyPress } from "./shortcuts";

const press = (key: string, mods: Partial<KeyPress> = {}): KeyPress => ({ key, metaKey: false, ctrlKey: false, altKey: false, ...mods });

describe("isTypingTarget", () => {
  it("text fields, text areas, selects and editable content take the keys", () => {
    for (const t of [
      { tagName: "INPUT" },
      { tagName: "input", type: "search" },
      { tagName: "TEXTAREA" },
      { tagName: "SELECT" },
      { tagName: "DIV", isContentEditable: true },
    ])
      expect(isTypingTarget(t), JSON.stringify(t)).toBe(true);
  });
  it("buttons, links, check boxes and the page do not", () => {
    for (const t of [null, { tagName: "BUTTON" }, { tagName: "A" }, { tagName: "INPUT", type: "checkbox" }, { tagName: "BODY" }])
      expect(isTypingTarget(t), JSON.stringify(t)).toBe(false);
  });
});

describe("keyAction", () => {
  it("⌘K and Ctrl-K open the palette, even while typing", () => {
    expect(keyAction(press("k", { metaKey: true }), false, false)).toEqual({ do: "palette" });
    expect(keyAction(press("K", { ctrlKey: true }), true, false)).toEqual({ do: "palette" });
    expect(keyAction(press("k", { ctrlKey: true, altKey: true }), false, false)).toBeNull();
  });
  it('"/", "?" and "g then a letter" act only outside text fields', () => {
    expect(keyAction(press("/"), false, false)).toEqual({ do: "palette" });
    expect(keyAction(press("?"), false, false)).toEqual({ do: "shortcuts" });
    expect(keyAction(press("g"), false, false)).toEqual({ do: "await-go" });
    expect(keyAction(press("t"), false, true)).toEqual({ do: "go", path: "/tools" });
    expect(keyAction(press("o"), false, true)).toEqual({ do: "go", path: "" });
    for (const key of ["/", "?", "g"]) expect(keyAction(press(key), true, false), key).toBeNull();
    expect(keyAction(press("t"), true, true)).toBeNull();
  });
  it("other keys, modified keys and an unknown letter after g do nothing", () => {
    expect(keyAction(press("t"), false, false)).toBeNull();
    expect(keyAction(press("x"), false, true)).toBeNull();
    expect(keyAction(press("/", { ctrlKey: true }), false, false)).toBeNull();
  });
});

describe("SHORTCUT_LIST", () => {
  it("lists every go-to letter once", () => {
    const letters = SHORTCUT_LIST.filter((s) => s.then).map((s) => s.keys[1]);
    expect(new Set(letters).size).toBe(letters.length);
    expect(letters.length).toBe(9);
  });
});
