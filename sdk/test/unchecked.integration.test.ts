// A turn with a call Toolgate cannot check, through the SDK to a real server: the turn is answered,
// its events all land, and the server stores the uncheckable call unchecked with the reason.
import { afterAll, beforeAll, expect, it } from "vitest";
import { pool } from "../../server/db/client";
import { makeProject } from "../../test/fixtures";
import { startHttpApp } from "../../test/http-app";
import { overflowingSchema } from "../../test/uncheckable-schema";
import { Toolgate } from "../src/index";

let app: Awaited<ReturnType<typeof startHttpApp>>;
beforeAll(async () => {
  app = await startHttpApp();
});
afterAll(() => app.stop());

it("one uncheckable call of a turn is stored unchecked with the reason, the turn's other calls with their verdicts", async () => {
  const project = await makeProject();
  const toolgate = new Toolgate({
    url: app.url,
    apiKey: (await project.key()).key,
    model: { name: "m" },
    tools: [
      { name: "overflowing", parameters: overflowingSchema, handler: () => "ran" },
      { name: "plain", parameters: { type: "object", properties: { n: { type: "integer" } }, required: ["n"] }, handler: () => "ok" },
    ],
  });
  const call = (id: string, name: string, input: object) => ({ type: "tool_use" as const, id, name, input });
  const outcomes = await toolgate.run().dispatch([call("1", "plain", { n: 1 }), call("2", "overflowing", { x: {} }), call("3", "plain", { n: "x" })]);
  expect(outcomes.map((o) => o.status)).toEqual(["ok", "unchecked", "invalid"]);
  const stats = await toolgate.shutdown();
  expect(stats).toMatchObject({ sent: 3, dropped: 0 });
  const rows = (
    await pool().query<{ tool: string; valid: boolean | null; checked_valid: boolean | null; checked_message: string | null; status: string | null }>(
      "SELECT tool, valid, checked_valid, checked_message, result_status AS status FROM tool_calls WHERE project_id = $1 ORDER BY step",
      [project.project.id],
    )
  ).rows;
  expect(rows.map((r) => [r.tool, r.valid, r.checked_valid])).toEqual([
    ["plain", true, true],
    ["overflowing", null, null],
    ["plain", false, false],
  ]);
  expect(rows[1]!.checked_message).toMatch(
    /^Unchecked: Toolgate could not check this call: the schema of overflowing@\S+ cannot be evaluated on these arguments/,
  );
  expect(rows[1]!.status).toBe("error");
});
