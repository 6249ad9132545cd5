import { notAnOtlpPath } from "../otlp-http";

export const dynamic = "force-dynamic";

// Any other /v1/* path: an OTLP Status saying where to send, never the HTML 404 page.
export const GET = notAnOtlpPath;
export const POST = notAnOtlpPath;
export const PUT = notAnOtlpPath;
export const PATCH = notAnOtlpPath;
export const DELETE = notAnOtlpPath;
