import { describe, expect, it } from "vitest";
import { timeSlicer } from "./time-slice";

describe("timeSlicer", () => {
  it("lets queued work run once the slice is used up, and not before", async () => {
    let ran = false;
    const pause = timeSlicer(60_000);
    setImmediate(() => (ran = true));
    await pause();
    expect(ran).toBe(false); // within the slice: no yield

    const spent = timeSlicer(0);
    setImmediate(() => (ran = true));
    await spent();
    expect(ran).toBe(true);
  });
});
