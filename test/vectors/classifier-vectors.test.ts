import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { CATEGORIES } from "@/contracts/categories";
import { buildVectors, PINNED_FILE, VECTORS_FILE, vectorsText } from "./classifier-cases";

// The shared vectors are what the TypeScript classifier says now: after a change to its wording or
// rules, `npm run vectors` rewrites them, and sdk-python/tests/test_vectors.py holds the Python twin to them.
describe("the shared classifier vectors (test/vectors/classifier.jsonl)", () => {
  const vectors = buildVectors(readFileSync(PINNED_FILE, "utf8"));

  it("are current: the checked-in file is what the TypeScript classifier gives now (else run `npm run vectors`)", () => {
    const text = readFileSync(VECTORS_FILE, "utf8");
    const stored = text.split("\n").filter(Boolean);
    const fresh = vectorsText(vectors).split("\n").filter(Boolean);
    const changed = fresh.filter((line, i) => stored[i] !== line).map((line) => (JSON.parse(line) as { id: string }).id);
    expect(changed.slice(0, 20), `${changed.length} vectors differ; run \`npm run vectors\``).toEqual([]);
    expect(stored.length).toBe(fresh.length);
  }, 120_000);

  it("are at least 2,000, cover every category the classifier gives and every draft both classifiers read", () => {
    expect(vectors.length).toBeGreaterThanOrEqual(2000);
    const categories = new Set(vectors.map((v) => ("throws" in v.expected ? "throws" : v.expected.category)));
    for (const category of CATEGORIES.filter((c) => c !== "not_allowed")) expect(categories).toContain(category);
    expect(categories).toContain(undefined); // valid calls
    expect(new Set(vectors.map((v) => v.draft))).toEqual(new Set(["2020-12", "2019-09", "draft-07", "draft-06", "draft-04", null]));
  });
});
