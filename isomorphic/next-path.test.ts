import { describe, expect, it } from "vitest";
import { safeNextPath } from "./next-path";

describe("safeNextPath", () => {
  it("keeps a path on this site, with its query", () => expect(safeNextPath("/p/acme/calls?valid=invalid")).toBe("/p/acme/calls?valid=invalid"));
  it.each([undefined, null, "", "p/acme", "//evil.example/x", "/\\evil.example", "https://evil.example", "/p\nSet-Cookie: x"])("sends %j to /", (raw) =>
    expect(safeNextPath(raw)).toBe("/"),
  );
});
