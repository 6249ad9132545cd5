import { formatDateTimeZoned } from "../../isomorphic/time-zone";

/**
 * " · as of 2026-12-05 23:41:07 UTC" when a card's figures are a stored answer (server/domain/derived-freshness.ts:
 * at most a few minutes behind the calls), nothing when they were computed for this page view.
 */
export const asOfNote = (asOf: string | null | undefined, zone: string) => (asOf ? ` · as of ${formatDateTimeZoned(asOf, zone, "second")}` : "");
