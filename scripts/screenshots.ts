// npm run screenshots: the README's pictures, taken from the real app on demo data.
import { spawn } from "node:child_process";
import { chromium } from "@playwright/test";
import { freePort } from "../server/db/embedded";

const port = await freePort();
const base = `http://localhost:${port}`;
const app = spawn(process.execPath, ["--import", "tsx", "scripts/e2e-server.ts"], {
  stdio: ["ignore", "ignore", "inherit"],
  env: { ...process.env, E2E_PORT: String(port), TOOLGATE_ALERT_EVALUATOR: "off" },
});
const stop = () => new Promise((resolve) => (app.once("exit", resolve), app.kill("SIGTERM")));

/** tRPC over plain HTTP: mutations POST their input, queries GET it as ?input=. */
async function trpc<T>(kind: "query" | "mutation", path: string, input: unknown, cookie = ""): Promise<{ data: T; cookie: string }> {
  const url = `${base}/api/trpc/${path}${kind === "query" ? `?input=${encodeURIComponent(JSON.stringify(input))}` : ""}`;
  const response = await fetch(url, {
    method: kind === "query" ? "GET" : "POST",
    headers: { "content-type": "application/json", cookie },
    ...(kind === "mutation" ? { body: JSON.stringify(input) } : {}),
  });
  const body = (await response.json()) as { result?: { data: T }; error?: { message: string } };
  if (!body.result) throw new Error(`${path}: ${body.error?.message}`);
  return { data: body.result.data, cookie: response.headers.get("set-cookie")?.split(";")[0] ?? cookie };
}

try {
  for (let i = 0; ; i++) {
    if (
      await fetch(`${base}/api/health`).then(
        (r) => r.ok,
        () => false,
      )
    )
      break;
    if (i > 600) throw new Error("the app did not start within 5 minutes");
    await new Promise((r) => setTimeout(r, 500));
  }
  const { cookie } = await trpc("mutation", "auth.setup", {
    email: "demo@toolgate.test",
    password: "screenshots only, not a secret",
    name: "Demo",
    projectName: "Demo — loan assistant",
    projectSlug: "demo",
  });
  await trpc("mutation", "demo.load", { project: "demo" }, cookie);
  type Row = { id: string; correctionId: string | null; message: string | null };
  const { data } = await trpc<{ calls: Row[] }>("query", "calls.list", { project: "demo", filter: { valid: "invalid", tool: "getloan" }, limit: 50 }, cookie);
  const call = data.calls.find((c) => c.correctionId && c.message && c.message !== "Error 422") ?? data.calls[0];

  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH || "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
  const context = await browser.newContext({ viewport: { width: 1440, height: 960 }, deviceScaleFactor: 1 });
  const [name, value] = cookie.split("=") as [string, string];
  await context.addCookies([{ name, value, url: base }]);
  const page = await context.newPage();
  // `from`: start the picture at this heading (a long page), `height` pixels tall
  const shots: { file: string; path: string; from?: string; height?: number }[] = [
    { file: "overview", path: "/p/demo?range=30d" },
    { file: "call-detail", path: `/p/demo/calls/${encodeURIComponent(call!.id)}` },
    { file: "schema-doctor", path: "/p/demo/tools/getloan?range=30d", from: "Failure patterns", height: 1900 },
    { file: "connect", path: "/p/demo/settings/connect" },
  ];
  for (const { file, path, from, height } of shots) {
    await page.goto(`${base}${path}`);
    await page.waitForLoadState("networkidle");
    await page.waitForTimeout(500);
    const box = from ? await page.getByRole("heading", { name: from, exact: true }).first().boundingBox() : null;
    const clip = box ? { x: 0, y: Math.max(0, box.y - 40), width: 1440, height: height ?? 960 } : undefined;
    await page.screenshot({ path: `docs/screenshots/${file}.png`, fullPage: true, clip });
    console.log(`docs/screenshots/${file}.png ← ${path}`);
  }
  await browser.close();
} finally {
  await stop();
}
