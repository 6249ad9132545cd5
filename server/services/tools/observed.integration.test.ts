import { beforeAll, describe, expect, it } from "vitest";
import { projectWithTools, withKey } from "../../../test/fixtures";
import { observedValues } from "./observed";

// The lint rules that read recorded calls (string_closed_set, optional_without_default:
// isomorphic/definition-lint.ts) on calls stored through ingest.batch and read back by the
// schema doctor, for the tool page and for read keys.

const TOOL = {
  name: "ship_order",
  description: "Books the shipment of one order and returns its tracking number. Use it once the order is paid; not for returns.",
  parameters: {
    type: "object",
    properties: {
      orderid: { type: "string", description: "The order's id, as lookup_order returns it." },
      // a free string the calls fill with two values only: the enum to suggest
      carrier: { type: "string", description: "The carrier that takes the parcel." },
      // optional, no default, nearly always "standard": the default to suggest
      speed: { type: "string", description: "How fast the parcel travels." },
      // optional, no default, sent half one way and half the other: nothing to suggest
      gift: { type: "boolean", description: "Whether to wrap the parcel as a gift." },
      // a free string with a different value in every call: no enum to suggest
      note: { type: "string", description: "A note for the driver." },
    },
    required: ["orderid", "carrier"],
    additionalProperties: false,
  },
};

const at = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();
const CALLS = 30;

let project: Awaited<ReturnType<typeof projectWithTools>>;
let readKey: string;
beforeAll(async () => {
  project = await projectWithTools([TOOL]);
  ({ readKey } = project);
  const { ingest } = project;
  const events = Array.from({ length: CALLS }, (_, i) => ({
    id: `ship-${i}`,
    runId: `run-${i}`,
    step: 0,
    timestamp: at(120 - i),
    model: { name: "acme-large", version: "2026-11" },
    tool: TOOL.name,
    arguments: {
      orderid: `A${i}`,
      carrier: i % 3 === 0 ? "dhl" : "ups",
      ...(i === 7 ? { speed: "express" } : { speed: "standard" }),
      gift: i % 2 === 0,
      note: `ring ${i}`,
    },
  }));
  expect(await ingest.ingest.batch({ events })).toMatchObject({ accepted: CALLS, rejected: [] });
});

const range = () => ({ from: at(24 * 60), to: at(-60) });

describe("the lint rules that read recorded calls", () => {
  it("read the values each parameter was sent, the most frequent first, from the tool's newest calls", async () => {
    const observed = await observedValues(project.project.id, TOOL.name, { from: new Date(range().from), to: new Date(range().to) });
    expect(observed.calls).toBe(CALLS);
    expect(observed.values.carrier).toEqual([
      { value: "ups", count: 20 },
      { value: "dhl", count: 10 },
    ]);
    expect(observed.values.gift).toEqual([
      { value: false, count: 15 },
      { value: true, count: 15 },
    ]);
    expect(observed.values.note).toHaveLength(11); // the 11 most frequent of 30 distinct values: enough to tell it is no closed set
    // only the newest calls are read
    const newest = await observedValues(project.project.id, TOOL.name, { from: new Date(range().from), to: new Date(range().to) }, 5);
    expect(newest.calls).toBe(5);
    expect(newest.values.speed).toEqual([{ value: "standard", count: 5 }]);
  });

  it("suggest the enum of the values seen and the default nearly every call sends, with the counts, on the tool page", async () => {
    const owner = await project.asOwner();
    const { suggestions } = await owner.tools.patterns({ project: project.project.slug, tool: TOOL.name, range: range() });
    // warnings before infos; within a rule in the stored schema's order (PostgreSQL's jsonb orders keys by length)
    const fromCalls = suggestions
      .filter((s) => s.kind === "string_closed_set" || s.kind === "optional_without_default")
      .sort((a, b) => (a.kind === b.kind ? (a.path < b.path ? -1 : 1) : 0));
    expect(fromCalls.map((s) => [s.kind, s.path, s.calls])).toEqual([
      ["string_closed_set", "carrier", { supporting: 30, of: 30 }],
      ["string_closed_set", "speed", { supporting: 30, of: 30 }],
      ["optional_without_default", "speed", { supporting: 29, of: 30 }],
    ]);
    const carrier = fromCalls[0]!;
    expect(carrier).toMatchObject({ source: "calls", severity: "warning", changesVerdicts: true });
    expect(carrier.evidence).toBe('`carrier` is a free string, but 30 calls sent only "ups" ×20, "dhl" ×10.');
    expect((carrier.after.parameters.properties as Record<string, unknown>).carrier).toEqual({
      type: "string",
      enum: ["ups", "dhl"],
      description: "The carrier that takes the parcel. One of: ups, dhl.",
    });
    // gift (half and half) gets no default, note (a value a call) no enum; the required carrier no default
    expect(suggestions.filter((s) => ["gift", "note"].includes(s.path) && s.source === "calls")).toEqual([]);
    expect(suggestions.some((s) => s.kind === "optional_without_default" && s.path === "carrier")).toBe(false);
  });

  it("answer read keys the same, with each finding's severity and counts", async () => {
    const { suggestions } = await withKey(readKey).tools.doctor({ tool: TOOL.name, range: range() });
    expect(suggestions.find((s) => s.id === "optional_without_default:speed")).toMatchObject({
      severity: "info",
      source: "calls",
      calls: { supporting: 29, of: 30 },
      title: 'Give `speed` the default "standard"',
    });
    expect(suggestions.find((s) => s.id === "undescribed_parameter:carrier")).toBeUndefined();
    expect(suggestions.find((s) => s.kind === "description_no_returns")).toBeUndefined();
  });

  it("stay quiet for a tool with fewer than 20 calls in the range", async () => {
    const owner = await project.asOwner();
    const few = { from: at(100.5), to: at(-60) }; // the newest 10 calls
    const { suggestions } = await owner.tools.patterns({ project: project.project.slug, tool: TOOL.name, range: few });
    expect(suggestions.filter((s) => s.source === "calls")).toEqual([]);
  });
});
