import { NextResponse, type NextRequest } from "next/server";

/**
 * Tells server components which path is being rendered (PATH_HEADER in
 * server/page-session.ts), so that a signed-out visitor comes back to it after /login.
 * No auth decisions here: pages and procedures check the session themselves.
 */
export function proxy(request: NextRequest) {
  const url = request.nextUrl.clone();
  url.searchParams.delete("_rsc");
  const headers = new Headers(request.headers);
  headers.set("x-toolgate-path", url.pathname + url.search);
  return NextResponse.next({ request: { headers } });
}

export const config = {
  // not the APIs (tRPC, OTLP /v1/: their bodies must not be buffered here) nor static files
  matcher: ["/((?!api/|v1/|_next/static|_next/image|favicon.ico).*)"],
};
