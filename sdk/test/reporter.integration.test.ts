import { describe, expect, it } from "vitest";
import { prisma } from "../../server/db/client";
import { httpAppForTests } from "../../test/http-app";
import { makeProject } from "../../test/fixtures";
import { runCheck } from "../src/check";
import { ReporterError, Toolgate, type ReporterOptions } from "../src/index";

const server = httpAppForTests();

const getloan = {
  name: "getloan",
  description: "A loan by its number",
  parameters: {
    type: "object",
    properties: { loannumber: { type: "string", pattern: "^[0-9]+$" } },
    required: ["loannumber"],
    additionalProperties: false,
  },
  handler: (args: { loannumber: string }) => ({ loannumber: args.loannumber, balance: 1200 }),
};

function gate(apiKey: string, reporter: Omit<ReporterOptions, "url" | "apiKey"> = {}) {
  const errors: ReporterError[] = [];
  const toolgate = new Toolgate({
    url: server.app.url,
    apiKey,
    model: { provider: "acme", name: "acme-large", version: "2026-11" },
    tools: [getloan],
    reporter: { flushIntervalMs: 20, retryDelayMs: 20, maxRetryDelayMs: 100, ...reporter, onError: (e) => errors.push(e) },
  });
  return { toolgate, errors };
}

/** `count` turns of one call each: every fifth sends the loan number as a number (invalid). */
async function calls(toolgate: Toolgate, runId: string, count: number, from = 0) {
  const run = toolgate.run({ runId });
  const ids: string[] = [];
  for (let i = from; i < from + count; i++) {
    const args = i % 5 === 0 ? `{"loannumber": ${i}}` : `{"loannumber": "${i}"}`;
    const [outcome] = await run.dispatch({ id: `c${i}`, function: { name: "getloan", arguments: args } });
    ids.push(outcome!.event.id);
  }
  return ids;
}

const storedIds = async (projectId: string) => (await prisma().toolCall.findMany({ where: { projectId }, select: { id: true } })).map((c) => c.id).sort();

