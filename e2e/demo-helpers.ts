import { expect, type Locator } from "@playwright/test";

/** A chart that drew something: its canvas is there and its data attribute is above 0. */
export async function expectChartData(chart: Locator, attribute: "data-points" | "data-series" = "data-points", timeout?: number) {
  await expect(chart).toHaveAttribute(attribute, /^[1-9][0-9]*$/, { timeout });
  await expect(chart.locator("canvas")).toBeVisible();
}
