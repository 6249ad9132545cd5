import { describe, expect, it } from "vitest";
import { CALL_ROLLUPS, ERROR_MESSAGE_ROLLUPS, granularities, tablesFor } from "./tables";

describe("the call rollups a read uses (tablesFor)", () => {
  it("reads the whole days of a read per tool and category without the model versions", () => {
    expect(tablesFor(CALL_ROLLUPS, [])).toMatchObject({
      daily: "call_rollups_tool_daily",
      hourly: "call_rollups_hourly",
      columns: expect.stringMatching(/^tool, category, calls/),
    });
    expect(tablesFor(CALL_ROLLUPS, ["tool", "category"]).daily).toBe("call_rollups_tool_daily");
  });

  it("reads the whole days of a read per model version without the categories", () => {
    expect(tablesFor(CALL_ROLLUPS, ["model_name", "model_version"])).toMatchObject({
      daily: "call_rollups_model_daily",
      hourly: "call_rollups_hourly",
      columns: expect.stringMatching(/^model_name, model_version, calls/),
    });
    expect(tablesFor(CALL_ROLLUPS, ["model_version"]).daily).toBe("call_rollups_model_daily");
  });

  it("reads the full rollups when a read needs a model with a tool or a category", () => {
    expect(tablesFor(CALL_ROLLUPS, ["model_name", "category"])).toBe(CALL_ROLLUPS);
    expect(tablesFor(CALL_ROLLUPS, ["model_name", "model_version", "tool"])).toBe(CALL_ROLLUPS);
    expect(tablesFor(ERROR_MESSAGE_ROLLUPS, ["tool"])).toBe(ERROR_MESSAGE_ROLLUPS);
  });

  it("lists every table of the call rollups once (the coarse ones daily only), each with the columns its keys start", () => {
    const tables = granularities(CALL_ROLLUPS);
    expect(tables.map((t) => t.table)).toEqual(["call_rollups_hourly", "call_rollups_daily", "call_rollups_tool_daily", "call_rollups_model_daily"]);
    for (const t of tables) expect(t.columns.startsWith(`${t.keys.join(", ")}, calls,`)).toBe(true);
  });
});
