// `$dynamicRef` (JSON Schema 2020-12) resolved before Ajv sees the schema. A `$dynamicRef` whose
// first target is a `$dynamicAnchor` goes to the outermost schema resource in the dynamic scope
// (the resources evaluation entered on its way, the root first) that declares the same dynamic
// anchor. Ajv 8 follows this only in simple cases: it looks at static places, and refuses a
// `$dynamicRef` with anything before the `#`. Within one document the dynamic scope decides only
// which resource each dynamic anchor name is bound to, so the schema can be written out once per
// binding that evaluation can reach, every reference a plain `$ref` to its copy.
import { isPlainObject, SUBSCHEMA, SUBSCHEMA_LIST, SUBSCHEMA_MAP, type JsonObject } from "./schema-keywords";

/** The base of a schema without an `$id` at its root: what relative `$id`s and references resolve against. */
const ROOT_URI = "https://schema.toolgate.invalid/root.json";
/** Copies written out at most: beyond, the schema is left to Ajv as it is. */
const MAX_COPIES = 200;
/** Keywords that name or hold places in the document rather than test the arguments: the copies leave them out. */
const PLACES = new Set(["$id", "$anchor", "$dynamicAnchor", "$defs", "definitions", "$schema"]);

type Resource = { root: unknown; anchors: Map<string, unknown>; dynamicAnchors: Map<string, unknown> };
/** Each dynamic anchor name, bound to the schema the outermost resource in scope declares for it. */
type Binding = Map<string, unknown>;

class Unresolvable extends Error {}

/**
 * The schema with every `$dynamicRef` resolved through the dynamic scope into a plain `$ref`:
 * undefined when it has none, refers outside itself, or would take more than MAX_COPIES copies.
 */
export function withoutDynamicRefs(schema: JsonObject): JsonObject | undefined {
  if (!JSON.stringify(schema).includes('"$dynamicRef"')) return undefined;
  try {
    return new Specializer(schema).result();
  } catch (error) {
    if (error instanceof Unresolvable) return undefined;
    throw error;
  }
}

class Specializer {
  private readonly resources = new Map<string, Resource>();
  /** Each schema object's base URI and resource. */
  private readonly places = new Map<unknown, { base: string; resource: Resource }>();
  private readonly ids = new Map<unknown, number>();
  private readonly copies = new Map<string, { name: string; value?: unknown }>();
  private readonly pending: { key: string; schema: unknown; binding: Binding }[] = [];

  constructor(private readonly root: JsonObject) {
    this.index(root);
  }

  result(): JsonObject {
    const rootPlace = this.places.get(this.root)!;
    const top = this.copy(this.root, this.enter(new Map(), rootPlace.resource)) as JsonObject;
    for (let next = this.pending.pop(); next; next = this.pending.pop()) {
      this.copies.get(next.key)!.value = this.copy(next.schema, next.binding);
    }
    const $defs = Object.fromEntries([...this.copies.values()].map(({ name, value }) => [name, value]));
    return { ...top, ...(this.root.$schema === undefined ? {} : { $schema: this.root.$schema }), $defs };
  }

  /** Records every schema object's base and resource, and each resource's anchors (without recursion). */
  private index(root: JsonObject) {
    const stack: { node: unknown; base: string; resource?: Resource }[] = [{ node: root, base: ROOT_URI }];
    for (let item = stack.pop(); item; item = stack.pop()) {
      const { node } = item;
      if (!isPlainObject(node)) continue;
      let { base, resource } = item;
      if (typeof node.$id === "string" || !resource) {
        const url = typeof node.$id === "string" ? URL.parse(node.$id, base) : new URL(base);
        if (!url) throw new Unresolvable(String(node.$id));
        base = withoutFragment(url.href);
        resource = { root: node, anchors: new Map(), dynamicAnchors: new Map() };
        this.resources.set(base, resource);
      }
      if (typeof node.$anchor === "string") resource.anchors.set(node.$anchor, node);
      if (typeof node.$dynamicAnchor === "string") {
        resource.anchors.set(node.$dynamicAnchor, node);
        resource.dynamicAnchors.set(node.$dynamicAnchor, node);
      }
      this.places.set(node, { base, resource });
      for (const child of childSchemas(node)) stack.push({ node: child, base, resource });
    }
  }

  /** The binding once `resource` is in scope: its dynamic anchors bound where no outer resource bound them. */
  private enter(binding: Binding, resource: Resource): Binding {
    const added = [...resource.dynamicAnchors].filter(([name]) => !binding.has(name));
    return added.length ? new Map([...binding, ...added]) : binding;
  }

