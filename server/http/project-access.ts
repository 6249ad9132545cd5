import { createContext } from "../trpc/init";
import { createCaller } from "../routers/root";

/**
 * For HTTP routes beside tRPC (CSV export, raw downloads): the project of `slug` for the
 * signed-in caller of `req`, through the same procedure as every other read (tenancy by the
 * procedure kind). Throws that procedure's error for non-members; see errorResponse.
 */
export async function projectForRequest(req: Request, slug: string) {
  return createCaller(createContext({ headers: req.headers, url: req.url })).projects.get({ project: slug });
}
