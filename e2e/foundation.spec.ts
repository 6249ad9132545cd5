import { expect, test } from "@playwright/test";

test("the app is served from a real build and its database is up", async ({ page, request }) => {
  const health = await request.get("/api/health");
  expect(health.status()).toBe(200);
  expect(await health.json()).toEqual({ status: "ok", database: "up" });

  await page.goto("/");
  await expect(page).toHaveTitle(/Toolgate/);
});
