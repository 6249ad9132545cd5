// npm run screenshots: the README's pictures, taken from the real app on demo data, in the
// light and the dark colour scheme (docs/screenshots/<name>.png and <name>-dark.png; the
// README shows the one of the reader's scheme).
//
// npm run screenshots -- --all <folder>: instead, every main page (overview, tools, a tool,
// models, errors, definitions, calls, a call, a run, a run with its conversation, incidents, an
// incident, the rules and the rule form, connect, the empty project, sign-in) in both schemes, at
// desktop and phone width, full length, into <folder>: to look at after a change to the layout or
// the theme.
import { spawn } from "node:child_process";
import { mkdirSync } from "node:fs";
import { chromium, type Page } from "@playwright/test";
import { freePort } from "../server/db/embedded";
import { stopProcess, trpc, waitForHealth } from "./lib/running-app";

const allAt = process.argv.indexOf("--all");
const allDir = allAt >= 0 ? process.argv[allAt + 1] : undefined;
if (allAt >= 0 && !allDir) throw new Error("--all needs a folder: npm run screenshots -- --all /tmp/shots");

const port = await freePort();
const base = `http://localhost:${port}`;
const app = spawn(process.execPath, ["--import", "tsx", "scripts/e2e-server.ts"], {
  stdio: ["ignore", "ignore", "inherit"],
  env: { ...process.env, E2E_PORT: String(port), TOOLGATE_ALERT_EVALUATOR: "off" },
});
let exited = false;
app.once("exit", () => (exited = true));

/** A picture: `from` starts it at this heading (a long page), `height` pixels tall; `then` runs on the page first. */
type Shot = { file: string; path: string; from?: string; height?: number; then?: (page: Page) => Promise<unknown> };

try {
  await waitForHealth(base, { exited: () => exited }); // a build first on a busy machine can take many minutes
  const { cookie } = await trpc(base, "mutation", "auth.setup", {
    email: "demo@toolgate.test",
    password: "screenshots only, not a secret",
    name: "Demo",
    projectName: "Demo — loan assistant",
    projectSlug: "demo",
  });
  await trpc(base, "mutation", "demo.load", { project: "demo" }, cookie);
  type Row = { id: string; runId: string; correctionId: string | null; message: string | null };
  const { data } = await trpc<{ calls: Row[] }>(
    base,
    "query",
    "calls.list",
    { project: "demo", filter: { valid: "invalid", tool: "getloan" }, limit: 50 },
    cookie,
  );
  const call = data.calls.find((c) => c.correctionId && c.message && c.message !== "Error 422") ?? data.calls[0]!;

  const readme: Shot[] = [
    { file: "overview", path: "/p/demo?range=30d" },
    { file: "call-detail", path: `/p/demo/calls/${encodeURIComponent(call.id)}` },
    { file: "schema-doctor", path: "/p/demo/tools/getloan?range=30d#patterns", from: "Failure patterns", height: 1900 }, // the tool page opens that tab
    { file: "after-the-gate", path: "/p/demo/tools/getloan?range=30d", from: "After the gate", height: 1000 },
    { file: "connect", path: "/p/demo/settings/connect" },
  ];
  const shots = allDir ? await everyPage(call) : readme;

  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH || "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
  const devices = allDir
    ? ([
        ["", { width: 1440, height: 900 }],
        ["-phone", { width: 390, height: 844 }],
      ] as const)
    : ([["", { width: 1440, height: 960 }]] as const);
  if (allDir) mkdirSync(allDir, { recursive: true });
  for (const colorScheme of ["light", "dark"] as const) {
    for (const [suffix, viewport] of devices) {
      const context = await browser.newContext({ viewport, deviceScaleFactor: 1, colorScheme });
      const [name, value] = cookie.split("=") as [string, string];
      await context.addCookies([{ name, value, url: base }]);
      const page = await context.newPage();
      for (const { file, path, from, height, then } of shots) {
        await page.goto(`${base}${path}`);
        await page.waitForLoadState("networkidle");
        await then?.(page);
        await page.waitForTimeout(500);
        const box = from ? await page.getByRole("heading", { name: from, exact: true }).first().boundingBox() : null;
        const clip = box ? { x: 0, y: Math.max(0, box.y - 40), width: viewport.width, height: height ?? viewport.height } : undefined;
        const out = `${allDir ?? "docs/screenshots"}/${file}${suffix}${colorScheme === "dark" ? "-dark" : ""}.png`;
        await page.screenshot({ path: out, fullPage: true, clip });
        console.log(`${out} ← ${path}`);
      }
      await context.close();
    }
  }
  await browser.close();

  /** Every main page of the demo project, an incident fired by an evaluation, and an empty project. */
  async function everyPage(call: Row): Promise<Shot[]> {
    await trpc(base, "mutation", "alerts.evaluateNow", { project: "demo" }, cookie);
    const { data: incidents } = await trpc<{ id: string }[]>(base, "query", "alerts.incidents", { project: "demo" }, cookie);
    await trpc(base, "mutation", "projects.create", { name: "Empty", slug: "empty" }, cookie);
    return [
      { file: "overview", path: "/p/demo" },
      { file: "tools", path: "/p/demo/tools" },
      { file: "tool", path: "/p/demo/tools/getloan" },
      { file: "models", path: "/p/demo/models" },
      { file: "errors", path: "/p/demo/errors" },
      { file: "definitions", path: "/p/demo/definitions" },
      { file: "calls", path: "/p/demo/calls" },
      { file: "call", path: `/p/demo/calls/${encodeURIComponent(call.id)}` },
      { file: "run", path: `/p/demo/runs/${encodeURIComponent(call.runId)}` },
      // the demo's run sent over OTLP with its conversation (server/services/demo/demo-conversation.ts)
      { file: "run-conversation", path: "/p/demo/runs/demo-conversation-4471" },
      { file: "incidents", path: "/p/demo/alerts" },
      ...(incidents[0] ? [{ file: "incident", path: `/p/demo/alerts/${incidents[0].id}` }] : []),
      { file: "rules", path: "/p/demo/alerts/rules" },
      { file: "rule-form", path: "/p/demo/alerts/rules", then: (page: Page) => page.getByRole("button", { name: "New rule" }).click() },
      { file: "connect", path: "/p/demo/settings/connect" },
      { file: "empty-project", path: "/p/empty" },
      { file: "not-found", path: "/p/demo/no-such-page" },
    ];
  }
} finally {
  await stopProcess(app);
}
