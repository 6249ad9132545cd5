import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { beforeAll, describe, expect, it } from "vitest";
import { prisma } from "../server/db/client";
import { makeProject } from "../test/fixtures";
import { httpAppForTests } from "../test/http-app";
import { sdkQuickStarts } from "./sdk-quickstart";

// The Python quick starts that Settings → Connect and the empty overview show, run as they are
// (the user's `loans`, `messages` and model turn around them) by the installed toolgate-monitor wheel
// against the real app: they must construct, gate a valid and an invalid OpenAI tool call, and report both.

const run = promisify(execFile);
const venv = path.resolve(import.meta.dirname, "../sdk-python", process.env.TOOLGATE_PY_VENV ?? ".venv-test");
const server = httpAppForTests();

/** Runs each snippet once per argument string, with an OpenAI Chat Completions turn built by the real openai package. */
const RUNNER = `
import json, sys
from openai.types.chat import ChatCompletion
from toolgate import tool
snippets = json.loads(sys.stdin.read())
answers = {}
for name, code in snippets.items():
    for n, arguments in enumerate(['{"loannumber": "4471"}', '{"loannumber": 4471}']):
        turn = ChatCompletion.model_validate({"id": "c", "object": "chat.completion", "created": 0, "model": "gpt-4o", "choices": [
            {"index": 0, "finish_reason": "tool_calls", "message": {"role": "assistant", "content": None, "tool_calls": [
                {"id": f"call_{name}_{n}", "type": "function", "function": {"name": "getloan", "arguments": arguments}}]}}]})
        loans = {"4471": {"holder": "A. Jansen"}}
        @tool
        def getloan(loannumber: str) -> dict:
            """A loan's holder, balance and rate."""
            return loans[loannumber]
        scope = {"loans": loans, "messages": [], "response": turn, "message": turn.choices[0].message, "tools": [getloan]}
        exec(compile(code, name, "exec"), scope)
        stats = scope["toolgate"].shutdown(10_000)
        answers[f"{name} {n}"] = {"messages": scope["messages"], "dropped": stats.dropped if stats else None}
print(json.dumps(answers))
`;

describe("the Python SDK quick starts shown in the product", () => {
  beforeAll(async () => {
    if (!existsSync(path.join(venv, "bin", "python"))) {
      await run(path.resolve(import.meta.dirname, "../scripts/test-python.sh"), ["--install"], { timeout: 600_000 });
    }
  }, 660_000);

  it("construct, answer a valid and an invalid call in the OpenAI shape, and send both to Toolgate", async () => {
    const p = await makeProject();
    const { key } = await p.key();
    const full = sdkQuickStarts(server.app.url, key, true).python;
    const short = sdkQuickStarts(server.app.url, key, false).python;
    expect(full).toContain("# pip install toolgate-monitor\nfrom toolgate import Toolgate");
    const child = run(path.join(venv, "bin", "python"), ["-c", RUNNER], { timeout: 120_000 });
    child.child.stdin!.end(JSON.stringify({ connect: full, empty: short }));
    const answers = JSON.parse((await child).stdout) as Record<
      string,
      { messages: { role: string; tool_call_id: string; content: string }[]; dropped: number }
    >;

    for (const name of ["connect", "empty"]) {
      const valid = answers[`${name} 0`]!;
      const invalid = answers[`${name} 1`]!;
      expect(valid.messages).toEqual([{ role: "tool", tool_call_id: `call_${name}_0`, content: '{"holder":"A. Jansen"}' }]);
      expect(invalid.messages).toEqual([
        { role: "tool", tool_call_id: `call_${name}_1`, content: expect.stringMatching(/'loannumber' must be a string, you sent the number 4471/) as unknown },
      ]);
      expect([valid.dropped, invalid.dropped]).toEqual([0, 0]);
    }
    const rows = await prisma().toolCall.findMany({ where: { projectId: p.project.id }, select: { tool: true, valid: true } });
    expect(rows).toHaveLength(4);
    expect(rows.filter((r) => r.tool === "getloan" && r.valid === true)).toHaveLength(2);
    expect(rows.filter((r) => r.tool === "getloan" && r.valid === false)).toHaveLength(2);
  }, 180_000);
});
