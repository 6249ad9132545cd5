import { z } from "zod";
import { rangeInput } from "./metrics";
import { filterText, nameText } from "./text-limits";
import { formatCount } from "./format-number";
import { REGISTER_TOOLS_MAX } from "./request-limits";

/** Tools in our shape {name, description?, parameters}, or OpenAI's, Anthropic's or MCP's; normalized on the server. */
export const registerToolsInput = z.object({
  tools: z
    .array(z.unknown().meta({ type: "object", description: "A tool definition: ours, OpenAI's, Anthropic's or MCP's (docs/api.md)." }))
    .min(1, "send at least one tool")
    .max(REGISTER_TOOLS_MAX, `register at most ${REGISTER_TOOLS_MAX} tools at once`),
});

export const validateCallInput = z.object({
  tool: nameText("tool"),
  arguments: z.unknown(),
  toolVersion: filterText("toolVersion").optional(),
});

/** tools.doctor (read keys): a tool's failure patterns and schema suggestions over a range (default: the last 7 days). */
export const doctorInput = z.object({ tool: nameText("tool"), range: rangeInput.optional() });

/** tools.confusable (read keys): the pairs of tools models mix up over a range (default: the last 30 days), all or those with `tool`. */
export const confusableInput = z.object({ tool: nameText("tool").optional(), range: rangeInput.optional() });

/** tools.contextCost (read keys): the registered definitions' context cost over a range (default: the last 7 days). */
export const contextCostInput = z.object({ range: rangeInput.optional() });

/** The schema to try: pasted (`parameters`) or a registered version of the tool. */
const proposal = {
  tool: nameText("tool"),
  parameters: z.record(z.string(), z.unknown()).optional(),
  version: filterText("toolVersion").min(1).optional(),
};
const oneProposal = (p: { parameters?: unknown; version?: string }) => (p.parameters === undefined) !== (p.version === undefined);
const ONE_PROPOSAL = "send either `parameters` (the proposed JSON Schema) or `version` (a registered version), not both";

/** tools.dryRun (API keys, e.g. CI): replay the newest calls of a range (default: the last 30 days) against a proposed schema. */
export const dryRunInput = z
  .object({
    ...proposal,
    range: rangeInput.optional(),
    limit: z.number().int().min(1).max(100_000, "a dry run replays at most 100,000 calls").optional(),
  })
  .refine(oneProposal, ONE_PROPOSAL);

const cursor = z.object({ timestamp: z.iso.datetime({ offset: true }), id: z.string().max(256) });

/** One page of a dry run (the tool page replays page by page to show its progress). */
export const dryRunPageInput = z
  .object({ ...proposal, range: rangeInput, cursor: cursor.nullable().optional(), pageSize: z.number().int().min(1).max(5_000).optional() })
  .refine(oneProposal, ONE_PROPOSAL);

/** The longest paste or upload of tool definitions the browser's form takes. */
export const PASTED_TOOLS_MAX_CHARS = 1_000_000;

/** The browser's form: tool definitions pasted or uploaded as JSON text, and the name for a plain JSON Schema. */
export const registerPastedInput = z.object({
  definitions: z.string().max(PASTED_TOOLS_MAX_CHARS, `paste at most ${formatCount(PASTED_TOOLS_MAX_CHARS)} characters of definitions at once`),
  name: filterText("tool").optional(),
});

/** tools.recheck: the tool's calls of a range (default: the last 30 days) stored without a schema verdict, checked against its schema now. */
export const recheckInput = z.object({
  tool: nameText("tool"),
  range: rangeInput.optional(),
  limit: z.number().int().min(1).max(100_000, "a re-check takes at most 100,000 calls at once").optional(),
});

/** tools.unregistered counts a tool's calls without a schema verdict up to this many ("10,000 or more"). */
export const NOT_CHECKED_COUNTED = 10_000;