  /** The schema `ref` names from `base`, and whether it was named by a dynamic anchor. */
  private resolve(ref: string, base: string): { target: unknown; resource: Resource; dynamicAnchor?: string } {
    const url = URL.parse(ref, base);
    if (!url) throw new Unresolvable(ref);
    const resource = this.resources.get(withoutFragment(url.href));
    if (!resource) throw new Unresolvable(ref);
    const fragment = decodeURIComponent(url.hash.slice(1));
    if (fragment === "") return { target: resource.root, resource };
    if (fragment.startsWith("/")) {
      let target: unknown = resource.root;
      for (const token of fragment.slice(1).split("/")) {
        const key = token.replaceAll("~1", "/").replaceAll("~0", "~");
        target = isPlainObject(target) && Object.hasOwn(target, key) ? target[key] : Array.isArray(target) ? target[Number(key)] : undefined;
        if (target === undefined) throw new Unresolvable(ref);
      }
      return { target, resource: this.places.get(target)?.resource ?? resource };
    }
    const target = resource.anchors.get(fragment);
    if (target === undefined) throw new Unresolvable(ref);
    return { target, resource, ...(resource.dynamicAnchors.get(fragment) === target ? { dynamicAnchor: fragment } : {}) };
  }

  /** `#/$defs/…` of the copy of `schema` under `binding`, written out later (references may cycle). */
  private refTo(schema: unknown, binding: Binding): string {
    const key = `${this.idOf(schema)}:${[...binding].map(([name, bound]) => `${name}=${this.idOf(bound)}`).join(",")}`;
    let entry = this.copies.get(key);
    if (!entry) {
      if (this.copies.size >= MAX_COPIES) throw new Unresolvable("too many copies");
      this.copies.set(key, (entry = { name: `toolgate-scope-${this.copies.size}` }));
      this.pending.push({ key, schema, binding });
    }
    return `#/$defs/${entry.name}`;
  }

  private idOf(value: unknown): number {
    let id = this.ids.get(value);
    if (id === undefined) this.ids.set(value, (id = this.ids.size));
    return id;
  }

  /** `schema` written out under `binding`: its references made plain `$ref`s to copies, its places left out. */
  private copy(schema: unknown, binding: Binding): unknown {
    if (!isPlainObject(schema)) return schema;
    const place = this.places.get(schema);
    if (!place) throw new Unresolvable("a reference into something that is not a schema");
    const here = schema === place.resource.root ? this.enter(binding, place.resource) : binding;
    const out: JsonObject = {};
    const refs: string[] = [];
    for (const [key, value] of Object.entries(schema)) {
      if (PLACES.has(key)) continue;
      if ((key === "$ref" || key === "$dynamicRef") && typeof value === "string") {
        const first = this.resolve(value, place.base);
        const bound = key === "$dynamicRef" && first.dynamicAnchor !== undefined ? here.get(first.dynamicAnchor) : undefined;
        const target = bound ?? first.target;
        const resource = bound === undefined ? first.resource : this.places.get(bound)!.resource;
        refs.push(this.refTo(target, this.enter(here, resource)));
      } else if (SUBSCHEMA_MAP.has(key) && isPlainObject(value)) {
        out[key] = Object.fromEntries(Object.entries(value).map(([name, child]) => [name, this.copy(child, here)]));
      } else if (SUBSCHEMA_LIST.has(key) && Array.isArray(value)) {
        out[key] = value.map((child) => this.copy(child, here));
      } else out[key] = SUBSCHEMA.has(key) ? this.copy(value, here) : value;
    }
    const [first, ...others] = refs;
    if (first !== undefined) out.$ref = first;
    if (others.length) out.allOf = [...(Array.isArray(out.allOf) ? out.allOf : []), ...others.map(($ref) => ({ $ref }))];
    return out;
  }
}

function withoutFragment(uri: string): string {
  const hash = uri.indexOf("#");
  return hash === -1 ? uri : uri.slice(0, hash);
}

/** The schemas directly inside `schema`. */
function childSchemas(schema: JsonObject): unknown[] {
  return Object.entries(schema).flatMap(([key, value]) => {
    if (SUBSCHEMA_MAP.has(key) && isPlainObject(value)) return Object.values(value);
    if (SUBSCHEMA_LIST.has(key) && Array.isArray(value)) return value;
    return SUBSCHEMA.has(key) ? [value] : [];
  });
}
