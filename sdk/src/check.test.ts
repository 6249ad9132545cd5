import { describe, expect, it } from "vitest";
import { parseDuration, parseRate, runCheck } from "./check";

describe("toolgate check: arguments", () => {
  it("reads rates as percentages or fractions and durations in s, m, h, d", () => {
    expect(parseRate("5%")).toBeCloseTo(0.05);
    expect(parseRate("0.05")).toBe(0.05);
    expect(() => parseRate("five")).toThrow('--max-invalid-rate must be a rate such as 5% or 0.05, got "five".');
    expect(parseDuration("2h")).toBe(7_200_000);
    expect(parseDuration("90m")).toBe(5_400_000);
    expect(() => parseDuration("2 hours")).toThrow(/--since must be a duration such as 90m, 2h or 7d/);
  });

  it("exits 2 with the usage on a wrong command or option, and without a server or key", async () => {
    const run = async (args: string[], env: Record<string, string> = {}) => {
      const lines: string[] = [];
      return { code: await runCheck(args, env, (l) => lines.push(l)), out: lines.join("\n") };
    };
    expect(await run(["chek"])).toMatchObject({
      code: 2,
      out: expect.stringContaining('Unknown command "chek". Commands: check (below), lint (toolgate lint --help), mcp'),
    });
    expect(await run(["check", "--max-invalid-rate", "5%", "--colour"])).toMatchObject({
      code: 2,
      out: expect.stringContaining('Unknown argument "--colour".'),
    });
    expect(await run(["check"])).toMatchObject({ code: 2, out: expect.stringContaining("Missing --max-invalid-rate.") });
    expect(await run(["check", "--max-invalid-rate", "5%"])).toMatchObject({ code: 2, out: expect.stringMatching(/^Set TOOLGATE_URL and TOOLGATE_API_KEY/) });
  });

  it("exits 2 without asking the server when the API key cannot be sent in a header (the docs' placeholder tg_…)", async () => {
    const lines: string[] = [];
    let asked = 0;
    const fetchImpl = (async () => (asked++, Response.json({ error: { message: "no" } }, { status: 401 }))) as unknown as typeof fetch;
    const code = await runCheck(
      ["check", "--max-invalid-rate", "5%"],
      { TOOLGATE_URL: "http://127.0.0.1:9", TOOLGATE_API_KEY: "tg_…" },
      (l) => lines.push(l),
      fetchImpl,
    );
    expect({ code, asked }).toEqual({ code: 2, asked: 0 });
    expect(lines.join("\n")).toContain(
      'The Toolgate API key has "…" (U+2026) at character 4, which cannot be sent in an HTTP header. Paste the real key from Settings → API keys',
    );
  });
});
