import type { pageCaller } from "../../../server/page-session";

type Caller = Awaited<ReturnType<typeof pageCaller>>;

/** One call as the call page loads it (calls.byId through the page's caller): the stored call, its correction, its schema, its place in the run. */
export type CallDetail = Awaited<ReturnType<Caller["calls"]["byId"]>>;