describe("the SDK against the real server over HTTP", () => {
  it("registers the tools, and every event arrives once with the verdict the server agrees with", async () => {
    const p = await makeProject();
    const { toolgate, errors } = gate((await p.key()).key);
    const ids = await calls(toolgate, "run-once", 20);
    const stats = await toolgate.shutdown();
    expect(errors).toEqual([]);
    expect(stats).toMatchObject({ sent: 20, dropped: 0, rejected: 0 });
    expect(await storedIds(p.project.id)).toEqual([...ids].sort());
    expect(await prisma().toolDefinition.count({ where: { projectId: p.project.id, name: "getloan" } })).toBe(1);
    const rows = await prisma().toolCall.findMany({ where: { projectId: p.project.id }, select: { valid: true, verdictsDiffer: true, toolVersion: true } });
    expect(rows.filter((r) => r.valid === false)).toHaveLength(4);
    // each event names the schema version the reporter registered
    const { version } = await prisma().toolDefinition.findFirstOrThrow({ where: { projectId: p.project.id, name: "getloan" } });
    expect(new Set(rows.map((r) => r.toolVersion))).toEqual(new Set([version]));
    expect(rows.every((r) => !r.verdictsDiffer)).toBe(true);
  });

  it("the server stopped in the middle of a stream and started again: every event stored exactly once, the buffer bound kept", async () => {
    const p = await makeProject();
    const maxBuffer = 60;
    const { toolgate, errors } = gate((await p.key()).key, { batchSize: 10, maxBuffer });
    let peak = 0;
    const watch = setInterval(() => (peak = Math.max(peak, toolgate.stats()!.buffered)), 2);
    const before = await calls(toolgate, "run-outage", 40);
    await expect.poll(() => toolgate.stats()!.sent, { timeout: 10_000 }).toBeGreaterThan(0);

    await server.app.stop();
    const during = await calls(toolgate, "run-outage", 100, 40); // more than the buffer holds
    await new Promise((resolve) => setTimeout(resolve, 200));
    await server.app.start();
    await expect.poll(() => toolgate.stats()!.buffered, { timeout: 10_000 }).toBe(0); // the backlog drains by itself

    const after = await calls(toolgate, "run-outage", 30, 140);
    const stats = (await toolgate.shutdown({ timeoutMs: 20_000 }))!;
    clearInterval(watch);

    const recorded = [...before, ...during, ...after];
    const stored = await storedIds(p.project.id);
    expect(new Set(stored).size).toBe(stored.length); // once each
    expect(stored.every((id) => recorded.includes(id))).toBe(true);
    // none lost: what is not stored was dropped by the bound, and counted
    expect(stored.length + stats.dropped).toBe(recorded.length);
    expect(stats.dropped).toBeGreaterThan(0);
    expect(stats.retried).toBeGreaterThan(0);
    expect(peak).toBeLessThanOrEqual(maxBuffer);
    expect(after.every((id) => stored.includes(id))).toBe(true); // after the backlog, nothing is dropped
    expect(errors.some((e) => e.kind === "network" && e.details.willRetry)).toBe(true);
  });

  it("a read key cannot ingest through the SDK (refused, counted, reported), an ingest key cannot run the CI gate", async () => {
    const p = await makeProject();
    const { toolgate, errors } = gate((await p.key("ci", "read")).key);
    await calls(toolgate, "run-read", 3);
    const stats = await toolgate.shutdown();
    expect(stats).toMatchObject({ sent: 0, dropped: 3, retried: 0 });
    expect(errors.map((e) => e.kind)).toEqual(["register", "http"]);
    expect(errors[1]!.message).toMatch(/HTTP 403\): This API key has the read scope and cannot send events/);
    expect(await storedIds(p.project.id)).toEqual([]);

    const lines: string[] = [];
    const code = await runCheck(["check", "--max-invalid-rate", "5%"], { TOOLGATE_URL: server.app.url, TOOLGATE_API_KEY: (await p.key()).key }, (l) =>
      lines.push(l),
    );
    expect(code).toBe(2);
    expect(lines.join("\n")).toMatch(/HTTP 403: This API key has the ingest scope and cannot read figures/);
  });

  it("the CI gate passes and fails on the figures of a run", async () => {
    const p = await makeProject();
    const { toolgate } = gate((await p.key()).key);
    await calls(toolgate, "eval-42-a", 10); // 2 of 10 invalid (i = 0, 5)
    await calls(toolgate, "other-run", 5); // 1 of 5 invalid, outside the prefix
    await toolgate.shutdown();
    const env = { TOOLGATE_URL: server.app.url, TOOLGATE_API_KEY: (await p.key("ci", "read")).key };
    const check = async (...args: string[]) => {
      const lines: string[] = [];
      const code = await runCheck(["check", "--model", "acme-large@2026-11", "--since", "2h", "--run-prefix", "eval-42", ...args], env, (l) => lines.push(l));
      return { code, out: lines.join("\n") };
    };
    const failing = await check("--max-invalid-rate", "15%");
    expect(failing.code).toBe(1);
    expect(failing.out).toContain("10 calls, 2 invalid: invalid rate 20.00% (limit 15.00%)");
    expect(failing.out).toContain("getloan: 2 of 10 invalid (20.00%), mostly wrong_type");
    expect(failing.out).toMatch(/2× Error: 'loannumber' must be a string, you sent the number/);
    expect(failing.out).toContain("FAIL: invalid rate 20.00% is over 15.00%.");

    const passing = await check("--max-invalid-rate", "0.2");
    expect(passing).toMatchObject({ code: 0, out: expect.stringMatching(/PASS$/) });
    expect((await check("--max-invalid-rate", "50%", "--max-attempts-per-success", "1.1")).code).toBe(1);
    expect((await check("--max-invalid-rate", "50%", "--tool", "nosuchtool")).out).toContain("FAIL: only 0 calls matched");
  });
});
