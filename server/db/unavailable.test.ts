import { describe, expect, it } from "vitest";
import { DomainError } from "../domain/errors";
import { asDomainError, isStoreUnavailable } from "./unavailable";

const withCode = (code: string, message = "x") => Object.assign(new Error(message), { code });

describe("isStoreUnavailable", () => {
  it.each([
    ["node-postgres refused connection", withCode("ECONNREFUSED", "connect ECONNREFUSED 127.0.0.1:5432")],
    ["connection reset", withCode("ECONNRESET")],
    ["admin shutdown 57P01", withCode("57P01", "terminating connection due to administrator command")],
    ["crash shutdown 57P02", withCode("57P02")],
    ["cannot connect now 57P03", withCode("57P03", "the database system is starting up")],
    ["connection exception 08006", withCode("08006")],
    ["too many connections 53300", withCode("53300")],
    ["pool checkout timeout", new Error("timeout exceeded when trying to connect")],
    ["server gone mid-query", new Error("Connection terminated unexpectedly")],
    ["Prisma P1001", withCode("P1001", "Can't reach database server at 127.0.0.1:5432")],
    ["Prisma pool timeout P2024", withCode("P2024")],
    [
      "Prisma raw query with the adapter's DatabaseNotReachable",
      Object.assign(withCode("P2010"), { meta: { driverAdapterError: { name: "DriverAdapterError", cause: { kind: "DatabaseNotReachable" } } } }),
    ],
    ["wrapped in a cause chain", new Error("outer", { cause: new Error("middle", { cause: withCode("ECONNREFUSED") }) })],
    ["inside an AggregateError", new AggregateError([withCode("ECONNREFUSED")], "all addresses failed")],
  ])("%s: unavailable", (_name, error) => {
    expect(isStoreUnavailable(error)).toBe(true);
    expect(asDomainError(error)).toMatchObject({ kind: "unavailable", retryAfterSeconds: expect.any(Number) });
  });

  it.each([
    ["unique violation 23505", withCode("23505", "duplicate key value")],
    ["syntax error 42601", withCode("42601")],
    ["Prisma record not found P2025", withCode("P2025")],
    ["a plain bug", new TypeError("cannot read properties of undefined")],
    ["not an error at all", "ECONNREFUSED"],
    [
      "a cycle of causes",
      (() => {
        const e = new Error("a") as Error & { cause?: unknown };
        e.cause = e;
        return e;
      })(),
    ],
  ])("%s: not unavailable", (_name, error) => {
    expect(isStoreUnavailable(error)).toBe(false);
    expect(asDomainError(error)).toBeUndefined();
  });

  it("a DomainError stays itself", () => {
    const own = new DomainError("invalid", "bad");
    expect(asDomainError(own)).toBe(own);
  });
});
