import { describe, expect, it } from "vitest";
import { requestOrigin } from "./forwarded";

const forwarded = new Headers({ host: "app.internal:3000", "x-forwarded-proto": "https", "x-forwarded-host": "evil.example" });

describe("requestOrigin", () => {
  it("ignores X-Forwarded-Proto and -Host when no proxy is trusted", () => {
    expect(requestOrigin(forwarded, 0)).toEqual({ proto: "http", host: "app.internal:3000" });
  });

  it("takes them from a trusted proxy (the first entry of a list)", () => {
    const chain = new Headers({ host: "10.0.0.5", "x-forwarded-proto": "https, http", "x-forwarded-host": "toolgate.example.com, 10.0.0.5" });
    expect(requestOrigin(chain, 1)).toEqual({ proto: "https", host: "toolgate.example.com" });
    expect(requestOrigin(new Headers({ host: "h" }), 1)).toEqual({ proto: "http", host: "h" });
  });

  it("reads HTTPS in any case, an empty first entry as none, and falls back to localhost", () => {
    expect(requestOrigin(new Headers({ host: "h", "x-forwarded-proto": "HTTPS" }), 1).proto).toBe("https");
    expect(requestOrigin(new Headers({ host: "h", "x-forwarded-proto": "wss" }), 1).proto).toBe("http");
    expect(requestOrigin(new Headers({ host: "h", "x-forwarded-host": " , other" }), 1).host).toBe("h");
    expect(requestOrigin(new Headers({ "x-forwarded-host": "proxied.example" }), 2).host).toBe("proxied.example");
    expect(requestOrigin(new Headers({ host: "h", "x-forwarded-host": "proxied.example , 10.0.0.5", "x-forwarded-proto": "https , http" }), 1)).toEqual({
      proto: "https",
      host: "proxied.example",
    });
    expect(requestOrigin(new Headers(), 0)).toEqual({ proto: "http", host: "localhost" });
  });
});
