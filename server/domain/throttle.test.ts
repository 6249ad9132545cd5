import { describe, expect, it } from "vitest";
import { loginDelayMs, recordFailure, takeToken, type Bucket, type Failures } from "./throttle";

describe("takeToken", () => {
  it("allows a burst up to the capacity, then refuses with the wait until the next token", () => {
    let bucket: Bucket | undefined;
    for (let i = 0; i < 3; i++) {
      const r = takeToken(bucket, 3, 0);
      expect(r.allowed).toBe(true);
      bucket = r.bucket;
    }
    const refused = takeToken(bucket, 3, 0);
    expect(refused).toMatchObject({ allowed: false, retryAfterSeconds: 20 });
    expect(takeToken(refused.bucket, 3, 20_000).allowed).toBe(true);
  });
});

describe("login throttling", () => {
  it("lets the first five failures through, then doubles the wait", () => {
    let record: Failures | undefined;
    for (let i = 0; i < 5; i++) {
      expect(loginDelayMs(record, 1000 * i)).toBe(0);
      record = recordFailure(record, 1000 * i);
    }
    expect(loginDelayMs(record, 4000)).toBe(1000);
    record = recordFailure(record, 5000);
    expect(loginDelayMs(record, 5000)).toBe(2000);
    expect(loginDelayMs(record, 7000)).toBe(0);
  });

  it("forgets failures older than the window", () => {
    let record: Failures | undefined;
    for (let i = 0; i < 10; i++) record = recordFailure(record, i);
    expect(loginDelayMs(record, 10)).toBeGreaterThan(0);
    expect(loginDelayMs(record, 16 * 60_000)).toBe(0);
    expect(recordFailure(record, 16 * 60_000).count).toBe(1);
  });
});
