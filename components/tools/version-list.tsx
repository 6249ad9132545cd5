import { formatDateTimeZoned } from "../../isomorphic/time-zone";
import { Badge } from "../ui";

/** Where a schema version came from (tool_definitions.source). */
const SOURCE_LABEL: Record<string, string> = { api: "registered", ui: "registered in the browser", otlp: "read from OpenTelemetry spans" };
export const sourceLabel = (source: string) => SOURCE_LABEL[source] ?? (source.startsWith("mcp:") ? `read from the MCP server ${source.slice(4)}` : "");

type Version = { version: string; firstSeenAt: string | Date; source: string };

/** A tool's schema versions, newest first: id, when first seen, where from. */
export function VersionList({ versions, zone }: { versions: Version[]; zone: string }) {
  if (!versions.length) return <p className="text-slate-500">No schema is registered under this name.</p>;
  return (
    <ol className="divide-y divide-slate-100" data-testid="schema-versions">
      {versions.map((v, i) => (
        <li key={v.version} className="flex flex-wrap items-baseline gap-x-3 gap-y-0.5 py-2 first:pt-0 last:pb-0">
          <span className="font-mono text-xs text-slate-900" title={v.version}>
            {v.version.slice(0, 12)}
          </span>
          <span className="text-slate-600">first seen {formatDateTimeZoned(v.firstSeenAt, zone)}</span>
          {sourceLabel(v.source) && <span className="text-xs text-slate-500">{sourceLabel(v.source)}</span>}
          {i === 0 && <Badge tone="green">current</Badge>}
        </li>
      ))}
    </ol>
  );
}
