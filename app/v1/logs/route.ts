import { decodeLogsJson, decodeLogsProtobuf } from "@/server/adapters/otlp/wire";
import { ingestLogs } from "@/server/services/otlp/logs-source";
import { logsOutcome, otlpExport } from "@/server/http/otlp-export";

export const dynamic = "force-dynamic";

/**
 * OTLP/HTTP log export: the GenAI events (`gen_ai.choice`, `gen_ai.tool.message`, …) that the
 * official OpenTelemetry instrumentations send instead of putting messages on their spans.
 * They join their span, whichever arrives first, into the same calls. See docs/otlp.md.
 */
export const POST = otlpExport("logs", async (projectId, body, encoding) =>
  logsOutcome(await ingestLogs(projectId, encoding === "json" ? decodeLogsJson(body) : decodeLogsProtobuf(body))),
);
