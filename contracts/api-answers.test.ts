import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { z } from "zod";
import { API_KEY_ANSWERS, ingestBatchOutput } from "./api-answers";

const ANSWERS: Record<string, z.ZodType> = API_KEY_ANSWERS;

/**
 * An answer as the docs write it: `{accepted, id?, rejected: [{index, path}], …}`. A field may
 * name its members (`{…}` or `[{…}]`); `?` marks a field that may be absent; `…` (or `…figures`)
 * says the list goes on, so only the named fields are checked there.
 */
type DocShape = { fields: Map<string, { optional: boolean; shape?: DocShape }>; open: boolean };

function parseShape(text: string): DocShape {
  let at = 0;
  const skip = () => {
    while (text[at] === " ") at++;
  };
  const shape = (): DocShape => {
    const result: DocShape = { fields: new Map(), open: false };
    at++; // "{"
    for (skip(); text[at] !== "}"; skip()) {
      if (text.startsWith("…", at) || text.startsWith("...", at)) {
        result.open = true;
        while (at < text.length && !",}".includes(text[at]!)) at++;
      } else {
        const name = /^[A-Za-z_]\w*/.exec(text.slice(at))?.[0];
        if (!name) throw new Error(`cannot read the answer ${text} at ${at}`);
        at += name.length;
        const optional = text[at] === "?";
        if (optional) at++;
        let inner: DocShape | undefined;
        skip();
        if (text[at] === ":") {
          at++;
          skip();
          const list = text[at] === "[";
          if (list) at++;
          inner = shape();
          if (list) at++; // "]"
        }
        result.fields.set(name, { optional, shape: inner });
      }
      skip();
      if (text[at] === ",") at++;
    }
    at++; // "}"
    return result;
  };
  return shape();
}

type SchemaShape = Map<string, { optional: boolean; inner?: SchemaShape }>;

/** An object schema's fields, with whether each may be absent and the fields of objects (or arrays of them) inside. */
function schemaShape(schema: z.ZodType): SchemaShape | undefined {
  let def = schema.def as { type: string; innerType?: z.ZodType; element?: z.ZodType; shape?: Record<string, z.ZodType> };
  while (def.type === "nullable" || def.type === "optional" || def.type === "array") {
    def = (def.type === "array" ? def.element! : def.innerType!).def as typeof def;
  }
  if (def.type !== "object") return undefined;
  return new Map(
    Object.entries(def.shape!).map(([name, field]) => [name, { optional: (field.def as { type: string }).type === "optional", inner: schemaShape(field) }]),
  );
}

/** What the docs say that the schema does not (empty when they agree). */
function disagreements(doc: DocShape, schema: SchemaShape, at = ""): string[] {
  const found: string[] = [];
  for (const [name, field] of doc.fields) {
    const actual = schema.get(name);
    if (!actual) found.push(`${at}${name}: documented, not in the answer`);
    else {
      if (field.optional !== actual.optional)
        found.push(`${at}${name}: documented as ${field.optional ? "optional" : "always there"}, the answer says otherwise`);
      if (field.shape && actual.inner) found.push(...disagreements(field.shape, actual.inner, `${at}${name}.`));
      if (field.shape && !actual.inner) found.push(`${at}${name}: documented with fields, the answer has none`);
    }
  }
  if (!doc.open)
    for (const name of schema.keys()) if (!doc.fields.has(name)) found.push(`${at}${name}: in the answer, not documented (or end the list with …)`);
  return found;
}

/** The answer column of each procedure's row in a markdown file: the first `{…}` after "→". */
function documentedAnswers(file: string): Map<string, string> {
  const answers = new Map<string, string>();
  for (const line of readFileSync(file, "utf8").split("\n")) {
    const procedure = /^\|\s*`([a-zA-Z]+\.[a-zA-Z]+)`/.exec(line)?.[1];
    if (!procedure || !(procedure in ANSWERS)) continue;
    const answer = /→ `(\{.*?\})`/.exec(line)?.[1];
    if (answer) answers.set(procedure, answer.replaceAll("\\|", "|"));
  }
  return answers;
}

describe("parseShape and disagreements", () => {
  it("find a documented field the answer lost, a wrong ?, and an undocumented field", () => {
    const schema = schemaShape(ingestBatchOutput)!;
    expect(disagreements(parseShape("{accepted, duplicates, rejected: [{index, id?, path, message}]}"), schema)).toEqual([]);
    expect(disagreements(parseShape("{accepted, duplicates, skipped, rejected: [{index, id, path, message}]}"), schema)).toEqual([
      "skipped: documented, not in the answer",
      "rejected.id: documented as always there, the answer says otherwise",
    ]);
    expect(disagreements(parseShape("{accepted, rejected: [{index, …}]}"), schema)).toEqual([
      "duplicates: in the answer, not documented (or end the list with …)",
    ]);
  });
});

describe.each(["README.md", "docs/api.md"])("the answers %s documents", (file) => {
  const answers = documentedAnswers(file);

  it.each(Object.keys(ANSWERS))("%s: written as a shape", (procedure) => {
    expect(answers.get(procedure), `${file} has no \`{…}\` answer after → for ${procedure}`).toBeDefined();
  });

  it.each(Object.keys(ANSWERS))("%s: the same fields as its .output() schema (contracts/api-answers.ts)", (procedure) => {
    const answer = answers.get(procedure);
    if (answer === undefined) return; // reported above
    expect(disagreements(parseShape(answer), schemaShape(ANSWERS[procedure]!)!)).toEqual([]);
  });
});
