import { describe, expect, it } from "vitest";
import { sectionFromHash } from "./page-sections";

describe("sectionFromHash", () => {
  const ids = ["overview", "patterns", "dry-run", "versions", "schema"];
  it("is the section the fragment names", () => {
    expect(sectionFromHash("#dry-run", ids)).toBe("dry-run");
    expect(sectionFromHash("schema", ids)).toBe("schema");
  });
  it("is the first section for no fragment, an unknown one or broken encoding", () => {
    expect(sectionFromHash("", ids)).toBe("overview");
    expect(sectionFromHash("#nope", ids)).toBe("overview");
    expect(sectionFromHash("#%E0%A4%A", ids)).toBe("overview");
  });
});
