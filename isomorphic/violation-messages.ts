import type { ErrorObject } from "ajv";
import type { Category } from "../contracts/categories";
import { joinPath } from "../contracts/json-path";
import { preview } from "../contracts/json-walk";
import { closeMatch } from "./tool-names";
import { describeValue, isPlainObject, TYPE_WORDS, type JsonObject } from "./tool-schema";

// One of Ajv's errors, told as a violation: its category and a message that says what was wrong,
// what was sent and how to fix it

export interface Violation {
  category: Category;
  /** Human path of the offending value: `loannumber`, `filters.status`, `items[2].qty`; "" for the whole call. */
  path: string;
  message: string;
  /** The JSON Schema keyword that failed, or `json` (malformed arguments) / `tool` (unknown tool). */
  keyword: string;
}

const OUT_OF_RANGE = [
  ...["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"],
  ...["minLength", "maxLength", "pattern", "format"],
  ...["minItems", "maxItems", "uniqueItems", "items", "additionalItems", "unevaluatedItems", "contains"],
  ...["minProperties", "maxProperties"],
];
const KEYWORD_CATEGORY: Record<string, Category> = {
  required: "missing_argument",
  dependentRequired: "missing_argument",
  dependencies: "missing_argument",
  additionalProperties: "extra_argument",
  unevaluatedProperties: "extra_argument",
  propertyNames: "extra_argument",
  "false schema": "extra_argument",
  type: "wrong_type",
  enum: "invalid_choice",
  const: "invalid_choice",
  ...Object.fromEntries(OUT_OF_RANGE.map((keyword) => [keyword, "out_of_range" as const])),
};
// Anything else (`not`, a oneOf matched by several branches, …) says the value has the wrong shape: wrong_type.

