import { writeFileSync } from "node:fs";
import path from "node:path";
import { CONTRACT_FILES } from "./lib/contract-files";

// `npm run contracts`: writes the published contracts (the event contract as JSON Schema) from the
// zod contracts. scripts/contracts.test.ts fails while a checked-in file differs from what this writes.
for (const { file, text } of CONTRACT_FILES) {
  writeFileSync(file, text());
  console.log(`wrote ${path.relative(process.cwd(), file)}`);
}
