// A deliberately failing browser test: Chromium renders a heading, the assertion expects another.
import { expect, test } from "@playwright/test";

test("canary: this assertion is meant to fail", async ({ page }) => {
  await page.setContent("<h1>Toolgate</h1>");
  await expect(page.getByRole("heading")).toHaveText("Not Toolgate", { timeout: 1_000 });
});
