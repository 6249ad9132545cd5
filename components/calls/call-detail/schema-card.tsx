import { Card } from "../../ui";
import { formatDateTimeZoned } from "../../../isomorphic/time-zone";
import { JsonView } from "../json-view";
import type { CallDetail } from "./types";
import { missingSchemaReason } from "./view";

/** The schema version the call was checked against, folded open on demand; or why there is none to show. */
export function SchemaCard({ call, zone }: { call: CallDetail; zone: string }) {
  if (!call.schema) {
    const reason = missingSchemaReason(call);
    return (
      <Card className="mt-4" title="Schema">
        <p className="text-slate-600">
          {reason === "unknown_tool" ? (
            <>
              No tool named <span className="font-mono">{call.tool}</span> is registered, so there is no schema to show.
            </>
          ) : reason === "unchecked" ? (
            "Toolgate did not check this call against a registered schema: the project has none for this tool (register it with tools.register)."
          ) : (
            "The schema version it was checked against is no longer stored."
          )}
        </p>
      </Card>
    );
  }
  return (
    <Card className="mt-4">
      <details className="group">
        <summary className="flex cursor-pointer list-none items-center justify-between gap-4 rounded-sm focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500">
          <span>
            <span className="text-base font-semibold text-slate-900">Schema checked against</span>
            <span className="ml-2 font-mono text-xs text-slate-500">version {call.schema.version}</span>
            <span className="mt-0.5 block text-slate-500">
              <span className="font-mono">{call.tool}</span>, first seen {formatDateTimeZoned(call.schema.firstSeenAt, zone)}
            </span>
          </span>
          <span className="shrink-0 text-xs font-medium text-indigo-700">
            <span className="group-open:hidden">Show JSON Schema</span>
            <span className="hidden group-open:inline">Hide</span>
          </span>
        </summary>
        <JsonView className="mt-3" value={call.schema.parameters} label={`JSON Schema of ${call.tool}`} />
      </details>
    </Card>
  );
}
