import { describe, expect, it } from "vitest";
import { LINT_RULES, lintTool, lintTools, scoreTool, scoreTools, type LintInput, type LintRule, type ObservedCalls } from "./definition-lint";

/** A definition no rule has anything to say about; each test spoils one thing. */
const GOOD = "Returns the loan's balance and status for a loan number. Use it when the user names a loan; do not use it to search by customer name.";
const good = (): LintInput => ({
  name: "get_loan",
  description: GOOD,
  parameters: {
    type: "object",
    properties: {
      loannumber: { type: "string", pattern: "^[0-9]+$", description: "The loan number, digits only, as a string." },
      currency: { type: "string", enum: ["EUR", "USD"], description: "The currency of the balance: EUR or USD." },
      months: { type: "integer", minimum: 1, maximum: 12, description: "How many months of history, 1 to 12." },
    },
    required: ["loannumber"],
    additionalProperties: false,
  },
});

const kinds = (tool: LintInput, options?: Parameters<typeof lintTool>[1]) => lintTool(tool, options).map((f) => f.kind);
const withProperty = (name: string, schema: unknown, required = false): LintInput => {
  const tool = good();
  (tool.parameters.properties as Record<string, unknown>)[name] = schema;
  if (required) (tool.parameters.required as string[]).push(name);
  return tool;
};
const only = (kind: LintRule, tool: LintInput, options?: Parameters<typeof lintTool>[1]) => lintTool(tool, options).filter((f) => f.kind === kind);

