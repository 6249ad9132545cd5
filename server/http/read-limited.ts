/**
 * A request body, or null when it is larger than `limit` bytes (read no further than that).
 * Shared by the HTTP entry points that take a body (tRPC, OTLP): TOOLGATE_BODY_LIMIT_BYTES.
 */
export async function readLimited(req: Request, limit: number): Promise<Buffer | null> {
  if (Number(req.headers.get("content-length") ?? 0) > limit) return null;
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = req.body?.getReader();
  for (let part = await reader?.read(); part && !part.done; part = await reader!.read()) {
    size += part.value.byteLength;
    if (size > limit) {
      await reader!.cancel();
      return null;
    }
    chunks.push(part.value);
  }
  return Buffer.concat(chunks);
}
