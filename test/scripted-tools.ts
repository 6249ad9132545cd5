import type Anthropic from "@anthropic-ai/sdk";

/**
 * The two tools of the scripted conversations (test/scripted-model.ts), and as agents give them
 * to each SDK, which is also what a user pastes on the Tools page. Without test-runner imports, so
 * that an agent run as a process of its own (test/agents) gives the same tools.
 */
export const TOOLS = [
  {
    name: "getloan",
    description: "Look up one loan by its loan number.",
    parameters: {
      type: "object",
      properties: { loannumber: { type: "string", pattern: "^[0-9]{4,8}$" }, includehistory: { type: "boolean" } },
      required: ["loannumber"],
      additionalProperties: false,
    },
  },
  {
    name: "listopenloans",
    description: "List the loans in one status.",
    parameters: {
      type: "object",
      properties: { status: { type: "string", enum: ["open", "closed", "overdue"] } },
      required: ["status"],
      additionalProperties: false,
    },
  },
];
/** The tools as the agent gives them to each SDK (and as a user pastes them on the Tools page). */
export const OPENAI_TOOLS = TOOLS.map((t) => ({ type: "function" as const, function: t }));
export const ANTHROPIC_TOOLS = TOOLS.map((t) => ({ name: t.name, description: t.description, input_schema: t.parameters as Anthropic.Tool.InputSchema }));
