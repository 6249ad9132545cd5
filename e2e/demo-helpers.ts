import { expect, type Locator, type Page } from "@playwright/test";
import { createProjectViaUi, unique } from "./helpers";

/**
 * A fresh project filled with demo data through the UI (the page must be signed in): creates
 * the project, checks its empty overview and clicks "Load demo data". Answers the slug.
 */
export async function createDemoProject(page: Page, name = unique("Dashboards")): Promise<string> {
  const slug = await createProjectViaUi(page, name);
  await expect(page.getByText("No events yet")).toBeVisible();
  await page.getByRole("button", { name: "Load demo data" }).click();
  // ~30,000 events through ingestion, then the page refreshes into the dashboards
  await expectChartData(page.getByTestId("rate-chart"), "data-points", 120_000);
  return slug;
}

/** A chart that drew something: its canvas is there and its data attribute is above 0. */
export async function expectChartData(chart: Locator, attribute: "data-points" | "data-series" = "data-points", timeout?: number) {
  await expect(chart).toHaveAttribute(attribute, /^[1-9][0-9]*$/, { timeout });
  await expect(chart.locator("canvas")).toBeVisible();
}
