import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { CONTRACT_FILES } from "./lib/contract-files";

describe("the published contracts (contracts/generated/)", () => {
  it.each(CONTRACT_FILES.map((c) => [path.basename(c.file), c] as const))("%s is current (else run `npm run contracts`)", (_name, { file, text }) => {
    expect(readFileSync(file, "utf8"), `${file} is stale: run \`npm run contracts\` and commit it`).toBe(text());
  });
});
