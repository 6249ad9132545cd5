import { describe, expect, it } from "vitest";
import { lintTools, type LintFinding } from "../../isomorphic/definition-lint";
import { corpus } from "./corpus";

// The definition lint on real public definitions (README.md here): the reference MCP servers'
// tools/list and the BFCL multi-turn API suites. The counts below were reviewed by hand (the
// review and what it changed in the rules is in README.md); a rule that starts to misfire on
// real definitions changes them.

const sets = corpus();
const findings = new Map(sets.map(({ set, tools }) => [set, lintTools(tools)]));
const of = (set: string, tool: string): LintFinding[] => findings.get(set)!.find((r) => r.tool === tool)!.findings;
const kinds = (set: string, tool: string) => of(set, tool).map((f) => f.kind);

describe("the definition lint on the corpus", () => {
  it("reads every definition: 36 from the MCP servers, 128 from BFCL", () => {
    const count = (prefix: string) => sets.filter((s) => s.set.startsWith(prefix)).reduce((n, s) => n + s.tools.length, 0);
    expect([count("mcp/"), count("bfcl/")]).toEqual([36, 128]);
  });

  it("finds what was reviewed, rule by rule and set by set", () => {
    const counts = Object.fromEntries(
      [...findings].map(([set, results]) => {
        const row: Record<string, number> = { tools: results.length };
        for (const f of results.flatMap((r) => r.findings)) row[f.kind] = (row[f.kind] ?? 0) + 1;
        return [set, row];
      }),
    );
    expect(counts).toEqual({
      "mcp/server-everything.json": {
        tools: 13,
        description_short: 1,
        description_no_usage: 13,
        enum_unexplained: 3,
        undescribed_parameter: 1,
        description_no_returns: 4,
        number_unbounded: 2,
      },
      "mcp/server-filesystem.json": {
        tools: 14,
        undescribed_parameter: 18,
        description_no_usage: 8,
        limit_unstated: 1,
        description_no_returns: 3,
        nested_additional_properties: 1,
        description_duplicate: 2,
      },
      "mcp/server-memory.json": {
        tools: 9,
        undescribed_parameter: 4,
        description_no_returns: 8,
        description_no_usage: 9,
        nested_additional_properties: 5,
        description_short: 1,
      },
      "bfcl/gorilla_file_system.json": { tools: 18, description_no_usage: 18, description_no_returns: 11, number_unbounded: 1 },
      "bfcl/math_api.json": { tools: 17, description_no_usage: 17, number_unbounded: 3 },
      "bfcl/message_api.json": { tools: 10, description_no_returns: 6, description_no_usage: 10 },
      "bfcl/posting_api.json": { tools: 14, description_no_usage: 14, number_unbounded: 5 },
      "bfcl/ticket_api.json": { tools: 9, description_no_returns: 6, description_no_usage: 9, number_unbounded: 6, nested_additional_properties: 1 },
      "bfcl/trading_bot.json": { tools: 20, description_no_returns: 10, description_no_usage: 20, number_unbounded: 9 },
      "bfcl/travel_booking.json": { tools: 18, description_no_returns: 7, description_no_usage: 18, number_unbounded: 3 },
      "bfcl/vehicle_control.json": { tools: 22, description_no_returns: 13, description_no_usage: 22, number_unbounded: 4 },
    });
  });

  it("finds no error in these published definitions (no missing description, stray required name, colliding name or contradiction)", () => {
    expect([...findings.values()].flat().flatMap((r) => r.findings.filter((f) => f.severity === "error"))).toEqual([]);
  });

  it("list_directory and list_directory_with_sizes are near-duplicates (they differ by two words); a suite's shared preamble makes none", () => {
    expect(of("mcp/server-filesystem.json", "list_directory").find((f) => f.kind === "description_duplicate")!.title).toBe(
      "The description of `list_directory` nearly repeats `list_directory_with_sizes`",
    );
    for (const [set, results] of findings)
      if (set.startsWith("bfcl/")) expect(results.flatMap((r) => r.findings).filter((f) => f.kind === "description_duplicate")).toEqual([]);
  });

  it("asks an operand for no range, a count or an amount for one", () => {
    expect(kinds("bfcl/math_api.json", "add")).not.toContain("number_unbounded");
    expect(
      of("bfcl/math_api.json", "round_number")
        .filter((f) => f.kind === "number_unbounded")
        .map((f) => f.path),
    ).toEqual(["decimal_places"]);
    expect(
      of("bfcl/trading_bot.json", "fund_account")
        .filter((f) => f.kind === "number_unbounded")
        .map((f) => f.path),
    ).toEqual(["amount"]);
  });

  it("takes 'Use this tool when …' as usage guidance, and 'Relations should be in active voice' as none", () => {
    expect(kinds("mcp/server-filesystem.json", "read_text_file")).not.toContain("description_no_usage");
    expect(kinds("mcp/server-memory.json", "create_relations")).toContain("description_no_usage");
    expect(kinds("bfcl/message_api.json", "send_message")).toContain("description_no_usage");
  });

  it("names the filesystem server's undescribed paths and the memory server's open nested objects", () => {
    expect(
      of("mcp/server-filesystem.json", "move_file")
        .filter((f) => f.kind === "undescribed_parameter")
        .map((f) => f.path),
    ).toEqual(["source", "destination"]);
    expect(
      of("mcp/server-memory.json", "create_entities")
        .filter((f) => f.kind === "nested_additional_properties")
        .map((f) => f.path),
    ).toEqual(["entities[]"]);
  });
});
