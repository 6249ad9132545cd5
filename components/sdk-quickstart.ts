/**
 * The SDK quick starts, TypeScript (`@toolgate/sdk`, sdk/README.md) and Python (the distribution
 * `toolgate-monitor`, imported as `toolgate`: sdk-python/README.md), for this project's address and a
 * key placeholder. `full`: define a tool, gate a turn's tool calls, send what is left at the end
 * (Settings → Connect); otherwise the three lines of the overview's empty state.
 */
export function sdkQuickStarts(origin: string, key: string, full: boolean) {
  if (!full) {
    return {
      typescript: [
        `// npm install @toolgate/sdk`,
        `import { Toolgate } from "@toolgate/sdk";`,
        ``,
        `const toolgate = new Toolgate({ url: "${origin}", apiKey: "${key}", model: { name: "gpt-4o" }, tools });`,
        `messages.push(...(await toolgate.run().handle(message.tool_calls)));`,
      ].join("\n"),
      python: [
        `# pip install toolgate-monitor`,
        `from toolgate import Toolgate`,
        ``,
        `toolgate = Toolgate(url="${origin}", api_key="${key}", model={"name": "gpt-4o"}, tools=tools)`,
        `messages += toolgate.run().handle_sync(message.tool_calls)`,
      ].join("\n"),
    };
  }
  const typescript = `// npm install @toolgate/sdk
import { Toolgate, defineTool } from "@toolgate/sdk";

const getLoan = defineTool({
  name: "getloan",
  description: "A loan's holder, balance and rate.",
  parameters: { type: "object", properties: { loannumber: { type: "string" } }, required: ["loannumber"] },
  handler: async ({ loannumber }) => loans.get(loannumber as string),
});

const toolgate = new Toolgate({
  url: "${origin}",
  apiKey: "${key}", // an ingest-scope key of this project
  model: { name: "gpt-4o" },
  tools: [getLoan],
});
const run = toolgate.run(); // one conversation or task
messages.push(...(await run.handle(response.choices[0].message.tool_calls))); // validate, run, answer
await toolgate.shutdown(); // at the end of the job: send what is left`;
  const python = `# pip install toolgate-monitor
from toolgate import Toolgate, tool

@tool
def getloan(loannumber: str) -> dict:
    """A loan's holder, balance and rate."""
    return loans[loannumber]

toolgate = Toolgate(
    url="${origin}",
    api_key="${key}",  # an ingest-scope key of this project
    model={"name": "gpt-4o"},
    tools=[getloan],
)
run = toolgate.run()  # one conversation or task
messages += run.handle_sync(response.choices[0].message)  # validate, run, answer (await run.handle(...) in asyncio)
toolgate.shutdown()  # at the end of the job: send what is left`;
  return { typescript, python };
}
