import { expect, it } from "vitest";
import { makeProject } from "../../test/fixtures";
import { serveAgentMcp } from "./agent-mcp";

// One request to Toolgate's MCP server (/api/mcp) is one request for the API key's rate limit,
// however many read procedures its tool calls: the key is checked and counted once, before the
// MCP server reads the request (server/http/agent-mcp.ts). Before, the key check and each
// procedure counted again, so a key allowed N requests a minute got N/2 tool calls or fewer.
process.env.TOOLGATE_API_RATE_PER_MINUTE = "2";
process.env.TOOLGATE_PROJECT_RATE_PER_MINUTE = "100";

const toolsCall = (id: number) => ({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "failing_tools", arguments: { days: 7 } } });

function post(key: string, body: unknown) {
  return serveAgentMcp(
    new Request("http://127.0.0.1/api/mcp", {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify(body),
    }),
  );
}

it("each MCP request takes one token of the key's rate limit, whatever its tool calls read", async () => {
  const p = await makeProject();
  const { key } = await p.key("agent", "read");
  for (const id of [1, 2]) {
    const answer = await post(key, toolsCall(id));
    expect(answer.status).toBe(200);
    const { result } = (await answer.json()) as { result: { isError?: boolean; content: { text: string }[] } };
    expect(result.isError ?? false, result.content[0]?.text).toBe(false);
    expect(result.content[0]?.text).toMatch(/^Project proj-[^,]+, last 7 days: /);
  }
  // the third request of the minute is refused before the MCP server reads it, with the wait
  const refused = await post(key, toolsCall(3));
  expect(refused.status).toBe(429);
  expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
  expect(JSON.stringify(await refused.json())).toMatch(/Rate limit of 2 requests a minute for this API key exceeded/);
});
