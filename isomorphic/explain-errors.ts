import type { ErrorObject } from "ajv";
import { partErrors, type CompiledTool } from "./compiled-tools";
import { isPlainObject } from "./tool-schema";

// From Ajv's errors to the problems worth telling the model

/**
 * Ajv reports a wrapper's child errors just before the wrapper. An `if` wrapper is dropped (its
 * then/else children say why), so are the children of `propertyNames` (the wrapper names the
 * property); for anyOf/oneOf only the branch closest to what was sent is kept (the others are
 * alternatives, not things to fix), and for `contains` only the wrapper. A child's schemaPath does
 * not say which wrapper it belongs to when it came through a $ref, so the children are counted by
 * validating each branch on its own, which reproduces exactly the errors Ajv reported for it.
 */
export function explain(tool: CompiledTool, errors: ErrorObject[]): ErrorObject[] {
  const kept: ErrorObject[] = [];
  for (let i = errors.length - 1; i >= 0; i--) {
    const error = errors[i]!;
    if (error.keyword === "if" || error.propertyName !== undefined) continue;
    let replaced =
      error.keyword === "anyOf" || error.keyword === "oneOf"
        ? explainUnion(tool, error)
        : error.keyword === "contains"
          ? explainContains(tool, error)
          : undefined;
    // Should the recount ever disagree with Ajv (dynamic refs…), keep everything rather than drop unrelated errors.
    const children = replaced ? errors.slice(Math.max(0, i - replaced.children), i) : [];
    if (replaced && (children.length !== replaced.children || !children.every((e) => isWithin(e.instancePath, error.instancePath)))) {
      replaced = undefined;
    }
    if (replaced) i -= replaced.children;
    kept.unshift(...(replaced?.errors ?? [error]));
  }
  return kept;
}

function isWithin(pointer: string, base: string): boolean {
  return pointer === base || pointer.startsWith(`${base}/`);
}

type Replacement = { children: number; errors: ErrorObject[] } | undefined;

function explainUnion(tool: CompiledTool, error: ErrorObject): Replacement {
  const branches: ErrorObject[][] = [];
  let matched = 0;
  for (const branch of error.schema as unknown[]) {
    const errors = partErrors(tool, branch, error.data);
    if (!errors) return undefined;
    branches.push(errors);
    if (error.keyword === "oneOf" && errors.length === 0 && ++matched > 1) break; // where Ajv stops
  }
  const children = branches.reduce((sum, errors) => sum + errors.length, 0);
  // oneOf matching several branches: the wrapper itself is the problem.
  if (branches.some((errors) => errors.length === 0)) return { children, errors: [error] };

  const rootType = (e: ErrorObject) => e.keyword === "type" && e.instancePath === "";
  if (branches.every((errors) => errors.length === 1 && rootType(errors[0]!))) {
    const types = [...new Set(branches.flatMap((errors) => [errors[0]!.schema].flat()))];
    return { children, errors: [{ ...branches[0]![0]!, instancePath: error.instancePath, schema: types, params: { type: types } }] };
  }
  // Closest branch: one whose type matched, then the fewest errors, then the first.
  const score = (errors: ErrorObject[]) => (errors.some(rootType) ? 1e9 : 0) + errors.length;
  const best = branches.reduce((a, b) => (score(b) < score(a) ? b : a));
  return { children, errors: explain(tool, best).map((e) => ({ ...e, instancePath: error.instancePath + e.instancePath })) };
}

function explainContains(tool: CompiledTool, error: ErrorObject): Replacement {
  const max = isPlainObject(error.parentSchema) ? error.parentSchema.maxContains : undefined;
  let children = 0;
  let matched = 0;
  for (const item of Array.isArray(error.data) ? error.data : []) {
    const errors = partErrors(tool, error.schema, item);
    if (!errors) return undefined;
    children += errors.length;
    if (errors.length === 0 && typeof max === "number" && ++matched > max) break; // where Ajv stops
  }
  return { children, errors: [error] };
}
