// The request contracts' counts that the SDKs need at run time too (no zod here: the SDK loads
// without it). contracts/event.ts and contracts/tools.ts enforce them.

/** Events in one `ingest.batch` request. */
export const MAX_EVENTS_PER_BATCH = 1000;
/** Tool names in one event's toolSet. */
export const MAX_TOOL_SET = 2000;
/** The most tools one tools.register (or one paste in the browser) registers. */
export const REGISTER_TOOLS_MAX = 500;
