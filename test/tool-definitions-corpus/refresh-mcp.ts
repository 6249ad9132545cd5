// Writes mcp/<server>.json: the tools/list result of each reference MCP server installed from npm,
// asked over stdio by the official MCP SDK client. Run: npx tsx test/tool-definitions-corpus/refresh-mcp.ts
import { writeFileSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const root = path.resolve(import.meta.dirname, "../..");
const servers: { name: string; args: string[] }[] = [
  { name: "server-everything", args: ["stdio"] },
  { name: "server-filesystem", args: [mkdtempSync(path.join(tmpdir(), "corpus-fs-"))] },
  { name: "server-memory", args: [] },
];

for (const server of servers) {
  const dir = path.join(root, "node_modules", "@modelcontextprotocol", server.name);
  const { version } = JSON.parse(readFileSync(path.join(dir, "package.json"), "utf8")) as { version: string };
  const client = new Client({ name: "toolgate-corpus", version: "1" });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [path.join(dir, "dist", "index.js"), ...server.args],
      stderr: "ignore",
      env: { ...process.env, MEMORY_FILE_PATH: path.join(tmpdir(), "corpus-memory.json") } as Record<string, string>,
    }),
  );
  const tools = [];
  let cursor: string | undefined;
  do {
    const page = await client.listTools(cursor ? { cursor } : {});
    tools.push(...page.tools);
    cursor = page.nextCursor;
  } while (cursor);
  await client.close();
  const file = path.join(import.meta.dirname, "mcp", `${server.name}.json`);
  writeFileSync(file, `${JSON.stringify({ source: `@modelcontextprotocol/${server.name}@${version}`, tools }, null, 2)}\n`);
  console.log(`${file}: ${tools.length} tools`);
}
