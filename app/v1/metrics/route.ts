import { otlpExport } from "../otlp-http";

export const dynamic = "force-dynamic";

/**
 * OTLP/HTTP metrics: instrumentations export them next to traces and logs with the same
 * endpoint variable. Toolgate counts nothing from them (its counts come from the calls), so a
 * valid export is accepted and ignored, with the same checks as the other signals.
 */
export const POST = otlpExport("metrics", async () => ({ rejected: 0 }));
