// The SDK's own check of a call (the dispatcher's, before the handler runs) on a 1 MiB value with
// a format: the shared classifier checks formats in time linear in the value (isomorphic/formats.ts).
// Before, ajv-formats' url held the harness's event loop for the better part of an hour on this value.
import { describe, expect, it } from "vitest";
import { defineTool, Toolgate } from "@toolgate/sdk";

describe("the SDK's dispatcher on a 1 MiB argument with a format", () => {
  it("refuses the call in about a second at most, without running the handler", async () => {
    let ran = false;
    const fetchPage = defineTool({
      name: "fetchpage",
      parameters: { type: "object", properties: { u: { type: "string", format: "url" } }, required: ["u"] },
      handler: () => {
        ran = true;
        return "ok";
      },
    });
    const toolgate = new Toolgate({ model: { name: "m" }, tools: [fetchPage] });
    const run = toolgate.run();
    await run.dispatch({ toolCallId: "warm", toolName: "fetchpage", input: { u: "https://example.com" } }); // compiled once, outside the measure
    ran = false;
    const started = performance.now();
    const [outcome] = await run.dispatch({ toolCallId: "c1", toolName: "fetchpage", input: { u: "http://" + ":".repeat(1024 * 1024) } });
    expect(performance.now() - started).toBeLessThan(2000);
    expect(outcome?.verdict).toMatchObject({ valid: false, category: "out_of_range", path: "u" });
    expect(ran).toBe(false);
    await toolgate.shutdown();
  });
});
