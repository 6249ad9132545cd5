import { requestOrigin } from "../domain/forwarded";
import { env } from "../env";

/** The origin harnesses and browsers should use: TOOLGATE_PUBLIC_URL, else the one this request came to (see requestOrigin). */
export function publicOrigin(headers: Headers) {
  const configured = env().TOOLGATE_PUBLIC_URL;
  if (configured) return new URL(configured).origin;
  const { proto, host } = requestOrigin(headers, env().TOOLGATE_TRUST_PROXY);
  return `${proto}://${host}`;
}

/** The origins a browser request may come from: the one it was sent to and TOOLGATE_PUBLIC_URL. */
export function ownOrigins(req: Request) {
  const { proto, host } = requestOrigin(req.headers, env().TOOLGATE_TRUST_PROXY);
  const configured = env().TOOLGATE_PUBLIC_URL;
  return [...new Set([`${proto}://${host}`, ...(configured ? [new URL(configured).origin] : [])])];
}
