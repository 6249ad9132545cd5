import { TRPCError } from "@trpc/server";
import { idCandidates } from "../../isomorphic/route-id";

/**
 * The first of a route param's candidate ids (isomorphic/route-id.ts idCandidates) that `load`
 * finds, or null when none is found. "Not found" and "bad request" (an id the procedure's input
 * refuses, e.g. too long) from tRPC mean "try the next one"; any other error is thrown.
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