describe("lintTool", () => {
  it("finds nothing in a good definition", () => {
    expect(lintTool(good())).toEqual([]);
  });

  it("description_missing: none, or only spaces; not when there is one", () => {
    const [finding] = lintTool({ ...good(), description: "  " });
    expect(finding).toMatchObject({
      kind: "description_missing",
      severity: "error",
      source: "lint",
      path: "",
      unknown: "what the tool does, returns and is for",
    });
    // the other description rules do not pile on
    expect(kinds({ ...good(), description: undefined })).toEqual(["description_missing"]);
  });

  it("description_short: fewer than six words", () => {
    expect(kinds({ ...good(), description: "Returns a loan if asked." })).toContain("description_short");
    expect(kinds({ ...good(), description: "Returns a loan when you need one." })).not.toContain("description_short");
  });

  it("description_no_returns: nothing about what comes back", () => {
    expect(kinds({ ...good(), description: "Closes a loan account. Use it when the customer asks to close it." })).toEqual(["description_no_returns"]);
    expect(kinds({ ...good(), description: "Closes a loan account and returns the final statement. Use it when the customer asks." })).toEqual([]);
  });

  it("description_no_usage: nothing about when to use it", () => {
    expect(kinds({ ...good(), description: "Returns the loan's balance and status for a loan number." })).toEqual(["description_no_usage"]);
    expect(kinds({ ...good(), description: "Returns the loan's balance. Only for loans of this bank." })).toEqual([]);
    // "should" and "is used to" said of something else are no guidance on when to use the tool
    expect(kinds({ ...good(), description: "Returns the relations made. Relations should be in active voice." })).toEqual(["description_no_usage"]);
    expect(kinds({ ...good(), description: "Part of the Message API, which is used to manage users. Returns the user." })).toEqual(["description_no_usage"]);
    expect(kinds({ ...good(), description: "Moves a file and returns its new path. Can be used for simple renaming." })).toEqual([]);
  });

  it("description_contradicts_schema: 'optional' but required is an error; 'required' but optional a warning", () => {
    const optional = only("description_contradicts_schema", withProperty("note", { type: "string", description: "An optional note." }, true));
    expect(optional).toMatchObject([{ severity: "error", path: "note", title: 'The description of `note` says it is optional, but "required" lists it' }]);
    const required = only("description_contradicts_schema", withProperty("note", { type: "string", description: "Required: the note." }));
    expect(required).toMatchObject([{ severity: "warning", title: 'The description of `note` says it is required, but it is not in "required"' }]);
    expect(only("description_contradicts_schema", withProperty("note", { type: "string", description: "The note; not optional." }, true))).toEqual([]);
    expect(only("description_contradicts_schema", withProperty("note", { type: "string", description: "An optional note." }))).toEqual([]);
    expect(only("description_contradicts_schema", withProperty("note", { type: "string", description: "Required: the note." }, true))).toEqual([]);
  });

  it("undescribed_parameter: a property without a description; an array's items need none", () => {
    expect(only("undescribed_parameter", withProperty("note", { type: "string" }))).toMatchObject([{ path: "note", severity: "warning" }]);
    expect(
      only("undescribed_parameter", withProperty("tags", { type: "array", description: "Tags, one to three words each.", items: { type: "string" } })),
    ).toEqual([]);
  });

  it("parameter_untyped: no type, enum, const, $ref or combination", () => {
    expect(only("parameter_untyped", withProperty("note", { description: "A note." }))).toMatchObject([{ path: "note", unknown: "the type of `note`" }]);
    for (const typed of [{ type: "string" }, { enum: ["a"] }, { anyOf: [{ type: "string" }] }, { $ref: "#/$defs/x" }])
      expect(only("parameter_untyped", withProperty("note", { ...typed, description: "A note: a." }))).toEqual([]);
  });

  it("enum_unexplained: values not named in the description", () => {
    expect(only("enum_unexplained", withProperty("mode", { type: "string", enum: ["fast", "safe"], description: "How." }))).toMatchObject([
      { path: "mode", after: { parameters: { properties: { mode: { description: "How. One of: fast, safe." } } } } },
    ]);
    expect(only("enum_unexplained", withProperty("mode", { type: "string", enum: ["fast", "safe"], description: "fast or safe." }))).toEqual([]);
  });

  it("limit_unstated: a limit the description does not give", () => {
    expect(only("limit_unstated", withProperty("code", { type: "string", maxLength: 8, description: "The code." }))).toMatchObject([
      { id: "limit_unstated:code:length", title: "State the limit of `code` in words: at most 8 characters" },
    ]);
    expect(only("limit_unstated", withProperty("code", { type: "string", maxLength: 8, description: "The code, up to 8 characters." }))).toEqual([]);
    // a number written with thousands separators is stated; another number that begins or ends with its digits is not
    const rows = (description: string) => only("limit_unstated", withProperty("rows", { type: "integer", minimum: 1, maximum: 100000, description }));
    expect(rows("Rows to read, 1 to 100,000.")).toEqual([]);
    expect(rows("Rows to read, 1 to 100000.")).toEqual([]);
    expect(rows("Rows to read, 1 to 100,000,000.")).toHaveLength(1);
    expect(rows("Rows to read, 1.5 to 100000.")).toHaveLength(1);
    expect(rows("Rows to read, 1 to 100000.5")).toHaveLength(1);
  });

  it("number_unbounded: a number or integer without minimum or maximum", () => {
    expect(only("number_unbounded", withProperty("amount", { type: "number", description: "The amount." }))).toMatchObject([
      { path: "amount", severity: "info" },
    ]);
    expect(only("number_unbounded", withProperty("amount", { type: "number", exclusiveMinimum: 0, description: "The amount, more than 0." }))).toEqual([]);
    expect(only("number_unbounded", withProperty("amount", { type: "integer", enum: [1, 2], description: "1 or 2." }))).toEqual([]);
    expect(only("number_unbounded", withProperty("amount", { type: ["number", "string"], description: "An amount." }))).toEqual([]);
    // a real number is asked for a range only when its name or description makes it a quantity: an operand is not
    expect(only("number_unbounded", withProperty("a", { type: "number", description: "First number." }))).toEqual([]);
    expect(only("number_unbounded", withProperty("maxPrice", { type: "number", description: "In euros." }))).toMatchObject([{ path: "maxPrice" }]);
    expect(only("number_unbounded", withProperty("n", { type: "integer", description: "Which one." }))).toMatchObject([{ path: "n" }]);
  });

  it("required_not_property: a required name without a property, at any level; the diff drops it", () => {
    const tool = good();
    (tool.parameters.required as string[]).push("loan_number");
    const [finding] = only("required_not_property", tool);
    expect(finding).toMatchObject({ severity: "error", path: "", title: "The schema requires `loan_number`, which is not a property" });
    expect(finding!.after.parameters.required).toEqual(["loannumber"]);
    const nested = withProperty("slot", { type: "object", description: "When.", properties: {}, required: ["time"], additionalProperties: false });
    expect(only("required_not_property", nested)).toMatchObject([{ path: "slot" }]);
    expect(only("required_not_property", good())).toEqual([]);
  });

  it("nested_additional_properties: a nested object that does not say; the tool's own object is not asked", () => {
    expect(only("nested_additional_properties", withProperty("slot", { type: "object", description: "When.", properties: {} }))).toMatchObject([
      { path: "slot", after: { parameters: { properties: { slot: { additionalProperties: false } } } } },
    ]);
    const tool = good();
    delete tool.parameters.additionalProperties;
    expect(only("nested_additional_properties", tool)).toEqual([]);
  });

  it("deep_nesting: more than three levels, or a schema that refers to itself", () => {
    const level = (inner: object) => ({ type: "object", description: "A level.", properties: { next: inner }, additionalProperties: false });
    const four = withProperty("a", level(level(level({ type: "string", description: "Leaf." }))));
    expect(only("deep_nesting", four)).toMatchObject([{ path: "a.next.next.next", title: "Flatten `a.next.next.next`: 4 levels deep" }]);
    const three = withProperty("a", level(level({ type: "string", description: "Leaf." })));
    expect(only("deep_nesting", three)).toEqual([]);
    const tree = withProperty("tree", { $ref: "#/$defs/node", description: "A tree." });
    tree.parameters.$defs = { node: { type: "object", properties: { children: { type: "array", items: { $ref: "#/$defs/node" } } } } };
    expect(only("deep_nesting", tree)).toMatchObject([{ path: "", title: "The schema refers to itself (`#/$defs/node`)" }]);
    const shared = withProperty("from", { $ref: "#/$defs/place", description: "From." });
    (shared.parameters.properties as Record<string, unknown>).to = { $ref: "#/$defs/place", description: "To." };
    shared.parameters.$defs = { place: { type: "string", enum: ["a"] } };
    expect(only("deep_nesting", shared)).toEqual([]); // one definition used twice is no loop
  });

  const observed = (values: ObservedCalls["values"], calls = 40): ObservedCalls => ({ calls, values });

  it("string_closed_set: a free string whose calls send a few values: the enum of those values, with the counts", () => {
    const tool = withProperty("status", { type: "string", description: "The status." });
    const seen = observed({
      status: [
        { value: "open", count: 25 },
        { value: "closed", count: 12 },
      ],
    });
    const [finding] = only("string_closed_set", tool, { observed: seen });
    expect(finding).toMatchObject({ source: "calls", calls: { supporting: 37, of: 40 }, severity: "warning" });
    expect(finding!.evidence).toBe('`status` is a free string, but 37 calls sent only "open" ×25, "closed" ×12.');
    expect(finding!.after.parameters.properties).toMatchObject({ status: { enum: ["open", "closed"], description: "The status. One of: open, closed." } });
    // too few calls, too many values, or a string already constrained: no finding
    expect(only("string_closed_set", tool, { observed: observed(seen.values, 19) })).toEqual([]);
    const many = observed({ status: Array.from({ length: 11 }, (_, i) => ({ value: `s${i}`, count: 5 })) }, 60);
    expect(only("string_closed_set", tool, { observed: many })).toEqual([]);
    expect(only("string_closed_set", withProperty("status", { type: "string", format: "date", description: "A date." }), { observed: seen })).toEqual([]);
    expect(only("string_closed_set", tool)).toEqual([]);
  });

  it("optional_without_default: an optional parameter that at least 90% of calls send with one value", () => {
    const tool = withProperty("page_size", { type: "integer", minimum: 1, maximum: 100, description: "Rows per page, 1 to 100." });
    const [finding] = only("optional_without_default", tool, {
      observed: observed({
        page_size: [
          { value: 20, count: 36 },
          { value: 50, count: 2 },
        ],
      }),
    });
    expect(finding).toMatchObject({ source: "calls", calls: { supporting: 36, of: 40 }, title: "Give `page_size` the default 20" });
    expect(finding!.after.parameters.properties).toMatchObject({ page_size: { default: 20, description: "Rows per page, 1 to 100. Default 20." } });
    expect(only("optional_without_default", tool, { observed: observed({ page_size: [{ value: 20, count: 35 }] }) })).toEqual([]);
    const withDefault = withProperty("page_size", { type: "integer", minimum: 1, maximum: 100, default: 20, description: "Rows per page, 1 to 100." });
    expect(only("optional_without_default", withDefault, { observed: observed({ page_size: [{ value: 20, count: 40 }] }) })).toEqual([]);
  });

  it("name_collision: another tool named the same but for case and separators", () => {
    const others = [good(), { ...good(), name: "getLoan", description: "Returns a loan by its id. Use it when you have the id." }];
    expect(only("name_collision", good(), { others })).toMatchObject([
      { severity: "error", title: "`get_loan` differs from `getLoan` only by case or separators" },
    ]);
    expect(only("name_collision", good(), { others: [good(), { ...good(), name: "get_loans" }] })).toEqual([]);
  });

  it("description_duplicate: another tool's description with nearly the same words", () => {
    const twin = { ...good(), name: "fetch_loan", description: GOOD.replace("balance", "balances") };
    expect(only("description_duplicate", good(), { others: [good(), twin] })).toMatchObject([{ severity: "warning" }]);
    const other = { ...good(), name: "list_loans", description: "Lists the loans of one customer, newest first. Use it to find a loan number." };
    expect(only("description_duplicate", good(), { others: [good(), other] })).toEqual([]);
    // the words a suite repeats in every description do not make its tools duplicates
    const prefix =
      "This tool belongs to the ticketing system that is part of a company, which allows users to create, view, and manage support business tickets.";
    const suite = ["Close a ticket.", "Create a ticket.", "Get a ticket.", "Edit a ticket."].map((text, i) => ({
      ...good(),
      name: `t${i}`,
      description: `${prefix} Tool description: ${text}`,
    }));
    expect(lintTools(suite).flatMap((r) => r.findings.filter((f) => f.kind === "description_duplicate"))).toEqual([]);
  });

  it("orders findings by severity, then by rule; every rule has a severity", () => {
    const tool = withProperty("note", { description: "An optional note." }, true);
    const severities = lintTool({ ...tool, description: "Loans." }).map((f) => f.severity);
    expect(severities).toEqual([...severities].sort((a, b) => ["error", "warning", "info"].indexOf(a) - ["error", "warning", "info"].indexOf(b)));
    expect(Object.values(LINT_RULES).every((r) => ["error", "warning", "info"].includes(r.severity))).toBe(true);
  });

  it("lintTools: each tool with its findings, the rules between tools among them", () => {
    const result = lintTools([good(), { ...good(), name: "GetLoan" }]);
    expect(result.map((r) => [r.tool, r.findings.map((f) => f.kind)])).toEqual([
      ["get_loan", ["name_collision", "description_duplicate"]],
      ["GetLoan", ["name_collision", "description_duplicate"]],
    ]);
  });
});

