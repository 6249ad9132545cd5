import { actionableMessage } from "@/server/adapters/otlp/explain";
import { decodeJson, decodeProtobuf } from "@/server/adapters/otlp/wire";
import { ingestTraces } from "@/server/services/otlp/ingest-traces";
import { otlpExport, partialMessage } from "@/server/http/otlp-export";

export const dynamic = "force-dynamic";

/**
 * OTLP/HTTP trace export (`OTEL_EXPORTER_OTLP_ENDPOINT=<toolgate>`). Spans that could not be
 * used are counted in partial_success, never failing the others. See docs/otlp.md.
 */
export const POST = otlpExport("traces", async (projectId, body, encoding) => {
  const result = await ingestTraces(projectId, encoding === "json" ? decodeJson(body) : decodeProtobuf(body));
  const extra = result.definitionProblems.length ? `, ${result.definitionProblems.length} tool definition(s) not registered` : "";
  const rejected = partialMessage(result.rejected.length, "span(s)", [...result.rejected.map((r) => r.reason), ...result.definitionProblems], extra);
  const ignored = actionableMessage(result.ignoredGroups);
  return {
    rejected: result.rejected.length,
    message: rejected && ignored ? `${rejected}. Also: ${ignored}` : (rejected ?? ignored),
  };
});
