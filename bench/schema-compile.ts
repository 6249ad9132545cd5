/**
 * How long Ajv takes to check and compile tool schemas of growing size, depth and number of
 * subschemas: the measurements behind SCHEMA_LIMITS (docs/limits.md). Run: npm run bench:schema
 * Each figure is the median of 3 runs, each on a fresh Ajv (as registration and the classifier do), in
 * CPU milliseconds of this process (less disturbed by other work on a shared machine than wall time).
 * --smoke: the smaller sizes only, and any error fails the run.
 */
import { canonicalJson, createAjv, type JsonObject } from "../isomorphic/tool-schema";
import { SMOKE } from "./options";

type Schema = JsonObject;
/** Objects nested `levels` deep: {type: object, properties: {a: {…}}}. */
const nested = (levels: number): Schema => {
  let schema: Schema = { type: "string", pattern: "^[a-z]+$" };
  for (let i = 0; i < levels; i++) schema = { type: "object", properties: { a: schema } };
  return schema;
};
/** One object with `count` string properties, each with a length and a pattern. */
const wide = (count: number): Schema => ({
  type: "object",
  properties: Object.fromEntries(Array.from({ length: count }, (_, i) => [`p${i}`, { type: "string", maxLength: 20, pattern: "^[a-z]+$" }])),
});
/** A $defs entry of `size` properties referred to `refs` times (Ajv may copy it into each place). */
const refs = (size: number, count: number): Schema => ({
  type: "object",
  $defs: { shared: wide(size) },
  properties: Object.fromEntries(Array.from({ length: count }, (_, i) => [`r${i}`, { $ref: "#/$defs/shared" }])),
});

function median(run: () => void): number {
  const times = [0, 1, 2].map(() => {
    const start = process.cpuUsage();
    run();
    const used = process.cpuUsage(start);
    return (used.user + used.system) / 1000;
  });
  return times.sort((a, b) => a - b)[1]!;
}

function row(label: string, schema: Schema) {
  const bytes = new TextEncoder().encode(canonicalJson(schema)).length;
  const cell = (run: () => void) => {
    try {
      return `${median(run).toFixed(0)} ms`;
    } catch (error) {
      if (SMOKE) throw error; // the smoke sizes are all well within what Ajv compiles
      return error instanceof RangeError ? "stack overflow" : `error: ${String(error).slice(0, 40)}`;
    }
  };
  const register = cell(() => {
    const ajv = createAjv("2020-12");
    ajv.validateSchema(schema);
    ajv.compile(schema);
  });
  const classifier = cell(() => createAjv("2020-12", { allErrors: true, verbose: true, validateSchema: false }).compile(schema));
  console.log(`| ${label} | ${bytes.toLocaleString("en")} | ${register} | ${classifier} |`);
}

row("warm-up", wide(10));
console.log("| schema | bytes | registration (meta-schema check + compile) | classifier compile (allErrors) |\n|---|---:|---:|---:|");
const small = <T>(values: T[], smoke: number) => (SMOKE ? values.slice(0, smoke) : values);
for (const levels of small([8, 16, 32, 64, 128, 256, 512], 2)) row(`objects nested ${levels} levels (JSON depth ${2 * levels + 1})`, nested(levels));
for (const count of small([100, 250, 500, 1000, 2000, 5000], 2)) row(`${count} properties`, wide(count));
row("an enum of 5,000 strings", { type: "object", properties: { e: { enum: Array.from({ length: 5000 }, (_, i) => `value-${i}`) } } });
row("a pattern of 5,000 alternatives", {
  type: "object",
  properties: { p: { type: "string", pattern: `^(${Array.from({ length: 5000 }, (_, i) => `v${i}`).join("|")})$` } },
});
for (const [size, count] of small<[number, number]>(
  [
    [50, 10],
    [100, 100],
    [250, 250],
  ],
  1,
))
  row(`$defs of ${size} properties, referred to ${count} times`, refs(size, count));
