import { getHTTPStatusCodeFromError } from "@trpc/server/http";
import { describe, expect, it, vi } from "vitest";
import { DOMAIN_ERROR_STATUS, DomainError, type DomainErrorKind } from "../domain/errors";
import { toTRPCError } from "../trpc/errors";
import { errorResponse } from "./error-response";
import { exportFailure } from "./otlp-export";

// One table (DOMAIN_ERROR_STATUS) decides what each DomainError kind answers; every entry point
// answers by it: tRPC, the plain HTTP routes and OTLP/HTTP (in both of its encodings).
const kinds = Object.keys(DOMAIN_ERROR_STATUS) as DomainErrorKind[];

describe("every DomainError kind maps everywhere, by the one table", () => {
  vi.spyOn(console, "error").mockImplementation(() => {});

  it("lists the eight kinds", () => {
    expect(kinds.sort()).toEqual(["conflict", "forbidden", "invalid", "not_found", "rate_limited", "too_large", "unauthorized", "unavailable"]);
  });

  it.each(kinds)("%s: tRPC gives its code, and the HTTP status the table gives", (kind) => {
    const mapped = toTRPCError(new DomainError(kind, `a ${kind} error`));
    expect(mapped?.code).toBe(DOMAIN_ERROR_STATUS[kind].trpc);
    expect(getHTTPStatusCodeFromError(mapped!)).toBe(DOMAIN_ERROR_STATUS[kind].http);
  });

  it.each(kinds)("%s: the plain HTTP routes answer its status and message", async (kind) => {
    const response = errorResponse(new DomainError(kind, `a ${kind} error`, 7), "/test");
    expect(response.status).toBe(DOMAIN_ERROR_STATUS[kind].http);
    expect(await response.json()).toEqual({ error: `a ${kind} error` });
  });

  it.each(kinds)("%s: OTLP/HTTP answers its status and google.rpc.Code, never a 500", async (kind) => {
    const response = exportFailure("json", "traces", new DomainError(kind, `a ${kind} error`, 7));
    expect(response.status).toBe(DOMAIN_ERROR_STATUS[kind].http);
    expect(await response.json()).toEqual({ code: DOMAIN_ERROR_STATUS[kind].grpc, message: `a ${kind} error` });
    if (kind === "rate_limited" || kind === "unavailable") expect(response.headers.get("retry-after")).toBe("7");
    const protobuf = exportFailure("protobuf", "logs", new DomainError(kind, "x"));
    expect([protobuf.status, protobuf.headers.get("content-type")]).toEqual([DOMAIN_ERROR_STATUS[kind].http, "application/x-protobuf"]);
  });

  it("OTLP/HTTP answers anything else as a 500 without its details", async () => {
    const response = exportFailure("json", "traces", new Error("secret detail"));
    expect(response.status).toBe(500);
    expect(JSON.stringify(await response.json())).not.toContain("secret");
  });
});
