import { decodeJson, decodeProtobuf } from "@/server/adapters/otlp/wire";
import { ingestTraces } from "@/server/services/otlp/traces-source";
import { otlpExport, tracesOutcome } from "@/server/http/otlp-export";

export const dynamic = "force-dynamic";

/**
 * OTLP/HTTP trace export (`OTEL_EXPORTER_OTLP_ENDPOINT=<toolgate>`): decode, the ingestion
 * pipeline's traces source, and the answer (spans that could not be used are counted in
 * partial_success, never failing the others). See docs/otlp.md.
 */
export const POST = otlpExport("traces", async (projectId, body, encoding) =>
  tracesOutcome(await ingestTraces(projectId, encoding === "json" ? decodeJson(body) : decodeProtobuf(body))),
);
