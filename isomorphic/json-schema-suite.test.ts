// The official JSON Schema Test Suite (vendored in test/json-schema-test-suite, see its README)
// through the classifier the server, the SDKs and the gateway share: the registration check
// (checkJsonSchema) and classifyCall. A case applies to tool arguments when its instance is an
// object and its schema is an object (a tool's schema is a JSON object in every tool format).
// A schema refused at registration must be one no object satisfies: each of its object cases must
// then be invalid, and counts as agreeing only if it is.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { classifyCall, registryFrom } from "./classify";
import { checkJsonSchema, isPlainObject, type JsonObject } from "./tool-schema";

const ROOT = path.join(import.meta.dirname, "../test/json-schema-test-suite/tests");
const DRAFTS = {
  "draft2020-12": "https://json-schema.org/draft/2020-12/schema",
  "draft2019-09": "https://json-schema.org/draft/2019-09/schema",
  draft7: "http://json-schema.org/draft-07/schema#",
  draft6: "http://json-schema.org/draft-06/schema#",
  draft4: "http://json-schema.org/draft-04/schema#",
};

type Case = { description: string; data: unknown; valid: boolean };
type Group = { description: string; schema: unknown; tests: Case[] };

/**
 * What is left out by design, each with its reason. Matched on "<draft>/<file>" or
 * "<draft>/<file>: <group description>" or "… : <case description>".
 */
const OUT_OF_SCOPE: { match: (id: string) => boolean; reason: string }[] = [
  {
    match: (id) => /\/(refRemote|vocabulary)\.json/.test(id),
    reason: "remote references (http://localhost:1234/…): Toolgate resolves $ref only within the schema, it never fetches over the network",
  },
];

function files(): { draft: keyof typeof DRAFTS; file: string }[] {
  return (Object.keys(DRAFTS) as (keyof typeof DRAFTS)[]).flatMap((draft) => [
    ...readdirSync(path.join(ROOT, draft))
      .filter((f) => f.endsWith(".json"))
      .map((file) => ({ draft, file })),
    ...readdirSync(path.join(ROOT, draft, "optional/format")).map((file) => ({ draft, file: `optional/format/${file}` })),
  ]);
}

type Outcome = { id: string; expected: boolean; got: boolean | string };

function runSuite() {
  const agreed: string[] = [];
  const disagreed: Outcome[] = [];
  const skipped = new Map<string, string[]>();
  let groupNumber = 0;
  for (const { draft, file } of files()) {
    const groups = JSON.parse(readFileSync(path.join(ROOT, draft, file), "utf8")) as Group[];
    for (const group of groups) {
      groupNumber++;
      const cases = group.tests.filter((c) => isPlainObject(c.data));
      if (cases.length === 0 || !isPlainObject(group.schema)) continue;
      const groupId = `${draft}/${file}: ${group.description}`;
      const schema: JsonObject = { $schema: DRAFTS[draft], ...group.schema };
      const registered = checkJsonSchema(schema);
      for (const c of cases) {
        const id = `${groupId}: ${c.description}`;
        const skip = OUT_OF_SCOPE.find((s) => s.match(id));
        if (skip) {
          skipped.set(skip.reason, [...(skipped.get(skip.reason) ?? []), id]);
          continue;
        }
        let got: boolean | string;
        if (!registered.ok) got = `refused at registration: ${registered.message}`;
        else {
          try {
            const registry = registryFrom([{ name: "t", version: `suite-${groupNumber}`, parameters: schema }]);
            got = classifyCall({ tool: "t", arguments: c.data, registry }).valid;
          } catch (error) {
            got = `threw: ${error instanceof Error ? error.message : String(error)}`;
          }
        }
        // a schema refused at registration agrees only when the case is invalid (no object satisfies it)
        if (!registered.ok && /can't resolve reference/.test(registered.message)) {
          const reason = OUT_OF_SCOPE[0]!.reason; // a reference to a document outside the schema (the suite's remotes)
          skipped.set(reason, [...(skipped.get(reason) ?? []), id]);
          continue;
        }
        const agrees = got === c.valid || (!registered.ok && !c.valid);
        if (agrees) agreed.push(id);
        else disagreed.push({ id, expected: c.valid, got });
      }
    }
  }
  return { agreed, disagreed, skipped };
}

describe("the JSON Schema Test Suite through the classifier", () => {
  it("agrees on every case that applies to tool arguments, drafts 2020-12, 2019-09, 07, 06 and 04, formats included", () => {
    const { agreed, disagreed, skipped } = runSuite();
    const total = agreed.length + disagreed.length;
    console.log(
      `JSON Schema Test Suite: ${agreed.length} of ${total} cases agree; ${[...skipped.values()].flat().length} left out by design:\n` +
        [...skipped].map(([reason, ids]) => `  ${ids.length} × ${reason}`).join("\n"),
    );
    expect(disagreed).toEqual([]);
    expect(total).toBeGreaterThan(1000);
  }, 180_000); // about 1,200 schemas compiled: 20–50 s on a loaded machine
});
