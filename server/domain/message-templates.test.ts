import { describe, it, expect } from "vitest";
import { classifyCall, registryFrom } from "../../isomorphic/classify";
import { groupByTemplate, messageTemplate, schemaNames } from "./message-templates";

describe("messageTemplate", () => {
  it("gives two messages that differ only in a number one template, and keeps the argument's name", () => {
    const a = messageTemplate("Error: 'loannumber' must be 4 to 8 characters, you sent 3.");
    const b = messageTemplate("Error: 'loannumber' must be 4 to 8 characters, you sent 12.");
    expect(a).toBe("Error: 'loannumber' must be <n> to <n> characters, you sent <n>.");
    expect(b).toBe(a);
    // another argument is another row
    expect(messageTemplate("Error: 'status' must be 4 to 8 characters, you sent 12.")).toBe("Error: 'status' must be <n> to <n> characters, you sent <n>.");
  });

  it("masks a quoted name that no schema knows: the model made it up", () => {
    const names = new Set(["getloan", "loannumber"]);
    expect(messageTemplate("Error: 'loannum' is not an argument of getloan. Allowed: loannumber. Remove 'loannum'.", names)).toBe(
      "Error: '<value>' is not an argument of getloan. Allowed: loannumber. Remove '<value>'.",
    );
    expect(messageTemplate("Error: 'loannumber' is required by getloan and was not sent. Add 'loannumber' (string).", names)).toBe(
      "Error: 'loannumber' is required by getloan and was not sent. Add 'loannumber' (string).",
    );
  });

  it("keeps every quoted name of a project that registered no tool: nothing tells a made-up name from a real one", () => {
    const names = schemaNames([]);
    expect(messageTemplate("Error: 'status' must be a string, you sent an array.", names)).toBe("Error: 'status' must be a string, you sent <value>.");
    expect(messageTemplate("Error: 'status' must be a string, you sent an array.", schemaNames([{ name: "search", parameters: {} }]))).toBe(
      "Error: '<value>' must be a string, you sent <value>.",
    );
  });

  it("keeps 'Error 422' as 'Error <n>'", () => {
    expect(messageTemplate("Error 422")).toBe("Error <n>");
  });

  it("replaces every quote style", () => {
    expect(messageTemplate(`unknown tool "serch_web"`)).toBe(`unknown tool "<value>"`);
    expect(messageTemplate("unknown tool `serch_web`")).toBe("unknown tool `<value>`");
    expect(messageTemplate(`bad value "a \\"quoted\\" 12"`)).toBe(`bad value "<value>"`);
  });

  it("leaves apostrophes alone", () => {
    expect(messageTemplate("don't send 'x', the model's 'y' is fine")).toBe("don't send 'x', the model's 'y' is fine");
    expect(messageTemplate("don't send 'x', the model's 'y' is fine", new Set())).toBe("don't send '<value>', the model's '<value>' is fine");
  });

  it("replaces decimals, negatives and ranges", () => {
    expect(messageTemplate("amount -3.5 is below 0.01")).toBe("amount <n> is below <n>");
    expect(messageTemplate("must be 4-8 chars")).toBe("must be <n>-<n> chars");
    expect(messageTemplate("x=-5 y=1e6 v 1.2.3")).toBe("x=<n> y=<n> v <n>");
  });

  it("keeps digits that are part of a name", () => {
    expect(messageTemplate("argument arg2 of tool v1_search")).toBe("argument arg2 of tool v1_search");
  });

  it("replaces UUIDs, hex ids and ISO dates", () => {
    expect(messageTemplate("record 3fa85f64-5717-4562-b3fc-2c963f66afa6 not found")).toBe("record <id> not found");
    expect(messageTemplate("commit 9f86d081884c7d65 missing, ptr 0x1F")).toBe("commit <id> missing, ptr <id>");
    expect(messageTemplate("date 2024-05-01 before 2024-05-01T10:20:30.123+02:00 or 2024-05-01T10:20Z")).toBe("date <date> before <date> or <date>");
  });

  it("does not take ordinary words for hex ids", () => {
    expect(messageTemplate("deadbeef accepted")).toBe("deadbeef accepted");
  });

  it("collapses whitespace", () => {
    expect(messageTemplate("  Error:\n\t  missing   'city'  ")).toBe("Error: missing 'city'");
  });
});