describe("scoreTool and scoreTools", () => {
  it("takes each rule's points for its first finding, half for each further one, at most twice; explains each line", () => {
    const f = (kind: LintRule, severity = LINT_RULES[kind].severity) => ({ kind, severity });
    expect(scoreTool([])).toEqual({ score: 100, lines: [] });
    const undescribed = Array.from({ length: 10 }, () => f("undescribed_parameter"));
    expect(scoreTool(undescribed.slice(0, 1)).score).toBe(92);
    expect(scoreTool(undescribed.slice(0, 2)).score).toBe(88);
    expect(scoreTool(undescribed)).toEqual({ score: 84, lines: [{ kind: "undescribed_parameter", severity: "warning", count: 10, points: 16 }] });
    const { score, lines } = scoreTool([f("description_missing"), f("number_unbounded"), f("description_contradicts_schema", "warning")]);
    expect(score).toBe(100 - 20 - 2 - 8);
    expect(lines.map((l) => [l.kind, l.points])).toEqual([
      ["description_missing", 20],
      ["number_unbounded", 2],
      ["description_contradicts_schema", 8],
    ]);
    const worst = (Object.keys(LINT_RULES) as LintRule[]).flatMap((k) => [f(k), f(k), f(k)]);
    expect(scoreTool(worst).score).toBe(0);
  });

  it("a set's score is the mean of its tools', rounded down", () => {
    const set = scoreTools([
      { tool: "a", findings: [] },
      { tool: "b", findings: [{ kind: "number_unbounded", severity: "info" }] },
      { tool: "c", findings: [{ kind: "description_short", severity: "warning" }] },
    ]);
    expect(set.tools.map((t) => t.score)).toEqual([100, 98, 92]);
    expect(set.score).toBe(96); // 290 / 3 = 96.67
    expect(scoreTools([]).score).toBe(100);
  });
});
