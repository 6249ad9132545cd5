// What Toolgate decides about one call: the schema version to check it against, and the verdict
// stored from the harness's and Toolgate's own. Pure: ingestion, OTLP, tools.validate and the
// dry run call it with the versions they loaded.
import type { Category } from "../../contracts/categories";
import type { ToolCallEvent } from "../../contracts/event";
import { classifyCall, registryFrom, ToolSchemaError, type RegisteredTool, type ToolRegistry, type Verdict } from "../../isomorphic/classify";

/** A call's row fields that come from the verdicts (the harness's wins, both kept: docs/events.md). */
export type CallVerdict = {
  valid: boolean | null;
  category: Category | null;
  message: string | null;
  checked: (Verdict & { version: string | null }) | null;
  /** Why Toolgate could not check the call, when it could not (stored as its checked_message, checked_valid staying null). */
  unchecked?: string | null;
  differ: boolean;
};

/**
 * The registry to check one call against: the version the harness named when the
 * project has it, otherwise each tool's newest version.
 */
export function registryResolver(versions: RegisteredTool[]) {
  const latest = registryFrom(versions.filter((v, i) => versions.findIndex((w) => w.name === v.name) === i));
  const byVersion = new Map(versions.map((v) => [`${v.name}@${v.version}`, v]));
  return {
    isEmpty: versions.length === 0,
    forCall(tool: string, toolVersion?: string): ToolRegistry {
      const pinned = toolVersion ? byVersion.get(`${tool}@${toolVersion}`) : undefined;
      return pinned ? { names: latest.names, get: (name) => (name === tool ? pinned : latest.get(name)) } : latest;
    },
  };
}

export function verdictFor(
  event: Pick<ToolCallEvent, "tool" | "toolVersion" | "outcome"> & { arguments: unknown },
  registry: ReturnType<typeof registryResolver>,
): CallVerdict {
  let checked: CallVerdict["checked"] = null;
  let unchecked: string | null = null;
  // Toolgate checks only projects that registered schemas; otherwise every name would be unknown.
  if (!registry.isEmpty) {
    const forCall = registry.forCall(event.tool, event.toolVersion);
    try {
      checked = { ...classifyCall({ tool: event.tool, arguments: event.arguments, registry: forCall }), version: forCall.get(event.tool)?.version ?? null };
    } catch (error) {
      // One call's check never fails another's: whatever goes wrong, this call is stored unchecked, with the reason.
      const reason = error instanceof ToolSchemaError ? error.message : `checking it failed (${error instanceof Error ? error.message : String(error)})`;
      unchecked = `Unchecked: Toolgate could not check this call: ${reason}. Register a corrected schema with tools.register, then Re-check.`;
    }
  }
  const harness = event.outcome;
  const valid = harness?.valid ?? checked?.valid ?? null;
  const category = harness ? (harness.valid ? null : (harness.category ?? null)) : (checked?.category ?? null);
  // A policy refusal (not_allowed) of a call that fits its schema is no disagreement:
  // Toolgate checks only the schema, the harness also its policies.
  const policyRefusal = harness?.valid === false && harness.category === "not_allowed" && checked?.valid === true;
  const differ =
    !!harness &&
    !!checked &&
    !policyRefusal &&
    (harness.valid !== checked.valid || (!harness.valid && !!harness.category && harness.category !== checked.category));
  return {
    valid,
    category,
    message: harness?.message ?? (checked && !checked.valid ? (checked.message ?? null) : null),
    checked,
    ...(unchecked ? { unchecked } : {}),
    differ,
  };
}
