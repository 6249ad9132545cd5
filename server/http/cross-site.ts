/**
 * Which browser requests may change something. A page of another origin (even a sibling
 * subdomain, which SameSite=Lax cookies do not stop) can make the browser POST with the
 * user's cookie, as a form (`multipart/form-data`, `text/plain`, urlencoded: no preflight) or a
 * simple fetch. Browsers say where a request comes from in `Sec-Fetch-Site` and `Origin`;
 * they cannot be set by a page. Requests with an API key (`Authorization`) are not a browser
 * acting for a signed-in user: a cross-origin page cannot add that header without a CORS
 * preflight, which Toolgate does not grant.
 */
export type RequestFacts = {
  method: string;
  authorization: string | null;
  origin: string | null;
  secFetchSite: string | null;
  contentType: string | null;
  /** whether the request carries the session cookie */
  hasSession: boolean;
  /**
   * A post of one of Toolgate's own HTML forms (app/api/forms, which work before the page's
   * JavaScript has loaded): urlencoded by nature, so it must prove where it comes from instead,
   * with `Sec-Fetch-Site: same-origin` or the app's own `Origin` (browsers send them on every form post).
   */
  ownForm?: boolean;
};

/** Why the request is refused, or null when it may go on. `ownOrigins` are the app's own, e.g. "http://localhost:3000". */
export function crossSiteRefusal(request: RequestFacts, ownOrigins: readonly string[]): string | null {
  if (request.method !== "POST" || request.authorization) return null;
  const site = request.secFetchSite?.toLowerCase();
  if (site && site !== "same-origin" && site !== "none") {
    return `Refused a ${site} request: changes can only be made from Toolgate's own pages (Sec-Fetch-Site was "${site}"). Harnesses send an API key in the Authorization header instead.`;
  }
  if (request.ownForm && site !== "same-origin" && request.origin === null) {
    return "Refused a form post that says neither where it comes from (no Origin) nor that it is same-origin (Sec-Fetch-Site): submit the form from Toolgate's own page.";
  }
  if (request.origin !== null && !ownOrigins.includes(request.origin)) {
    return `Refused a request from the origin "${request.origin}": changes can only be made from Toolgate's own pages (${ownOrigins.join(" or ")}). Harnesses send an API key in the Authorization header instead.`;
  }
  const mediaType = request.contentType?.split(";")[0]!.trim().toLowerCase();
  if (request.hasSession && mediaType !== "application/json" && !request.ownForm) {
    return `Refused a signed-in request with Content-Type "${request.contentType ?? "(none)"}": send the input as JSON with Content-Type: application/json.`;
  }
  return null;
}
