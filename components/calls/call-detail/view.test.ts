import { describe, expect, it } from "vitest";
import { CATEGORY_DESCRIPTIONS, CATEGORY_LABELS } from "../../../contracts/categories";
import {
  attemptPosition,
  callView,
  harnessMessageShownAbove,
  metadataEntries,
  missingSchemaReason,
  resultTone,
  returnedMessageCaption,
  toolgateColumnTitle,
  usageText,
  verdictHeading,
} from "./view";

const stored = {
  valid: true as boolean | null,
  category: null as string | null,
  checkedValid: true as boolean | null,
  checkedCategory: null as string | null,
  checkedPath: null as string | null,
  violations: null as unknown,
  verdictsDiffer: false,
};
const violation = (path: string, category = "wrong_type") => ({ category, path, message: `bad ${path}`, keyword: "type" });
const view = (call: Partial<typeof stored>) => callView({ ...stored, ...call } as Parameters<typeof callView>[0]);

describe("callView", () => {
  it("marks the path Toolgate found for a refused call and shows the verdict and the next attempt", () => {
    const v = view({ valid: false, category: "wrong_type", checkedValid: false, checkedPath: "loannumber", violations: [violation("loannumber")] });
    expect(v.highlightPath).toBe("loannumber");
    expect(v.argumentsNote).toMatch(/failing value is marked red/);
    expect(v).toMatchObject({ unknownTool: false, showVerdict: true, showNextAttempt: true });
    expect(v.violations).toHaveLength(1);
  });

  it("falls back to the first stored violation's path when the check named none", () => {
    expect(view({ valid: false, violations: [violation("from"), violation("to")] }).highlightPath).toBe("from");
  });

  it("marks Toolgate's failing path even when the harness accepted the call, and shows the verdicts only when they differ", () => {
    const accepted = { valid: true, checkedValid: false, checkedPath: "amount" };
    expect(view(accepted)).toMatchObject({ highlightPath: "amount", showVerdict: false, showNextAttempt: false });
    expect(view({ ...accepted, verdictsDiffer: true })).toMatchObject({ highlightPath: "amount", showVerdict: true, showNextAttempt: false });
  });

  it("marks no value for an unknown tool, whichever verdict named it: the tool name is what failed", () => {
    for (const call of [
      { valid: false, category: "unknown_tool", checkedPath: "x" },
      { valid: false, checkedValid: false, checkedCategory: "unknown_tool", violations: [violation("x", "unknown_tool")] },
    ]) {
      const v = view(call);
      expect(v.unknownTool).toBe(true);
      expect(v.highlightPath).toBeNull();
      expect(v.argumentsNote).toMatch(/tool name is what failed/);
    }
  });

  it("marks nothing on a valid or unchecked call, and reads anything but a list of violations as none", () => {
    for (const call of [{}, { valid: null, checkedValid: null }, { checkedPath: "stale" }]) {
      expect(view(call)).toMatchObject({ highlightPath: null, argumentsNote: "As the model wrote them.", showVerdict: false, showNextAttempt: false });
    }
    expect(view({ valid: false, violations: { path: "x" } })).toMatchObject({ violations: [], highlightPath: null });
  });
});

