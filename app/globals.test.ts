import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, test } from "vitest";

// The dark scheme mirrors Tailwind's palette in app/globals.css: a colour class the app uses
// but the mirror misses would stay light-scheme in dark (a pale panel, dark text on a dark card).
const css = readFileSync(path.join(import.meta.dirname, "globals.css"), "utf8");
const dark = css.slice(css.indexOf("@variant dark"));
const darkColors = new Set([...dark.matchAll(/--color-([a-z]+-\d+|white|black):/g)].map((m) => m[1]!));
const HUES = "slate|gray|zinc|neutral|stone|red|orange|amber|yellow|lime|green|emerald|teal|cyan|sky|blue|indigo|violet|purple|fuchsia|pink|rose";
const CLASS = new RegExp(
  `\\b(?:bg|text|border|ring|ring-offset|divide|outline|decoration|accent|fill|stroke|from|via|to|placeholder|shadow|caret)-((?:${HUES})-\\d+|white|black)\\b`,
  "g",
);
const VARIABLE = new RegExp(`var\\(--color-((?:${HUES})-\\d+|white|black)\\)`, "g");

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sources(full);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

describe("the dark colour scheme", () => {
  const root = path.resolve(import.meta.dirname, "..");
  const used = new Map<string, string>();
  for (const file of [...sources(path.join(root, "app")), ...sources(path.join(root, "components"))]) {
    const text = readFileSync(file, "utf8");
    for (const m of [...text.matchAll(CLASS), ...text.matchAll(VARIABLE)]) if (!used.has(m[1]!)) used.set(m[1]!, path.relative(root, file));
  }

  test("mirrors every palette colour the components use", () => {
    expect(used.size).toBeGreaterThan(20); // the scan finds the classes
    const missing = [...used].filter(([color]) => !darkColors.has(color)).map(([color, file]) => `${color} (first in ${file})`);
    expect(missing, `add these to the dark block of app/globals.css: ${missing.join(", ")}`).toEqual([]);
  });

  test("mirrors each hue whole: all eleven shades", () => {
    const hues = new Set([...darkColors].filter((c) => c.includes("-")).map((c) => c.split("-")[0]!));
    for (const hue of hues) {
      expect(
        [50, 100, 200, 300, 400, 500, 600, 700, 800, 900, 950].filter((shade) => !darkColors.has(`${hue}-${shade}`)),
        hue,
      ).toEqual([]);
    }
  });

  // e2e/accessibility.sweep.spec.ts relies on this: it runs axe's colour rules only in the dark scheme
  test("changes colours only: the dark block sets colour variables, and no component styles anything else in dark", () => {
    const start = css.indexOf("{", css.indexOf("@variant dark")) + 1;
    let depth = 1;
    let end = start;
    for (; depth > 0 && end < css.length; end++) depth += css[end] === "{" ? 1 : css[end] === "}" ? -1 : 0;
    const declarations = css
      .slice(start, end - 1)
      .replace(/\/\*[\s\S]*?\*\//g, "")
      .split(";")
      .map((d) => d.trim())
      .filter(Boolean);
    expect(declarations.length).toBeGreaterThan(50); // the block is found
    expect(declarations.filter((d) => !/^--(?:color|chart)-[\w-]+:/.test(d))).toEqual([]);
    const colourClass = new RegExp(`^${CLASS.source.replace("\\b(?:", "(?:").replace(/\\b$/, "")}(?:/\\d+)?$`);
    const otherDarkClasses = [...sources(path.join(root, "app")), ...sources(path.join(root, "components"))].flatMap((file) =>
      [...readFileSync(file, "utf8").matchAll(/\bdark:([\w/.[\]#-]+)/g)]
        .map((m) => m[1]!)
        .filter((c) => !colourClass.test(c))
        .map((c) => `dark:${c} in ${path.relative(root, file)}`),
    );
    expect(otherDarkClasses).toEqual([]);
  });

  test("gives the charts hex colours in both schemes (Chart.js parses them), the same variables in each", () => {
    const chartVariables = (block: string) => new Map([...block.matchAll(/(--chart-[\w-]+):\s*([^;]+);/g)].map((m) => [m[1]!, m[2]!.trim()]));
    const light = chartVariables(css.slice(0, css.indexOf("@variant dark")));
    const inDark = chartVariables(dark);
    expect([...inDark.keys()].sort()).toEqual([...light.keys()].sort());
    for (const [name, value] of [...light, ...inDark]) expect(value, name).toMatch(/^#[0-9a-f]{6}$/i);
    expect(light.size).toBeGreaterThan(15);
  });
});
