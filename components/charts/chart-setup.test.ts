import { describe, expect, it } from "vitest";
import { markerAnnotations } from "./chart-setup";
import type { ChartTheme } from "./theme";

const style = { line: "#111111", labelBackground: "#eeeeee", labelText: "#222222" };
const theme = { marker: style, threshold: style } as unknown as ChartTheme;
const hour = 3_600_000;
const labels = [0, 1, 2, 3].map((h) => h * hour);

describe("markerAnnotations", () => {
  it("writes no marker's label on the plot, even one or two markers: each shows while the pointer is on its line", () => {
    for (const markers of [
      [{ at: hour, label: "fired", kind: "incident" as const }],
      [
        { at: hour, label: "getloan v2" },
        { at: hour + 60_000, label: "fired" },
      ],
    ]) {
      const lines = Object.values(markerAnnotations(markers, labels, theme)) as { label: { display: boolean }; enter?: unknown; leave?: unknown }[];
      expect(lines).toHaveLength(markers.length);
      for (const line of lines) {
        expect(line.label.display).toBe(false);
        expect(line.enter).toEqual(expect.any(Function));
        expect(line.leave).toEqual(expect.any(Function));
      }
    }
  });
  it("shows the label on enter and hides it on leave", () => {
    const line = Object.values(markerAnnotations([{ at: 2 * hour, label: "fired" }], labels, theme))[0] as unknown as {
      xMin: number;
      enter: (ctx: unknown) => boolean;
      leave: (ctx: unknown) => boolean;
    };
    expect(line.xMin).toBe(2);
    const element = { label: { options: { display: false } } };
    expect(line.enter({ element })).toBe(true);
    expect(element.label.options.display).toBe(true);
    line.leave({ element });
    expect(element.label.options.display).toBe(false);
  });
});
