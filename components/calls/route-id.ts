import { TRPCError } from "@trpc/server";
import { decodeParam } from "./decode-param";

/**
 * Ids in page and download URLs (call ids, run ids) are the harness's and may hold any
 * character. Next hands them over percent-encoded or not depending on the characters, so a
 * lookup tries the id as given, then percent-decoded.
 */

/** The ids to try for a route param, in order, without repeats: as given, then decoded. */
export function idCandidates(raw: string): string[] {
  return [...new Set([raw, decodeParam(raw)])];
}

/**
 * The first candidate that `load` finds (see idCandidates), or null when none is found.
 * "Not found" and "bad request" (an id the procedure's input refuses, e.g. too long) from tRPC
 * mean "try the next one"; any other error is thrown.
 */
export async function findByRouteId<T>(raw: string, load: (id: string) => Promise<T>): Promise<T | null> {
  for (const id of idCandidates(raw)) {
    try {
      return await load(id);
    } catch (error) {
      if (!(error instanceof TRPCError) || (error.code !== "NOT_FOUND" && error.code !== "BAD_REQUEST")) throw error;
    }
  }
  return null;
}
