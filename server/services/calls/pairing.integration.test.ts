import { describe, expect, it } from "vitest";
import { makeProject, withKey } from "../../../test/fixtures";
import { LOAN_TOOLS, makeEvent } from "../../../test/events";

// One table of pairing cases, run through the production path: ingest.batch stores the
// correction link, and the call page and the run timeline must show exactly that link and
// the same order (docs/pairing.md).

const at = (minute: number) => new Date(Date.UTC(2026, 10, 30, 10, minute)).toISOString();
const bad = { arguments: { loannumber: 447 } }; // a number where getloan wants a string
const good = { arguments: { loannumber: "4471" } };

type Call = { name: string; step?: number; minute: number; tool?: string; valid: boolean; correctsName?: string };
type Case = {
  name: string;
  calls: Call[];
  /** arrival: batches of call names, in the order they are sent */
  batches: string[][];
  /** name of an invalid call → name of its expected correction (null: none) */
  corrections: Record<string, string | null>;
  /** the run timeline's order */
  order: string[];
};

const CASES: Case[] = [
  {
    name: "stepped: the next step with the same tool",
    calls: [
      { name: "bad", step: 1, minute: 1, valid: false },
      { name: "other-tool", step: 2, minute: 2, tool: "listopenloans", valid: true },
      { name: "fix", step: 3, minute: 3, valid: true },
    ],
    batches: [["bad", "other-tool", "fix"]],
    corrections: { bad: "fix" },
    order: ["bad", "other-tool", "fix"],
  },
  {
    name: "unstepped: the next call in time",
    calls: [
      { name: "bad", minute: 1, valid: false },
      { name: "bad-again", minute: 2, valid: false },
      { name: "fix", minute: 3, valid: true },
    ],
    batches: [["fix", "bad-again", "bad"]],
    corrections: { bad: "bad-again", "bad-again": "fix" },
    order: ["bad", "bad-again", "fix"],
  },
  {
    // the case where ingestion and the pages used to disagree
    name: "mixed: a call without a step comes after the stepped calls of its run",
    calls: [
      { name: "bad", step: 1, minute: 0, valid: false },
      { name: "unstepped", minute: 5, valid: true },
      { name: "step-2", step: 2, minute: 10, valid: true },
    ],
    batches: [["bad", "unstepped", "step-2"]],
    corrections: { bad: "step-2" },
    order: ["bad", "step-2", "unstepped"],
  },
  {
    name: "out of order: the correction arrives first, in another batch",
    calls: [
      { name: "bad", step: 1, minute: 1, valid: false },
      { name: "fix", step: 2, minute: 2, valid: true },
      { name: "later", step: 3, minute: 3, valid: true },
    ],
    batches: [["later"], ["fix"], ["bad"]],
    corrections: { bad: "fix" },
    order: ["bad", "fix", "later"],
  },
  {
    name: "a later step with an earlier timestamp still comes later (steps win over clocks)",
    calls: [
      { name: "bad", step: 1, minute: 9, valid: false },
      { name: "fix", step: 2, minute: 1, valid: true },
    ],
    batches: [["fix", "bad"]],
    corrections: { bad: "fix" },
    order: ["bad", "fix"],
  },
  {
    name: "correctsId names the correction, even under another tool name and out of run order",
    calls: [
      { name: "bad", step: 1, minute: 1, tool: "get_loan", valid: false },
      { name: "same-tool-next", step: 2, minute: 2, tool: "get_loan", valid: false },
      { name: "named", step: 5, minute: 5, valid: true, correctsName: "bad" },
    ],
    batches: [["named"], ["bad", "same-tool-next"]],
    corrections: { bad: "named", "same-tool-next": null },
    order: ["bad", "same-tool-next", "named"],
  },
];

describe("pairing through ingestion, the call page and the run timeline", () => {
  for (const c of CASES) {
    it(c.name, async () => {
      const p = await makeProject();
      const { key } = await p.key();
      const api = withKey(key);
      await api.tools.register({ tools: LOAN_TOOLS });
      const owner = await p.asOwner();
      const runId = `run-${p.project.slug}`;
      const ids = Object.fromEntries(c.calls.map((call) => [call.name, `${call.name}-${p.project.slug}`]));
      const events = Object.fromEntries(
        c.calls.map((call) => [
          call.name,
          makeEvent({
            id: ids[call.name],
            runId,
            step: call.step,
            timestamp: at(call.minute),
            tool: call.tool ?? "getloan",
            ...(call.tool === "listopenloans" ? { arguments: { status: "open" } } : call.valid ? good : bad),
            ...(call.correctsName ? { correctsId: ids[call.correctsName] } : {}),
          }),
        ]),
      );
      for (const batch of c.batches) {
        const answer = await api.ingest.batch({ events: batch.map((name) => events[name]) });
        expect(answer.rejected).toEqual([]);
      }
      const nameOf = Object.fromEntries(Object.entries(ids).map(([name, id]) => [id, name]));

      const timeline = await owner.calls.run({ project: p.project.slug, runId });
      expect(timeline.calls.map((call) => nameOf[call.id])).toEqual(c.order);

      for (const [invalid, expected] of Object.entries(c.corrections)) {
        const detail = await owner.calls.byId({ project: p.project.slug, id: ids[invalid]! });
        expect(detail.valid).toBe(false);
        expect(detail.correction ? nameOf[detail.correction.id] : null).toBe(expected);
        // the timeline shows the same link the call page follows
        const row = timeline.calls.find((call) => call.id === ids[invalid]);
        expect(row?.correctionId ? nameOf[row.correctionId] : null).toBe(expected);
        // previous / next on the call page walk the timeline's order
        const at = c.order.indexOf(invalid);
        expect(detail.previousInRun ? nameOf[detail.previousInRun] : null).toBe(c.order[at - 1] ?? null);
        expect(detail.nextInRun ? nameOf[detail.nextInRun] : null).toBe(c.order[at + 1] ?? null);
      }
    });
  }

  it("counts attempts along the stored links: f1 → f2 → f3 → ok is 4 attempts from any of them", async () => {
    const p = await makeProject();
    const { key } = await p.key();
    const api = withKey(key);
    await api.tools.register({ tools: LOAN_TOOLS });
    const owner = await p.asOwner();
    const runId = `run-${p.project.slug}`;
    const e = (id: string, step: number, valid: boolean, tool = "getloan") =>
      makeEvent({ id: `${id}-${p.project.slug}`, runId, step, timestamp: at(step), tool, ...(valid ? good : bad) });
    const f1 = e("f1", 1, false);
    const f2 = e("f2", 3, false);
    const f3 = e("f3", 4, false);
    await api.ingest.batch({
      events: [e("ok-after", 6, true), f2, e("ok-before", 0, true), e("other", 2, true, "listopenloans"), f3, e("ok", 5, true), f1].map((x) =>
        x.tool === "listopenloans" ? { ...x, arguments: { status: "open" } } : x,
      ),
    });
    for (const call of [f1, f2, f3]) {
      expect((await owner.calls.byId({ project: p.project.slug, id: call.id })).attemptsUntilSuccess).toBe(4);
    }
  });
});