export function toViolation(error: ErrorObject, tool: string, args: JsonObject): Violation {
  const category = KEYWORD_CATEGORY[error.keyword] ?? "wrong_type";
  const at = humanPath(args, error.instancePath);
  const subject = at ? `'${at}'` : "the arguments";
  const params = error.params as Record<string, unknown>;
  const parent = isPlainObject(error.parentSchema) ? error.parentSchema : {};
  const value: unknown = error.data;
  const violation = (message: string, path = at): Violation => ({ category, path, message, keyword: error.keyword });

  switch (error.keyword) {
    case "required":
    case "dependentRequired":
    case "dependencies": {
      const path = joinPath(at, String(params.missingProperty));
      const when = typeof params.property === "string" ? ` when '${joinPath(at, params.property)}' is sent` : "";
      const properties = isPlainObject(parent.properties) ? parent.properties : {};
      const hint = schemaHint(properties[String(params.missingProperty)]);
      return violation(`Error: '${path}' is required by ${tool}${when} and was not sent. Add '${path}'${hint ? ` (${hint})` : ""}.`, path);
    }
    case "additionalProperties":
    case "unevaluatedProperties":
    case "propertyNames": {
      const name = String(params.additionalProperty ?? params.unevaluatedProperty ?? params.propertyName);
      const path = joinPath(at, name);
      const where = at ? ` in '${at}'` : "";
      if (error.keyword === "propertyNames") {
        return violation(
          `Error: '${path}' is not an allowed argument name${where} (allowed names: ${schemaHint(error.schema) || "see the schema"}). Rename or remove '${path}'.`,
          path,
        );
      }
      const allowed = isPlainObject(parent.properties) ? Object.keys(parent.properties) : [];
      const close = closeMatch(name, allowed);
      const fix = close ? `Rename '${path}' to '${joinPath(at, close)}'.` : `Remove '${path}'.`;
      return violation(`Error: '${path}' is not an argument of ${tool}. Allowed${where}: ${allowed.join(", ") || "none"}. ${fix}`, path);
    }
    case "false schema":
      return violation(
        at ? `Error: '${at}' is not accepted by ${tool}. Remove '${at}'.` : `Error: ${tool} accepts no arguments like these. Check the tool's schema.`,
      );
    case "type": {
      const expected = [error.schema].flat().map(String);
      return violation(`Error: ${subject} must be ${typeNames(expected)}, you sent ${describeValue(value)}. ${typeFix(expected, value)}`);
    }
    case "enum": {
      const choices = error.schema as unknown[];
      const close =
        typeof value === "string"
          ? closeMatch(
              value,
              choices.filter((c): c is string => typeof c === "string"),
            )
          : undefined;
      return violation(`Error: ${subject} must be one of ${choiceList(choices)}; you sent ${show(value)}.${close ? ` Did you mean ${show(close)}?` : ""}`);
    }
    case "const":
      return violation(`Error: ${subject} must be exactly ${show(error.schema)}; you sent ${show(value)}.`);
    case "minLength":
    case "maxLength":
      return violation(`Error: ${subject} must be ${countRange(parent.minLength, parent.maxLength, "character")}, you sent ${[...String(value)].length}.`);
    case "minItems":
    case "maxItems":
      return violation(`Error: ${subject} must have ${countRange(parent.minItems, parent.maxItems, "item")}, you sent ${lengthOf(value)}.`);
    case "minProperties":
    case "maxProperties":
      return violation(
        `Error: ${subject} must have ${countRange(parent.minProperties, parent.maxProperties, "property", "properties")}, you sent ${lengthOf(value)}.`,
      );
    case "items":
    case "additionalItems":
      return violation(`Error: ${subject} must have ${countRange(undefined, params.limit, "item")}, you sent ${lengthOf(value)}.`);
    case "minimum":
    case "maximum":
    case "exclusiveMinimum":
    case "exclusiveMaximum":
      return violation(`Error: ${subject} must be ${numberRange(parent)}, you sent ${show(value)}.`);
    case "multipleOf":
      return violation(`Error: ${subject} must be a multiple of ${show(error.schema)}, you sent ${show(value)}.`);
    case "pattern":
      return violation(`Error: ${subject} must match the pattern ${String(error.schema)}, you sent ${show(value)}.`);
    case "format": {
      const format = String(error.schema);
      const example = FORMAT_EXAMPLES[format];
      return violation(
        `Error: ${subject} must be ${article(format)} ${format} (format), you sent ${show(value)}.${example ? ` Send it like ${show(example)}.` : ""}`,
      );
    }
    case "uniqueItems": {
      const [i, j] = [Number(params.i), Number(params.j)].sort((a, b) => a - b);
      const item = Array.isArray(value) ? value[i!] : undefined;
      return violation(`Error: ${subject} must not contain duplicates, you sent ${show(item)} as items ${i} and ${j}. Remove the repeated item.`);
    }
    case "oneOf":
      return violation(`Error: ${subject} matches more than one of the allowed forms (oneOf), you sent ${show(value)}. Send a value that matches exactly one.`);
    case "not":
      return violation(`Error: ${subject} must not match ${show(error.schema)}, you sent ${show(value)}. Send a different value.`);
    default:
      return violation(`Error: ${subject} ${error.message ?? "is invalid"}, you sent ${show(value)}. Change it to match the schema of ${tool}.`);
  }
}

// ---------------------------------------------------------------------------------------------
// Wording

const FORMAT_EXAMPLES: Record<string, string> = {
  "date-time": "2026-10-02T09:30:00Z",
  date: "2026-10-02",
  time: "09:30:00Z",
  email: "name@example.com",
  uri: "https://example.com/page",
  uuid: "123e4567-e89b-12d3-a456-426614174000",
  ipv4: "192.0.2.1",
};

function typeNames(types: string[]): string {
  return types.map((t) => TYPE_WORDS[t] ?? t).join(" or ");
}

function typeFix(expected: string[], value: unknown): string {
  const wants = (type: string) => expected.includes(type);
  if (wants("string") && (typeof value === "number" || typeof value === "boolean")) return `Send it as ${JSON.stringify(String(value))}.`;
  if (typeof value === "string") {
    const text = value.trim();
    const number = Number(text);
    if (text !== "" && Number.isFinite(number) && (wants("number") || (wants("integer") && Number.isInteger(number)))) return `Send it as ${number}.`;
    if (wants("boolean") && (text === "true" || text === "false")) return `Send it as ${text}.`;
    if (wants("object") || wants("array")) {
      try {
        const parsed: unknown = JSON.parse(text);
        if ((wants("object") && isPlainObject(parsed)) || (wants("array") && Array.isArray(parsed)))
          return "Send the value itself, not a string containing JSON.";
      } catch {
        // not JSON: fall through to the generic fix
      }
    }
  }
  if (wants("integer") && typeof value === "number") return `Send a whole number such as ${Math.round(value)}.`;
  if (wants("array") && (typeof value !== "object" || value === null)) return `Send it as an array, such as [${show(value)}].`;
  return `Send ${typeNames(expected)} instead.`;
}

