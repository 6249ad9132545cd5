// npm run example: the loan assistant's scripted conversations, reported to the Toolgate at
// TOOLGATE_URL (default http://localhost:3000) with TOOLGATE_API_KEY (a key with the ingest scope).
import { runLoanAssistant } from "./assistant";

const url = process.env.TOOLGATE_URL ?? "http://localhost:3000";
const apiKey = process.env.TOOLGATE_API_KEY;
if (!apiKey) {
  console.error("Set TOOLGATE_API_KEY to a project API key (npm run toolgate -- keys create --project default --name loan-assistant).");
  process.exit(2);
}
const { outcomes, stats, errors } = await runLoanAssistant({ url, apiKey, log: (line) => console.log(line) });
const refused = outcomes.filter((o) => o.status === "invalid").length;
console.log(`\n${outcomes.length} tool calls, ${refused} refused and answered with a message; sent to ${url}: ${JSON.stringify(stats)}`);
for (const error of errors) console.error(`reporter: ${error.message}`);
process.exitCode = stats && stats.sent === outcomes.length ? 0 : 1;
