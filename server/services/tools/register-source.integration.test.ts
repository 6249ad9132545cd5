import { describe, expect, it } from "vitest";
import { prisma } from "../../db/client";
import { makeProject, withKey } from "../../../test/fixtures";

const schema = { type: "object", properties: { path: { type: "string" } }, required: ["path"] };

describe("tools.register: a schema's source", () => {
  it("stores mcp:<server> when the MCP gateway names it, api otherwise", async () => {
    const p = await makeProject();
    const api = withKey((await p.key()).key);
    await api.tools.register({
      tools: [
        { name: "fs/read", parameters: schema, source: "mcp:secure-filesystem-server" },
        { name: "plain", parameters: schema },
      ],
    });
    const rows = await prisma().toolDefinition.findMany({ where: { projectId: p.project.id }, orderBy: { name: "asc" }, select: { name: true, source: true } });
    expect(rows).toEqual([
      { name: "fs/read", source: "mcp:secure-filesystem-server" },
      { name: "plain", source: "api" },
    ]);
  });

  it("refuses any other source with a message, and registers none of the request", async () => {
    const p = await makeProject();
    const api = withKey((await p.key()).key);
    await expect(
      api.tools.register({
        tools: [
          { name: "ok", parameters: schema },
          { name: "x", parameters: schema, source: "otlp" },
        ],
      }),
    ).rejects.toThrow(`tools[1] (x): Error: 'source' must be "mcp:" followed by the MCP server's name (1 to 200 characters), you sent the string "otlp".`);
    expect(await prisma().toolDefinition.count({ where: { projectId: p.project.id } })).toBe(0);
  });
});
