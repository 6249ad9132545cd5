import { createContext } from "@/server/trpc/init";
import { createCaller } from "@/server/trpc/root";

/**
 * The project of `slug` for the signed-in caller of `req`, through the same procedure as
 * every other read (tenancy by the procedure kind): throws its error for non-members.
 */
export async function projectForRequest(req: Request, slug: string) {
  return createCaller(createContext({ headers: req.headers, url: req.url })).projects.get({ project: slug });
}
