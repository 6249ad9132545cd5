import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { beforeAll, describe, expect, it } from "vitest";
import { prisma } from "../server/db/client";
import { makeProject } from "../test/fixtures";
import { httpAppForTests } from "../test/http-app";

// The Python SDK (sdk-python/) against the real app: this file starts it over HTTP on loopback, runs
// the Python integration tests (tests_integration/, on the wheel installed by scripts/test-python.sh)
// against it, then checks in the database what they say they sent.

const run = promisify(execFile);
const here = import.meta.dirname;
const venv = path.resolve(here, process.env.TOOLGATE_PY_VENV ?? ".venv-test");
const server = httpAppForTests();

type Expected = Record<string, { runId: string; ids: string[]; invalid?: number; corrections?: number; notStored?: string[] }>;

describe("the Python SDK against the real Toolgate", () => {
  let expected: Expected;
  let projectId: string;
  let exampleProjectId: string;
  let exampleOutput: string;

  beforeAll(async () => {
    // the wheel, built and installed into the virtualenv (quick when it is there already)
    if (!existsSync(path.join(venv, "bin", "pytest"))) await run(path.resolve(here, "../scripts/test-python.sh"), ["--install"], { timeout: 600_000 });
    const p = await makeProject();
    projectId = p.project.id;
    const out = path.join(await mkdtemp(path.join(tmpdir(), "toolgate-py-")), "expected.json");
    const env = { ...process.env, TOOLGATE_URL: server.app.url, TOOLGATE_API_KEY: (await p.key()).key, TOOLGATE_PY_OUT: out };
    try {
      await run(path.join(venv, "bin", "pytest"), ["-q", "-p", "no:cacheprovider", "tests_integration"], { cwd: here, env, timeout: 120_000 });
    } catch (error) {
      const { stdout, stderr } = error as { stdout?: string; stderr?: string };
      throw new Error(`The Python integration tests failed:\n${stdout ?? ""}\n${stderr ?? ""}`);
    }
    expected = JSON.parse(await readFile(out, "utf8")) as Expected;
    // the loan assistant in Python, as `python examples/loan-assistant-python/run.py` runs against `npm start`
    const example = await makeProject();
    exampleProjectId = example.project.id;
    exampleOutput = (
      await run(path.join(venv, "bin", "python"), [path.resolve(here, "../examples/loan-assistant-python/run.py")], {
        env: { ...process.env, TOOLGATE_URL: server.app.url, TOOLGATE_API_KEY: (await example.key()).key },
        timeout: 120_000,
      })
    ).stdout;
  }, 700_000);

  const rowsOf = (runId: string) =>
    prisma().toolCall.findMany({ where: { projectId, runId }, select: { id: true, valid: true, correctsId: true, verdictsDiffer: true, toolVersion: true } });

  it("stores every event once, with the verdicts the server agrees with and the corrections linked", async () => {
    const { runId, ids, invalid, corrections } = expected.once!;
    const rows = await rowsOf(runId);
    expect(rows.map((r) => r.id).sort()).toEqual([...ids].sort());
    expect(rows.filter((r) => r.valid === false)).toHaveLength(invalid!);
    expect(rows.filter((r) => r.correctsId !== null)).toHaveLength(corrections!);
    expect(rows.every((r) => !r.verdictsDiffer)).toBe(true);
    // each event names the schema version the reporter registered
    const { version } = await prisma().toolDefinition.findFirstOrThrow({ where: { projectId, name: "getloan" } });
    expect(new Set(rows.map((r) => r.toolVersion))).toEqual(new Set([version]));
  });

  it("Toolgate down and back: every event the buffer held is stored exactly once", async () => {
    const { runId, ids } = expected.outage!;
    const rows = await rowsOf(runId);
    expect(ids).toHaveLength(130);
    expect(rows.map((r) => r.id).sort()).toEqual([...ids].sort());
  });

  it("a refused key stores nothing", async () => {
    const { runId, notStored } = expected.refused!;
    expect(notStored).toHaveLength(10);
    expect(await rowsOf(runId)).toEqual([]);
  });

  it("the Python loan assistant: 319 calls, 19 refused and each paired with its correction (6.0 %, 1.063 attempts per success)", async () => {
    expect(exampleOutput).toContain(
      "319 tool calls, 19 refused and corrected: invalid rate 6.0%, 1.063 attempts per successful call, 6.38 attempts per 6-call task",
    );
    const rows = await prisma().toolCall.findMany({ where: { projectId: exampleProjectId }, select: { valid: true, correctsId: true, verdictsDiffer: true } });
    expect(rows).toHaveLength(319);
    expect(rows.filter((r) => r.valid === false)).toHaveLength(19);
    expect(rows.filter((r) => r.correctsId !== null)).toHaveLength(19);
    expect(rows.every((r) => !r.verdictsDiffer)).toBe(true);
  });
});
