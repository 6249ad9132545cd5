import type { inferProcedureOutput } from "@trpc/server";
import type { AppRouter } from "../../../server/routers/root";

/**
 * One call as the call page loads it (calls.byId through the page's caller, so dates stay Dates):
 * the stored call, its correction, its schema, its place in the run. Named from the router's type
 * like components/tools/types.ts, never through server code.
 */
export type CallDetail = inferProcedureOutput<AppRouter["calls"]["byId"]>;
