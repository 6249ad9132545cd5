import { TRPCError } from "@trpc/server";
import { describe, expect, it } from "vitest";
import { findByRouteId } from "./route-id";

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
