import { beforeAll, describe, expect, it } from "vitest";
import { makeProject, projectWithTools, withKey } from "../../../test/fixtures";
import { loadDemoData } from "../demo/load-demo";
import { CONFUSABLE_READ_LIMIT, confusableTools } from "./confusable";

// Confusable tools (server/domain/confusable-tools.ts) from runs stored through ingest.batch:
// runs built for it, another project's key, and the demo data.

const object = (properties: Record<string, unknown>, required: string[]) => ({ type: "object", properties, required, additionalProperties: false });
const orderid = { type: "string", description: "The order's id" };
const TOOLS = [
  { name: "lookup_order", description: "Returns one order.", parameters: object({ orderid }, ["orderid"]) },
  { name: "track_shipment", description: "Returns where an order's parcel is.", parameters: object({ orderid, carrier: { type: "string" } }, ["orderid"]) },
  { name: "cancel_order", description: "Cancels an order.", parameters: object({ orderid, reason: { type: "string" } }, ["orderid"]) },
  { name: "get_order", description: "Returns one order by number.", parameters: object({ number: { type: "string" } }, ["number"]) },
  { name: "get_orders", description: "Lists a customer's orders.", parameters: object({ customer: { type: "string" } }, ["customer"]) },
];

const at = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();
let n = 0;
/** One run of calls in order, a minute apart, each `[tool, arguments, result status?]`. */
function run(id: string, calls: [string, Record<string, unknown>, ("ok" | "error")?][]) {
  return calls.map(([tool, args, status], step) => ({
    id: `${id}-${step}`,
    runId: id,
    step,
    timestamp: at(120 - n++),
    model: { name: "acme-large", version: "2026-11" },
    tool,
    arguments: args,
    ...(status ? { result: { status } } : {}),
  }));
}

let project: Awaited<ReturnType<typeof projectWithTools>>;
let readKey: string;
beforeAll(async () => {
  project = await projectWithTools(TOOLS);
  ({ readKey } = project);
  const { ingest } = project;
  const events = [
    // refused lookup_order (a tracking number it does not take), then track_shipment by the same order id: 4 runs
    ...[1, 2, 3, 4].flatMap((i) =>
      run(`switch-${i}`, [
        ["lookup_order", { orderid: "A1", trackingnumber: "Z9" }],
        ["track_shipment", { orderid: "A1" }],
      ]),
    ),
    // the workflow: look up, then cancel by the same id, 10 times after a success and twice after a failed lookup
    ...Array.from({ length: 10 }, (_, i) =>
      run(`flow-${i}`, [
        ["lookup_order", { orderid: "B2" }, "ok"],
        ["cancel_order", { orderid: "B2", reason: "late" }, "ok"],
      ]),
    ).flat(),
    ...[1, 2].flatMap((i) =>
      run(`flow-error-${i}`, [
        ["lookup_order", { orderid: "B3" }, "error"],
        ["cancel_order", { orderid: "B3" }, "ok"],
      ]),
    ),
    // a name as close to get_order as to get_orders, three times
    ...[1, 2, 3].flatMap((i) =>
      run(`name-${i}`, [
        ["getorder", { number: "7" }],
        ["get_order", { number: "7" }],
      ]),
    ),
  ];
  expect(await ingest.ingest.batch({ events })).toMatchObject({ accepted: events.length, rejected: [] });
});

describe("confusable tools", () => {
  it("rank the switch after a refused call and the ambiguous name, not the workflow, with the runs as evidence", async () => {
    const { pairs } = await withKey(readKey).tools.confusable({});
    expect(pairs.map((p) => [p.tools, p.score])).toEqual([
      [["lookup_order", "track_shipment"], 4],
      [["get_order", "get_orders"], 3],
    ]);
    const [switched, named] = pairs;
    expect(switched!.directions).toEqual([
      { from: "lookup_order", to: "track_shipment", switches: 4, sharedArguments: ["orderid"], switchRate: 4 / 6, afterSuccessRate: 0 },
    ]);
    expect(switched!.runs.map((r) => r.runId).sort()).toEqual(["switch-1", "switch-2", "switch-3", "switch-4"]);
    expect(switched!.runs[0]).toMatchObject({ failedId: `${switched!.runs[0]!.runId}-0`, switchedId: `${switched!.runs[0]!.runId}-1` });
    expect(named!.ambiguousNames).toEqual([{ name: "getorder", calls: 3 }]);
    expect(named!.advice).toContain("`getorder` is as close to `get_order` as to `get_orders`");
  });

  it("on the tool page: the pairs with that tool only", async () => {
    const owner = await project.asOwner();
    const range = { from: at(24 * 60), to: at(-60) };
    const { pairs, truncated } = await owner.tools.confusablePairs({ project: project.project.slug, tool: "track_shipment", range });
    expect(pairs.map((p) => p.tools)).toEqual([["lookup_order", "track_shipment"]]);
    expect(truncated).toBe(false);
    expect((await owner.tools.confusablePairs({ project: project.project.slug, tool: "cancel_order", range })).pairs).toEqual([]);
  });

  it("read the newest calls of a range only, up to the read limit, and say so", async () => {
    const range = { from: new Date(at(24 * 60)), to: new Date(at(-60)) };
    const whole = await confusableTools(project.project.id, range, "track_shipment");
    expect(whole).toMatchObject({ truncated: false, readLimit: CONFUSABLE_READ_LIMIT });
    // a limit below the range's calls: cut, and the older switches are no longer read
    const cut = await confusableTools(project.project.id, range, "track_shipment", 3);
    expect(cut).toMatchObject({ truncated: true, readLimit: 3 });
    expect(cut.pairs.reduce((n, p) => n + p.switches, 0)).toBeLessThan(whole.pairs.reduce((n, p) => n + p.switches, 0));
  });

  it("show a key of another project nothing", async () => {
    const other = await makeProject();
    expect(await withKey((await other.key("agent", "read")).key).tools.confusable({})).toEqual({
      pairs: [],
      truncated: false,
      readLimit: CONFUSABLE_READ_LIMIT,
    });
  });

  it("show getcustomer ↔ getloan in the demo data: refused getcustomer calls, then getloan with the customer id; and sendmessage ↔ schedulecallback by their descriptions", async () => {
    const demo = await makeProject();
    // enough runs that the demo's mix-ups (a third of the runs after a refused getcustomer) pass the rule's two switches whatever the day
    await loadDemoData(demo.project, { now: new Date(), days: 6, runsPerDay: 150 });
    const { pairs } = await withKey((await demo.key("agent", "read")).key).tools.confusable({});
    const pair = pairs.find((p) => p.tools.join() === "getcustomer,getloan");
    expect(pair?.directions).toEqual([expect.objectContaining({ from: "getcustomer", to: "getloan", sharedArguments: ["customerid"] })]);
    expect(pair!.switches).toBeGreaterThanOrEqual(2);
    // and a pair before any run: two descriptions written from one template (the definition lint's description_duplicate)
    const worded = pairs.find((p) => p.tools.join() === "schedulecallback,sendmessage");
    expect(worded?.descriptionOverlap).toMatchObject({ sharedWords: expect.arrayContaining(["contacts", "customer", "bank"]) });
    expect(worded!.descriptionOverlap!.score).toBeGreaterThanOrEqual(0.8);
    expect(worded!.advice).toContain("The descriptions of `schedulecallback` and `sendmessage` share 83% of their words");
  });
});
