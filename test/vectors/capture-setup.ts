import { vi } from "vitest";

// Records every call the classifier's own tests make (tool, arguments, registry), so that the shared
// vectors include every case they pin. Loaded only by capture.config.ts (`npm run vectors`).
vi.mock("@/isomorphic/classify", async (importOriginal) => {
  const { appendFileSync } = await import("node:fs");
  const real = await importOriginal<typeof import("@/isomorphic/classify")>();
  const file = process.env.TOOLGATE_CLASSIFY_CAPTURE;
  if (!file) throw new Error("TOOLGATE_CLASSIFY_CAPTURE must name the file the captured calls are appended to");
  const classifyCall: typeof real.classifyCall = (input) => {
    const tools = input.registry.names.map((name) => ({ name, ...input.registry.get(name)! }));
    let line: string | undefined;
    try {
      line = JSON.stringify({ tool: input.tool, arguments: input.arguments, tools });
    } catch {
      line = undefined; // arguments too deep for JSON.stringify: Python's json cannot read them either
    }
    if (line && input.arguments !== undefined) appendFileSync(file, `${line}\n`);
    return real.classifyCall(input);
  };
  return { ...real, classifyCall };
});
