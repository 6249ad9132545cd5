import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { beforeAll, describe, expect, it } from "vitest";
import { ArgumentsDiff } from "@/components/calls/arguments-diff";
import { rawCallHref } from "@/components/calls/format";
import { ArgumentsView } from "@/components/calls/json-view";
import { pool } from "@/server/db/client";
import { SESSION_COOKIE } from "@/server/services/auth/sessions";
import { makeProject } from "@/test/fixtures";
import { GET } from "./route";

const nested = (depth: number) => `${'{"a":'.repeat(depth)}1${"}".repeat(depth)}`;

/** Depth of a parsed value, walked without recursion. */
function depthOf(value: unknown) {
  let depth = 0;
  for (let v = value; typeof v === "object" && v !== null; v = (v as { a: unknown }).a) depth++;
  return depth;
}

describe("a call with huge or deep arguments", () => {
  let p: Awaited<ReturnType<typeof makeProject>>;
  let owner: Awaited<ReturnType<typeof p.asOwner>>;
  const store = (id: string, argumentsJson: string) =>
    pool().query(
      "INSERT INTO tool_calls (project_id, id, run_id, timestamp, model_name, tool, arguments) VALUES ($1, $2, 'r-big', now(), 'm', 'getloan', $3::jsonb)",
      [p.project.id, id, argumentsJson],
    );
  const page = async (id: string) => {
    const call = await owner.calls.byId({ project: p.project.slug, id });
    return renderToString(createElement(ArgumentsView, { args: call.arguments, rawHref: rawCallHref(p.project.slug, call.id) }));
  };
  const download = (id: string, cookie: string) =>
    GET(new Request(`http://localhost${rawCallHref(p.project.slug, id)}`, { headers: { cookie } }), {
      params: Promise.resolve({ slug: p.project.slug, id: encodeURIComponent(id) }),
    });

  beforeAll(async () => {
    p = await makeProject();
    owner = await p.asOwner();
    await store("deep 2500", nested(2500));
    await store("deep-1000", nested(1000));
    await store("wide", JSON.stringify({ items: Array.from({ length: 5000 }, (_, i) => i) }));
    await store("long", JSON.stringify({ text: "x".repeat(1_000_000) }));
  });

  it("renders cut with markers and a link to the raw JSON, small whatever the size", async () => {
    const deep = await page("deep 2500");
    expect(deep).toContain("nested deeper");
    expect(deep).toContain(`href="${rawCallHref(p.project.slug, "deep 2500")}"`.replace(/&/g, "&amp;"));
    expect(deep.length).toBeLessThan(50_000);
    expect((await page("deep-1000")).length).toBeLessThan(50_000);
    const wide = await page("wide");
    expect(wide).toContain("4,800 more entries");
    expect(wide.length).toBeLessThan(100_000);
    const long = await page("long");
    expect(long).toContain("998,000 more characters");
    expect(long.length).toBeLessThan(20_000);
  });

  it("the retry diff of two deep calls says to compare the raw JSON instead of overflowing", () => {
    const deep = JSON.parse(nested(2500));
    const html = renderToString(createElement(ArgumentsDiff, { before: deep, after: deep }));
    expect(html).toContain("too large or too deeply nested to compare here");
  });

  it("the raw download is the whole call, for members only", async () => {
    const ownerCookie = `${SESSION_COOKIE}=${owner.token}`;
    const response = await download("deep 2500", ownerCookie);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-disposition")).toMatch(/attachment; filename="toolgate-.*-call-deep_2500\.json"/);
    const call = JSON.parse(await response.text());
    expect(call).toMatchObject({ id: "deep 2500", run_id: "r-big", tool: "getloan" });
    expect(depthOf(call.arguments)).toBe(2500);
    expect(JSON.parse(await (await download("long", ownerCookie)).text()).arguments.text).toHaveLength(1_000_000);

    expect((await download("no-such-call", ownerCookie)).status).toBe(404);
    const stranger = await makeProject();
    const strangerCookie = `${SESSION_COOKIE}=${(await stranger.asOwner()).token}`;
    const refused = await download("deep 2500", strangerCookie);
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ error: expect.stringMatching(/not a member/) });
    expect((await download("deep 2500", "")).status).toBe(401);
  });
});