const show = (value: unknown): string => preview(value);

function choiceList(choices: unknown[]): string {
  const shown = choices.slice(0, 20).map((c) => (typeof c === "string" ? c : JSON.stringify(c)));
  return shown.join(", ") + (choices.length > 20 ? ` and ${choices.length - 20} more` : "");
}

function article(word: string): string {
  return /^[aeio]/i.test(word) ? "an" : "a";
}

function lengthOf(value: unknown): number {
  return Array.isArray(value) ? value.length : isPlainObject(value) ? Object.keys(value).length : 0;
}

/** "4 to 8 characters", "at least 1 item", "at most 5 properties". */
function countRange(min: unknown, max: unknown, unit: string, units = `${unit}s`): string {
  const count = (n: number) => `${n} ${n === 1 ? unit : units}`;
  if (typeof min === "number" && typeof max === "number") return min === max ? `exactly ${count(min)}` : `${min} to ${count(max)}`;
  if (typeof min === "number") return `at least ${count(min)}`;
  if (typeof max === "number") return `at most ${count(max)}`;
  return "";
}

/** "between 1 and 100", "at least 1", "greater than 0 and less than 1". */
function numberRange(schema: JsonObject): string {
  // zod's .int() writes the safe-integer range as bounds: no model needs to be told about those
  const bound = (value: unknown) => (typeof value === "number" && Math.abs(value) < Number.MAX_SAFE_INTEGER ? value : undefined);
  // draft-04 writes an exclusive bound as a flag beside minimum/maximum: `"exclusiveMinimum": true`
  const [low, high] = [schema.exclusiveMinimum === true, schema.exclusiveMaximum === true];
  const [minimum, maximum, exclusiveMinimum, exclusiveMaximum] = [
    low ? undefined : schema.minimum,
    high ? undefined : schema.maximum,
    low ? schema.minimum : schema.exclusiveMinimum,
    high ? schema.maximum : schema.exclusiveMaximum,
  ].map(bound);
  if (typeof minimum === "number" && typeof maximum === "number") return `between ${minimum} and ${maximum}`;
  const lower = typeof minimum === "number" ? `at least ${minimum}` : typeof exclusiveMinimum === "number" ? `greater than ${exclusiveMinimum}` : "";
  const upper = typeof maximum === "number" ? `at most ${maximum}` : typeof exclusiveMaximum === "number" ? `less than ${exclusiveMaximum}` : "";
  return [lower, upper].filter(Boolean).join(" and ");
}

/** A property's rules in a few words, for "Add 'x' (string, 4 to 8 characters)". */
function schemaHint(schema: unknown): string {
  if (!isPlainObject(schema)) return "";
  const parts: string[] = [];
  if (Array.isArray(schema.enum)) parts.push(`one of ${choiceList(schema.enum)}`);
  else if (schema.const !== undefined) parts.push(`exactly ${show(schema.const)}`);
  else if (schema.type !== undefined) parts.push([schema.type].flat().join(" or "));
  parts.push(countRange(schema.minLength, schema.maxLength, "character"), numberRange(schema));
  if (typeof schema.pattern === "string") parts.push(`matching ${schema.pattern}`);
  if (typeof schema.format === "string") parts.push(`${schema.format} format`);
  return parts.filter(Boolean).join(", ");
}

/** JSON pointer → `filters.status`, `items[2].qty`; walks the data to tell array indexes from keys. */
function humanPath(root: unknown, pointer: string): string {
  let path = "";
  let current = root;
  for (const raw of pointer.split("/").slice(1)) {
    const segment = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    if (Array.isArray(current)) {
      path = joinPath(path, Number(segment));
      current = current[Number(segment)];
    } else {
      path = joinPath(path, segment);
      current = isPlainObject(current) && Object.hasOwn(current, segment) ? current[segment] : undefined;
    }
  }
  return path;
}
