import { expect, test, type Page } from "@playwright/test";
import { demoProject } from "./state";
import { expectChartData } from "./demo-helpers";

// The colour scheme follows the system's (prefers-color-scheme), the charts included, and
// changes with it while a page is open.

/** Relative luminance (WCAG) of a CSS colour as the browser computes it. */
async function luminance(page: Page, selector: string, property: "backgroundColor" | "color") {
  return page.evaluate(
    ([selector, property]) => {
      const canvas = document.createElement("canvas").getContext("2d")!;
      canvas.fillStyle = getComputedStyle(document.querySelector(selector)!)[property as "color"];
      canvas.fillRect(0, 0, 1, 1);
      const [r, g, b] = [...canvas.getImageData(0, 0, 1, 1).data].map((c) => {
        const v = c / 255;
        return v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
      });
      return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
    },
    [selector, property] as const,
  );
}

/** The opaque pixels of the first rate chart's canvas within a small distance of a colour. */
async function chartPixelsNear(page: Page, hex: string) {
  return page
    .getByTestId("rate-chart")
    .first()
    .locator("canvas")
    .evaluate((canvas: HTMLCanvasElement, hex) => {
      const [r, g, b] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));
      const { data } = canvas.getContext("2d")!.getImageData(0, 0, canvas.width, canvas.height);
      let n = 0;
      for (let i = 0; i < data.length; i += 4) {
        if (data[i + 3]! > 200 && Math.abs(data[i]! - r!) + Math.abs(data[i + 1]! - g!) + Math.abs(data[i + 2]! - b!) < 24) n++;
      }
      return n;
    }, hex);
}

const chartText = (page: Page) => page.evaluate(() => getComputedStyle(document.documentElement).getPropertyValue("--chart-text").trim());

test("light and dark follow the system: the page, its cards and the chart's labels", async ({ page }) => {
  await page.emulateMedia({ colorScheme: "light" });
  await page.goto(`/p/${demoProject().slug}`);
  await expectChartData(page.getByTestId("rate-chart").first());
  expect(await luminance(page, "body", "backgroundColor")).toBeGreaterThan(0.8);
  expect(await luminance(page, "main section", "backgroundColor")).toBeGreaterThan(0.8);
  expect(await luminance(page, "main h1", "color")).toBeLessThan(0.1);
  const lightText = await chartText(page);
  expect(lightText).toMatch(/^#[0-9a-f]{6}$/i);
  await expect.poll(() => chartPixelsNear(page, lightText)).toBeGreaterThan(20); // axis ticks and legend

  // the system switches to dark while the page is open: the page and the chart follow
  await page.emulateMedia({ colorScheme: "dark" });
  expect(await luminance(page, "body", "backgroundColor")).toBeLessThan(0.05);
  expect(await luminance(page, "main section", "backgroundColor")).toBeLessThan(0.05);
  expect(await luminance(page, "main h1", "color")).toBeGreaterThan(0.6);
  const darkText = await chartText(page);
  expect(darkText).not.toBe(lightText);
  await expect.poll(() => chartPixelsNear(page, darkText)).toBeGreaterThan(20);
  // what is left near the light scheme's text colour is where a series line crosses a blend
  const [darkPixels, lightPixels] = [await chartPixelsNear(page, darkText), await chartPixelsNear(page, lightText)];
  expect(lightPixels, `${lightPixels} pixels of the light text colour against ${darkPixels} of the dark one`).toBeLessThan(darkPixels / 10);
});
