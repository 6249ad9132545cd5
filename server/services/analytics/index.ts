// The store that answers the analytics reads (./port.ts): PostgreSQL's rollups. A second store
// is chosen here, behind the same interface.
import { rollupAnalytics } from "../rollups/analytics";
import type { AnalyticsReads } from "./port";

export const analytics: AnalyticsReads = rollupAnalytics;
