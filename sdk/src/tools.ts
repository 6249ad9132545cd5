import { registryFrom, type ToolRegistry } from "../../isomorphic/classify";
import { canonicalJson, checkJsonSchema, isPlainObject, type JsonObject } from "../../isomorphic/tool-schema";

/** What a handler gets besides the arguments. */
export interface HandlerContext {
  /** The provider's id of this call (tool_call_id, call_id, tool_use id, toolCallId). */
  callId: string;
  runId: string;
  /** Aborted when the call runs past its timeout. */
  signal: AbortSignal;
}

/** A schema that can describe itself as JSON Schema: zod 4 schemas do (`schema.toJSONSchema()`). */
export interface SelfDescribingSchema {
  toJSONSchema(params?: { io?: "input" | "output" }): object;
}

type Infer<S> = S extends { "~standard": { types?: { input: infer I } } } ? (unknown extends I ? Record<string, unknown> : I) : Record<string, unknown>;

export interface ToolSpec<S = JsonObject, R = unknown> {
  name: string;
  description?: string;
  /** The arguments' JSON Schema (draft 2020-12, 2019-09, 07, 06 or 04), or a zod 4 object schema. */
  parameters: S;
  handler: (args: Infer<S>, context: HandlerContext) => R | Promise<R>;
  /** Overrides the dispatcher's timeout for this tool. */
  timeoutMs?: number;
}

/** A tool as the dispatcher takes it: from `defineTool`, or the same fields written inline (arguments then untyped). */
export interface AnyToolSpec {
  name: string;
  description?: string;
  parameters: JsonObject | SelfDescribingSchema;
  handler: (args: never, context: HandlerContext) => unknown;
  timeoutMs?: number;
}

export interface DefinedTool {
  name: string;
  description?: string;
  parameters: JsonObject;
  handler: (args: never, context: HandlerContext) => unknown;
  timeoutMs?: number;
}

/** Declares one tool; with a zod schema, the handler's arguments are typed by it. */
export function defineTool<S extends JsonObject | SelfDescribingSchema, R>(spec: ToolSpec<S, R>): DefinedTool {
  const parameters = jsonSchemaOf(spec.parameters, spec.name);
  const check = checkJsonSchema(parameters);
  if (!check.ok) throw new TypeError(`Tool '${spec.name}': ${check.message}`);
  return {
    name: spec.name,
    ...(spec.description === undefined ? {} : { description: spec.description }),
    parameters,
    handler: spec.handler as DefinedTool["handler"],
    ...(spec.timeoutMs === undefined ? {} : { timeoutMs: spec.timeoutMs }),
  };
}

function jsonSchemaOf(schema: unknown, name: string): JsonObject {
  if (isPlainObject(schema) && typeof schema.toJSONSchema === "function") {
    // zod 4: the arguments as the model must write them (input side: defaults make a field optional).
    const converted = (schema as unknown as SelfDescribingSchema).toJSONSchema({ io: "input" });
    if (isPlainObject(converted)) return converted;
  }
  if (isPlainObject(schema)) return schema;
  throw new TypeError(`Tool '${name}': parameters must be a JSON Schema object or a zod 4 schema, got ${typeof schema}.`);
}

/** The tools of a dispatcher, by name, as the shared classifier reads them. */
export class ToolSet {
  readonly byName: Map<string, DefinedTool>;
  readonly registry: ToolRegistry;
  /** name → canonical JSON of its schema (also the classifier's cache key for it). */
  readonly canonical: Map<string, string>;

  constructor(tools: DefinedTool[]) {
    this.byName = new Map();
    for (const tool of tools) {
      if (this.byName.has(tool.name)) throw new TypeError(`Tool '${tool.name}' is defined twice: give each tool its own name.`);
      this.byName.set(tool.name, tool);
    }
    this.canonical = new Map(tools.map((tool) => [tool.name, canonicalJson(tool.parameters)]));
    this.registry = registryFrom(tools.map((tool) => ({ name: tool.name, version: `sdk:${this.canonical.get(tool.name)}`, parameters: tool.parameters })));
  }

  /** The tools as `tools.register` takes them. */
  definitions(): { name: string; description?: string; parameters: JsonObject }[] {
    return [...this.byName.values()].map(({ name, description, parameters }) => ({ name, ...(description === undefined ? {} : { description }), parameters }));
  }
}
