import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { buildVectors, PINNED_FILE, VECTORS_FILE, vectorsText } from "../test/vectors/classifier-cases";

// `npm run vectors`: writes the shared classifier vectors (test/vectors/classifier.jsonl) from the
// TypeScript classifier. First it runs the classifier's own tests with every call they make recorded
// (test/vectors/capture.config.ts), so that the vectors pin whatever those tests pin now; with
// --no-capture it reuses the calls recorded last time (test/vectors/pinned-calls.jsonl).
if (!process.argv.includes("--no-capture")) {
  const dir = mkdtempSync(path.join(tmpdir(), "toolgate-vectors-"));
  const captured = path.join(dir, "calls.jsonl");
  const run = spawnSync("npx", ["vitest", "run", "-c", "test/vectors/capture.config.ts"], {
    stdio: ["ignore", "ignore", "inherit"],
    env: { ...process.env, TOOLGATE_CLASSIFY_CAPTURE: captured },
  });
  if (run.status !== 0) {
    console.error("The classifier's own tests failed while their calls were being recorded: fix them first (npx vitest run isomorphic/classify.test.ts).");
    process.exit(1);
  }
  const lines = [...new Set(readFileSync(captured, "utf8").split("\n").filter(Boolean))];
  writeFileSync(PINNED_FILE, lines.join("\n") + "\n");
  rmSync(dir, { recursive: true, force: true });
}
const vectors = buildVectors(readFileSync(PINNED_FILE, "utf8"));
writeFileSync(VECTORS_FILE, vectorsText(vectors));
const tally = new Map<string, number>();
for (const v of vectors) {
  const key = "throws" in v.expected ? "ToolSchemaError" : (v.expected.category ?? "valid");
  tally.set(key, (tally.get(key) ?? 0) + 1);
}
console.log(`${VECTORS_FILE}: ${vectors.length} vectors (${[...tally].map(([k, n]) => `${k} ${n}`).join(", ")})`);
