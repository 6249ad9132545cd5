import { decodeLogsJson, decodeLogsProtobuf } from "@/server/adapters/otlp/wire";
import { ingestLogs } from "@/server/services/otlp/ingest-traces";
import { otlpExport, partialMessage } from "../otlp-http";

export const dynamic = "force-dynamic";

/**
 * OTLP/HTTP log export: the GenAI events (`gen_ai.choice`, `gen_ai.tool.message`, …) that the
 * official OpenTelemetry instrumentations send instead of putting messages on their spans.
 * They join their span, whichever arrives first, into the same calls. See docs/otlp.md.
 */
export const POST = otlpExport("logs", async (projectId, body, encoding) => {
  const result = await ingestLogs(projectId, encoding === "json" ? decodeLogsJson(body) : decodeLogsProtobuf(body));
  return {
    rejected: result.rejected.length,
    message: partialMessage(
      result.rejected.length,
      "log record(s)",
      result.rejected.map((r) => r.reason),
    ),
  };
});
