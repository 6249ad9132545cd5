import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CATEGORIES } from "../../contracts/categories";
import { makeProject } from "../../test/fixtures";
import { startHttpApp } from "../../test/http-app";
import { Toolgate } from "../src/index";
import { CASE_TOOLS, VERDICT_CASES } from "./verdict-cases";

let app: Awaited<ReturnType<typeof startHttpApp>>;
let key: string;
let toolgate: Toolgate;
beforeAll(async () => {
  app = await startHttpApp();
  key = (await (await makeProject()).key()).key;
  // the SDK registers the schemas itself (tools.register), as a harness would
  toolgate = new Toolgate({ url: app.url, apiKey: key, model: { name: "m" }, tools: CASE_TOOLS.map((tool) => ({ ...tool, handler: () => "ok" })) });
  await toolgate.flush();
});
afterAll(async () => {
  await toolgate.shutdown();
  await app.stop();
});

describe("one table of cases: the SDK's verdict equals the server's tools.validate", () => {
  it("covers every category the classifier gives (all but the harness's own not_allowed)", () => {
    expect(new Set(VERDICT_CASES.map((c) => c.category))).toEqual(new Set([null, ...CATEGORIES.filter((c) => c !== "not_allowed")]));
  });

  for (const c of VERDICT_CASES) {
    it(c.name, async () => {
      const [outcome] = await toolgate
        .run()
        .dispatch({ id: "call", function: { name: c.tool, arguments: typeof c.arguments === "string" ? c.arguments : JSON.stringify(c.arguments) } });
      const response = await fetch(`${app.url}/api/trpc/tools.validate`, {
        method: "POST",
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
        body: JSON.stringify({ tool: c.tool, arguments: c.arguments }),
      });
      expect(response.status).toBe(200);
      // the server also names the schema version it used
      const { version: _version, ...server } = ((await response.json()) as { result: { data: { version?: string } } }).result.data;
      expect(outcome!.verdict).toEqual(server);
      expect(outcome!.verdict?.category ?? null).toBe(c.category);
      expect(outcome!.status).toBe(c.category ? "invalid" : "ok");
    });
  }
});
