import { describe, expect, it } from "vitest";
import { apiKeyPolicy, clientAddress, retryAfterSeconds, UNKNOWN_ADDRESS } from "./throttle";

describe("retryAfterSeconds", () => {
  it("is the time until the next whole token, at least one second", () => {
    expect(retryAfterSeconds(0, 3)).toBe(20);
    expect(retryAfterSeconds(0.5, 3)).toBe(10);
    expect(retryAfterSeconds(0.999, 1200)).toBe(1);
    expect(retryAfterSeconds(0, 1 / 3)).toBe(180);
    // a fraction of a second is rounded up: a client that waits that long finds a token
    expect(retryAfterSeconds(0.5, 7)).toBe(5);
    expect(retryAfterSeconds(0.9, 7)).toBe(1);
  });
});

describe("clientAddress", () => {
  it("ignores X-Forwarded-For unless a proxy is trusted", () => {
    expect(clientAddress("203.0.113.7", 0)).toBe(UNKNOWN_ADDRESS);
    expect(clientAddress(null, 0)).toBe(UNKNOWN_ADDRESS);
  });

  it("behind trusted proxies takes the entry the nearest of them added, not what the client wrote", () => {
    // the client forged "1.2.3.4"; the proxy appended the address it saw
    expect(clientAddress("1.2.3.4, 198.51.100.9", 1)).toBe("198.51.100.9");
    expect(clientAddress("1.2.3.4, 198.51.100.9, 10.0.0.2", 2)).toBe("198.51.100.9");
    expect(clientAddress("198.51.100.9", 1)).toBe("198.51.100.9");
    // fewer entries than trusted proxies: nothing to go by
    expect(clientAddress("198.51.100.9", 2)).toBe(UNKNOWN_ADDRESS);
    expect(clientAddress(null, 1)).toBe(UNKNOWN_ADDRESS);
  });
});

describe("apiKeyPolicy", () => {
  it("allows a minute's worth of requests at once, refilled at the same rate", () => {
    expect(apiKeyPolicy(600)).toEqual({ capacity: 600, perMinute: 600 });
  });
});

describe("clientAddress: empty entries", () => {
  it("skips the empty entries a proxy chain may leave", () => {
    expect(clientAddress("198.51.100.9, ,", 1)).toBe("198.51.100.9");
  });
});
