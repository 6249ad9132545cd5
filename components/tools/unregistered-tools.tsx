import Link from "next/link";
import { NOT_CHECKED_COUNTED } from "../../contracts/tools";
import { formatCount } from "../../contracts/format-number";
import { Table, td, th, Truncated } from "../ui";
import { RecheckButton, type RecheckPlace } from "./register-tools-form";

export type Unregistered = { anySchema: boolean; tools: { tool: string; calls: number; notChecked: number }[] };

const code = "font-mono text-xs";

/** The ways to give a tool its schema, each with where it is documented. */
function SchemaWays({ registerHref }: { registerHref: string | null }) {
  return (
    <ul className="list-disc space-y-1 pl-5 text-slate-600" data-testid="schema-ways">
      <li>
        {registerHref ? (
          <Link href={registerHref} className="text-indigo-700 underline underline-offset-2">
            Paste or upload the definitions
          </Link>
        ) : (
          "An admin pastes or uploads the definitions"
        )}{" "}
        on the Tools page (OpenAI, Anthropic, MCP or a plain JSON Schema), then re-checks the calls already stored.
      </li>
      <li>
        Call <code className={code}>tools.register</code> with an ingest key (docs/api.md, “Harness procedures”).
      </li>
      <li>
        Give the SDK your tools: <code className={code}>new Toolgate({"{ tools }"})</code> registers them (sdk/README.md).
      </li>
      <li>
        Put <code className={code}>toolgate mcp</code> in front of an MCP server: it registers each tool&apos;s <code className={code}>inputSchema</code>{" "}
        (docs/mcp.md).
      </li>
      <li>
        OpenTelemetry: instrumentations that send <code className={code}>gen_ai.tool.definitions</code> (or their own tool attributes) register them by
        themselves (docs/otlp.md).
      </li>
    </ul>
  );
}

/**
 * The tools the calls name that have no schema: how many of their calls have no verdict against
 * one (unchecked while the project has no schema at all, "unknown tool" once others have one),
 * and the ways to give them one. With `recheck` (an admin's page), once the project has schemas,
 * each tool's Re-check gives its calls stored unchecked the verdict they get now: unknown tool.
 */
export function UnregisteredTools({
  unregistered,
  toolHref,
  registerHref,
  recheck,
}: {
  unregistered: Unregistered;
  toolHref: (tool: string) => string;
  registerHref: string | null;
  recheck?: RecheckPlace;
}) {
  if (!unregistered.tools.length) return null;
  const rechecks = unregistered.anySchema ? recheck : undefined;
  return (
    <div className="space-y-4" data-testid="unregistered-tools">
      <p className="text-slate-600">
        {unregistered.anySchema
          ? "These tools have no registered schema and calls stored unchecked, from before the project had any schema. If they are real tools, register their schemas and re-check; a re-check of a name the model made up turns its calls into unknown-tool calls (calls stored since are already)."
          : "This project has no tool schema yet, so Toolgate stores every call unchecked: it cannot tell a valid call from an invalid one. Register the schemas, then re-check the stored calls."}
      </p>
      <Table label="Tools without a schema">
        <thead>
          <tr>
            <th className={th}>Tool</th>
            <th className={`${th} text-right`}>Calls</th>
            <th className={`${th} text-right`}>Not checked against a schema</th>
            {rechecks && <th className={th}>Re-check ({rechecks.range.label})</th>}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {unregistered.tools.map((t) => (
            <tr key={t.tool} data-testid="unregistered-tool">
              <td className={td}>
                <Link href={toolHref(t.tool)} className="font-mono text-[13px] text-indigo-700 hover:underline">
                  <Truncated text={t.tool} />
                </Link>
              </td>
              <td data-label="Calls" className={`${td} text-right tabular-nums`}>
                {formatCount(t.calls)}
              </td>
              <td className={`${td} text-right tabular-nums`}>
                {t.notChecked >= NOT_CHECKED_COUNTED ? `${formatCount(NOT_CHECKED_COUNTED)} or more` : formatCount(t.notChecked)}
              </td>
              {rechecks && (
                <td className={td}>
                  <RecheckButton {...rechecks} tool={t.tool} />
                </td>
              )}
            </tr>
          ))}
        </tbody>
      </Table>
      <SchemaWays registerHref={registerHref} />
    </div>
  );
}
