import { describe, expect, it } from "vitest";
import { conflict, DomainError, invalid, notFound } from "./errors";

describe("DomainError", () => {
  it("each helper names its kind, which server/trpc/errors.ts maps to an HTTP code", () => {
    expect([invalid("a"), notFound("b"), conflict("c")].map((e) => [e.kind, e.message])).toEqual([
      ["invalid", "a"],
      ["not_found", "b"],
      ["conflict", "c"],
    ]);
    const limited = new DomainError("rate_limited", "slow down", 7);
    expect(limited).toBeInstanceOf(Error);
    expect(limited.name).toBe("DomainError");
    expect(limited.retryAfterSeconds).toBe(7);
  });
});