describe("groupByTemplate", () => {
  it("sums groups, computes recovery and keeps up to 3 distinct examples", () => {
    const groups = groupByTemplate(
      [
        { message: "Error: 'a' must be 4 to 8 characters, you sent 3.", count: 5, recovered: 2, followed: 4 },
        { message: "Error: 'b' must be 4 to 8 characters, you sent 12.", count: 7, recovered: 3, followed: 4 },
        { message: "Error: 'c' must be 4 to 8 characters, you sent 1.", count: 1, recovered: 0, followed: 0 },
        { message: "Error: 'd' must be 4 to 8 characters, you sent 2.", count: 2, recovered: 0, followed: 0 },
        { message: "Error: 'a' must be 4 to 8 characters, you sent 3.", count: 1, recovered: 1, followed: 1 },
        { message: "Error 422", count: 3, recovered: 0, followed: 0 },
      ],
      new Set(),
    );
    expect(groups).toHaveLength(2);
    const [first, second] = groups;
    expect(first).toEqual({
      template: "Error: '<value>' must be <n> to <n> characters, you sent <n>.",
      count: 16,
      recovered: 6,
      followed: 9,
      recoveryRate: 6 / 9,
      examples: [
        "Error: 'b' must be 4 to 8 characters, you sent 12.",
        "Error: 'a' must be 4 to 8 characters, you sent 3.",
        "Error: 'd' must be 4 to 8 characters, you sent 2.",
      ],
    });
    expect(second).toMatchObject({ template: "Error <n>", count: 3, recoveryRate: null, examples: ["Error 422"] });
  });

  it("orders equal counts by template", () => {
    const groups = groupByTemplate([
      { message: "zeta", count: 1, recovered: 0, followed: 0 },
      { message: "alpha", count: 1, recovered: 0, followed: 0 },
    ]);
    expect(groups.map((g) => g.template)).toEqual(["alpha", "zeta"]);
  });

  it("returns nothing for no rows", () => {
    expect(groupByTemplate([])).toEqual([]);
  });
});

describe("groupByTemplate: ties", () => {
  it("orders groups and examples of equal counts by their text, whatever the input order", () => {
    const row = (message: string) => ({ message, count: 1, recovered: 0, followed: 0 });
    expect(groupByTemplate([row("a x"), row("b x"), row("c x")]).map((g) => g.template)).toEqual(["a x", "b x", "c x"]);
    expect(groupByTemplate([row("Error: 'a' x"), row("Error: 'b' x"), row("Error: 'c' x")], new Set())[0]!.examples).toEqual([
      "Error: 'a' x",
      "Error: 'b' x",
      "Error: 'c' x",
    ]);
  });
});

describe("templates of the classifier's own messages (isomorphic/classify.ts)", () => {
  const parameters = {
    type: "object",
    properties: {
      loannumber: { type: "string", pattern: "^C[0-9]{4}$", minLength: 5, maxLength: 5 },
      status: { type: "string", enum: ["open", "closed", "late"] },
      ids: { type: "array", items: { type: "integer" }, maxItems: 3 },
      items: { type: "array", items: { type: "object", properties: { qty: { type: "integer" } }, required: ["qty"] } },
    },
    required: ["loannumber"],
    additionalProperties: false,
  };
  const registry = registryFrom([{ name: "getloan", version: "1", parameters }]);
  const names = new Set(["getloan", "loannumber", "status", "ids", "items", "qty"]);
  const message = (args: unknown, tool = "getloan") => classifyCall({ tool, arguments: args, registry }).message!;
  const template = (args: unknown, tool?: string) => messageTemplate(message(args, tool), names);

  it("keeps argument names and the schema's pattern, masks what was sent", () => {
    expect(template({ loannumber: "D1234" })).toBe("Error: 'loannumber' must match the pattern ^C[0-9]{4}$, you sent <value>.");
    expect(template({ loannumber: 4471 })).toBe("Error: 'loannumber' must be a string, you sent the number <n>. Send it as <value>.");
    expect(template({ loannumber: "C1234", status: "opn" })).toBe(
      "Error: 'status' must be one of open, closed, late; you sent <value>. Did you mean \"<value>\"?",
    );
    expect(template({})).toBe(
      "Error: 'loannumber' is required by getloan and was not sent. Add 'loannumber' (string, exactly <n> characters, matching ^C[0-9]{4}$).",
    );
    expect(template({ loannum: "C1234" })).toMatch(/^Error: '<value>' is not an argument of getloan\. .* Remove '<value>'\.$/);
    expect(template({}, "getlaon")).toBe("Error: no tool named '<value>'. Available tools: getloan. Did you mean 'getloan'?");
  });

  it("one row for one message shape, however long what was sent", () => {
    const long = Array.from({ length: 300 }, (_, i) => i);
    const shapes = [
      [
        { loannumber: "C1234", ids: [1, 2, 3, 4] },
        { loannumber: "C1234", ids: long },
      ],
      [
        { loannumber: "C1234", ids: ["x"] },
        { loannumber: "C1234", ids: [...long, "x"] },
      ],
      [
        { loannumber: "C1234", items: [{}] },
        { loannumber: "C1234", items: [...long.map((qty) => ({ qty })), {}] },
      ],
      [
        { loannumber: "C1234", ids: "1,2" },
        { loannumber: "C1234", ids: long.join(", ") },
      ],
      [[1, 2], long],
    ];
    for (const [short, longer] of shapes) {
      expect(message(short)).not.toBe(message(longer));
      expect(template(longer)).toBe(template(short));
    }
    const rows = shapes.flat().map((args) => ({ message: message(args), count: 1, recovered: 0, followed: 0 }));
    expect(groupByTemplate(rows, names).map((g) => g.count)).toEqual([2, 2, 2, 2, 2]);
    expect(groupByTemplate(rows, names).map((g) => g.template)).toContain(
      "Error: 'items[<n>].qty' is required by getloan and was not sent. Add 'items[<n>].qty' (integer).",
    );
  });
});
