import { TRPCError } from "@trpc/server";
import { describe, expect, it } from "vitest";
import { decodeParam } from "./decode-param";
import { findByRouteId, idCandidates } from "./route-id";

describe("idCandidates", () => {
  it("tries the id as given first, then percent-decoded", () => {
    expect(idCandidates("call%2F1%20%3F")).toEqual(["call%2F1%20%3F", "call/1 ?"]);
    // an id that holds "%25" literally is found as given before its decoded form
    expect(idCandidates("a%2525")).toEqual(["a%2525", "a%25"]);
  });
  it("tries an id once when decoding does not change it, or cannot", () => {
    expect(idCandidates("demo-1-step-2")).toEqual(["demo-1-step-2"]);
    expect(idCandidates("100%")).toEqual(["100%"]);
    expect(decodeParam("%E0%A4%A")).toBe("%E0%A4%A");
  });
});

describe("findByRouteId", () => {
  const stored = new Map([
    ["call/1 ?", "the decoded one"],
    ["a%25", "the decoded one"],
    ["a%2525", "the literal one"],
  ]);
  /** A procedure as the page calls it: NOT_FOUND for an unknown id, BAD_REQUEST for one its input refuses. */
  const byId = async (id: string) => {
    if (id.length > 8) throw new TRPCError({ code: "BAD_REQUEST", message: "too long" });
    const found = stored.get(id);
    if (found === undefined) throw new TRPCError({ code: "NOT_FOUND", message: `No call "${id}"` });
    return found;
  };

  it("finds a call by its encoded or decoded id, the id as given first", async () => {
    expect(await findByRouteId("call%2F1%20%3F", byId)).toBe("the decoded one");
    expect(await findByRouteId("a%2525", byId)).toBe("the literal one");
  });
  it("answers null when no candidate is found or the procedure refuses them", async () => {
    expect(await findByRouteId("nothing", byId)).toBeNull();
    expect(await findByRouteId("x".repeat(300), byId)).toBeNull();
  });
  it("lets any other error through, so that an outage is not shown as 'not found'", async () => {
    const down = async () => {
      throw new TRPCError({ code: "INTERNAL_SERVER_ERROR", message: "database unavailable" });
    };
    await expect(findByRouteId("demo-1", down)).rejects.toThrow("database unavailable");
    await expect(
      findByRouteId("demo-1", async () => {
        throw new Error("not a tRPC error");
      }),
    ).rejects.toThrow("not a tRPC error");
  });
});
