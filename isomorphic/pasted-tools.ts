import { preview } from "../contracts/json-walk";
import { REGISTER_TOOLS_MAX } from "../contracts/request-limits";
import { describeValue, isPlainObject, SCHEMA_KEYS, type JsonObject } from "./tool-schema";

export type PastedTools = { ok: true; tools: unknown[] } | { ok: false; message: string };

const EXAMPLE = 'for example [{"name": "getloan", "input_schema": {"type": "object", "properties": {"loannumber": {"type": "string"}}}}]';

/** Keys only a tool definition has (besides its schema), in any of the accepted shapes. */
const looksLikeTool = (value: JsonObject) => "name" in value || "function" in value || value.type === "function" || SCHEMA_KEYS.some((k) => k in value);

/** A bare JSON Schema of a tool's arguments: what `parameters` would hold. */
const looksLikeSchema = (value: JsonObject) => "properties" in value || "$schema" in value || value.type === "object";

/**
 * Tool definitions as an admin pastes or uploads them, made into the list tools.register takes
 * (which then reads each in OpenAI, Anthropic, MCP or our shape: normalizeToolInput).
 * Accepted: one definition, an array of them, an object with a `tools` array (an MCP `tools/list`
 * result, an OpenAI or Anthropic request body), a JSON-RPC answer holding such a result, or a
 * plain JSON Schema of the arguments when `name` names the tool.
 */
export function readPastedTools(text: string, name = ""): PastedTools {
  const fail = (message: string): PastedTools => ({ ok: false, message });
  const trimmedName = name.trim();
  if (text.trim() === "") return fail(`Error: nothing was pasted. Paste the tool definitions as JSON, ${EXAMPLE}, or upload the file that holds them.`);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return fail(
      `Error: the definitions are not valid JSON (${(error as Error).message}); you sent ${preview(text)}. Paste JSON as your code sends it to the model, ${EXAMPLE}.`,
    );
  }
  if (isPlainObject(value) && isPlainObject(value.result) && "jsonrpc" in value) value = value.result; // a JSON-RPC answer to tools/list
  let tools: unknown[];
  if (Array.isArray(value)) tools = value;
  else if (isPlainObject(value) && Array.isArray(value.tools)) tools = value.tools;
  else if (isPlainObject(value) && looksLikeTool(value)) tools = [value];
  else if (isPlainObject(value) && looksLikeSchema(value)) {
    if (!trimmedName) {
      return fail(
        `Error: this is a JSON Schema without a tool name (you sent ${describeValue(value)}). Type the tool's name in the Name field, or paste the whole definition {"name": …, "parameters": …}.`,
      );
    }
    tools = [{ name: trimmedName, parameters: value }];
  } else {
    return fail(`Error: found no tool definitions in ${describeValue(value)}. Paste one definition, an array of them or a tools/list result, ${EXAMPLE}.`);
  }
  if (tools.length === 0) return fail(`Error: the list of tools is empty. Paste at least one definition, ${EXAMPLE}.`);
  if (tools.length > REGISTER_TOOLS_MAX) {
    return fail(`Error: ${tools.length} definitions at once; at most ${REGISTER_TOOLS_MAX} can be registered at a time. Paste them in parts.`);
  }
  return { ok: true, tools };
}
