import { initTRPC } from "@trpc/server";

/** What every procedure sees: the request's headers, and headers to add to the answer. */
export type Context = { headers: Headers; resHeaders: Headers };

export function createContext(opts: { headers: Headers; resHeaders?: Headers }): Context {
  return { headers: opts.headers, resHeaders: opts.resHeaders ?? new Headers() };
}

// No transformer: the wire is plain JSON so that any language can call it with curl.
const t = initTRPC.context<Context>().create();

export const router = t.router;
export const middleware = t.middleware;
export const createCallerFactory = t.createCallerFactory;
export const publicProcedure = t.procedure;
