// A deliberately failing test, outside the normal include patterns. .ci/run runs it through
// the `unit` project (TOOLGATE_CANARY=1) and requires a non-zero exit: proof that a failing
// unit test turns the run red.
import { expect, test } from "vitest";

test("canary: this assertion is meant to fail", () => {
  expect(1 + 1).toBe(3);
});