describe("verdict card texts", () => {
  it("titles a refused call by its category with what the category means", () => {
    const heading = verdictHeading({ valid: false, category: "wrong_type" });
    expect(heading.title).toBe("Why it was refused");
    expect(heading.category).toBe("wrong_type");
    const meaning = CATEGORY_DESCRIPTIONS.wrong_type;
    expect(heading.description).toBe(`${CATEGORY_LABELS.wrong_type}: ${meaning[0]!.toLowerCase()}${meaning.slice(1)}`);
    expect(verdictHeading({ valid: false, category: null })).toEqual({ title: "Why it was refused", category: null, description: null });
  });

  it("titles an accepted call shown for disagreeing verdicts without a category", () => {
    expect(verdictHeading({ valid: true, category: "wrong_type" })).toEqual({ title: "The verdicts differ", category: null, description: null });
  });

  it("says whose message the model got", () => {
    expect(returnedMessageCaption(false)).toMatch(/^Message the harness returned/);
    expect(returnedMessageCaption(null)).toMatch(/^Toolgate's message .*sent no verdict/);
  });

  it("does not repeat the harness's message when it is the one shown above", () => {
    expect(harnessMessageShownAbove({ valid: false, message: "Error 422", harnessMessage: "Error 422" })).toBe(true);
    expect(harnessMessageShownAbove({ valid: false, message: "Toolgate's words", harnessMessage: "Error 422" })).toBe(false);
    expect(harnessMessageShownAbove({ valid: true, message: "Error 422", harnessMessage: "Error 422" })).toBe(false);
    expect(harnessMessageShownAbove({ valid: false, message: "", harnessMessage: "" })).toBe(false);
  });

  it("names the schema version Toolgate checked against, shortened to 12 characters", () => {
    expect(toolgateColumnTitle("4b97f36a0abe0123456789abcdef")).toBe("Toolgate (schema 4b97f36a0abe)");
    expect(toolgateColumnTitle(null)).toBe("Toolgate");
  });
});

describe("request card texts", () => {
  it("colours the result status: ok green, error red, anything else amber", () => {
    expect([resultTone("ok"), resultTone("error"), resultTone("not_found")]).toEqual(["green", "red", "amber"]);
  });

  it("writes the usage with thousands separators and the cost to four places: whatever was reported, nothing when nothing was", () => {
    expect(usageText({ inputTokens: 1868, outputTokens: 62, costUsd: 0.00654 })).toBe("1,868 in · 62 out · $0.0065");
    expect(usageText({ inputTokens: 12000, outputTokens: null, costUsd: null })).toBe("12,000 in");
    expect(usageText({ inputTokens: null, outputTokens: 62, costUsd: null })).toBe("62 out");
    expect(usageText({ inputTokens: null, outputTokens: null, costUsd: 0.0123 })).toBe("$0.0123");
    expect(usageText({ inputTokens: null, outputTokens: null, costUsd: null })).toBeNull();
  });
});

describe("metadataEntries", () => {
  it("shows only an object's entries, values that are not strings as JSON", () => {
    for (const none of [null, "text", 3, ["a"]]) expect(metadataEntries(none)).toEqual([]);
    expect(metadataEntries({ agent: "loan-assistant", retries: 2, flags: { beta: true } })).toEqual([
      ["agent", "loan-assistant"],
      ["retries", "2"],
      ["flags", '{"beta":true}'],
    ]);
  });

  it("cuts keys and values at 200 characters and names a value too large to show", () => {
    const [[key, value], [, large]] = metadataEntries({ ["k".repeat(250)]: "v".repeat(201), big: Array.from({ length: 300 }, (_, i) => i) }) as [
      [string, string],
      [string, string],
    ];
    expect(key).toBe(`${"k".repeat(200)}…`);
    expect(value).toBe(`${"v".repeat(200)}…`);
    expect(large).toBe("(large value: see the raw JSON)");
  });

  it("shows the first 50 entries and says how many more the raw JSON holds", () => {
    const entries = metadataEntries(Object.fromEntries(Array.from({ length: 63 }, (_, i) => [`key${i}`, String(i)])));
    expect(entries).toHaveLength(51);
    expect(entries[49]).toEqual(["key49", "49"]);
    expect(entries[50]).toEqual(["…", "13 more in the raw JSON"]);
    expect(metadataEntries(Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`key${i}`, i])))).toHaveLength(50);
  });
});

describe("next attempt and schema", () => {
  it("places the next attempt by its step, or as the next call when it has none", () => {
    expect(attemptPosition({ step: 0 })).toBe("step 0");
    expect(attemptPosition({ step: null })).toBe("next call");
  });

  it("says why no schema is shown: an unknown tool, no check, or a version no longer stored", () => {
    expect(missingSchemaReason({ category: "unknown_tool", checkedCategory: null, checkedVersion: null })).toBe("unknown_tool");
    expect(missingSchemaReason({ category: null, checkedCategory: "unknown_tool", checkedVersion: "abc" })).toBe("unknown_tool");
    expect(missingSchemaReason({ category: "wrong_type", checkedCategory: null, checkedVersion: null })).toBe("unchecked");
    expect(missingSchemaReason({ category: "wrong_type", checkedCategory: "wrong_type", checkedVersion: "abc" })).toBe("expired");
  });
});
