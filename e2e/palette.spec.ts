import { expect, test, type Page } from "@playwright/test";
import { openPalette } from "./helpers";
import { demoProject, statePath } from "./state";

// The command palette on the demo project: opened from the keyboard (⌘K / Ctrl-K and "/", not
// while typing in a field), it jumps to a tool by a fuzzy name and to a call by its pasted id,
// says so when no call has the id, closes on Escape with the focus back, and "?" lists the
// shortcuts; on a phone the header's Search button opens it. PALETTE_SCREENSHOTS=/tmp/dir saves
// the palette at 1280 and 390 px, light and dark.
test.use({ storageState: statePath("admin.json"), viewport: { width: 1280, height: 800 } });

const shots = process.env.PALETTE_SCREENSHOTS;
const palette = (page: Page) => page.getByTestId("command-palette");
const input = (page: Page) => page.getByTestId("palette-input");

async function screenshot(page: Page, name: string) {
  if (!shots) return;
  for (const colorScheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme });
    await page.screenshot({ path: `${shots}/${name}-${colorScheme}.png` });
  }
  await page.emulateMedia({ colorScheme: "light" });
}

test("keyboard: ⌘K and / open the palette, it jumps to a tool and to a call by id, ? lists the shortcuts", async ({ page }) => {
  test.setTimeout(90_000);
  const base = `/p/${demoProject().slug}`;
  await page.goto(`${base}/calls`);
  const callId = (await page.getByTestId("call-row").first().getAttribute("data-call-id"))!;

  // "/", "?" and "g c" typed in a field are text, not shortcuts
  const field = page.locator("#f-run");
  await field.focus();
  await page.keyboard.type("a/b?gc");
  await expect(field).toHaveValue("a/b?gc");
  await expect(palette(page)).toHaveCount(0);
  await expect(page.getByRole("dialog")).toHaveCount(0);
  await expect(page).toHaveURL(`${base}/calls`);

  await page.goto(base);
  await openPalette(page);
  await expect(input(page)).toBeFocused();
  await expect(palette(page).getByRole("option").first()).toBeVisible();
  // a misspelt, separated name still finds the tool; Enter opens the first result
  await input(page).fill("get_laon");
  await expect(palette(page).getByRole("option").first()).toContainText("getloan");
  await screenshot(page, "palette-1280");
  await page.keyboard.press("Enter");
  // (a tool page of the demo takes seconds to render on a busy machine)
  await expect(page).toHaveURL(`${base}/tools/getloan`, { timeout: 30_000 });
  await expect(palette(page)).toBeHidden();

  // "/" opens it too; arrow keys move; a pasted call id resolves on the server, Enter opens it
  await page.locator("body").click({ position: { x: 5, y: 400 } });
  await page.keyboard.press("/");
  const options = palette(page).getByRole("option");
  await expect(options.first()).toHaveAttribute("aria-selected", "true");
  await page.keyboard.press("ArrowDown");
  await expect(options.nth(1)).toHaveAttribute("aria-selected", "true");
  await expect(options.first()).toHaveAttribute("aria-selected", "false");
  await input(page).fill(callId);
  const call = palette(page).locator('[data-kind="call"]').first();
  await expect(call).toContainText(callId);
  await expect(call).toHaveAttribute("aria-selected", "true");
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(`${base}/calls/${encodeURIComponent(callId)}`, { timeout: 30_000 });

  // an id nobody sent: said plainly
  await page.keyboard.press("Control+K");
  await input(page).fill("zz-no-such-call-9");
  await expect(page.getByTestId("palette-status")).toHaveText(
    'No call, run or incident with an id that is or starts with "zz-no-such-call-9" in this project.',
  );
  await page.keyboard.press("Escape");
  await expect(palette(page)).toBeHidden();

  // opened from its button, Escape gives the focus back to the button
  const button = page.getByTestId("palette-button");
  await button.click();
  await expect(input(page)).toBeFocused();
  await page.keyboard.press("Escape");
  await expect(button).toBeFocused();

  // the recent visits lead when nothing is typed
  await page.keyboard.press("Control+K");
  const recent = palette(page).getByRole("group", { name: "Recent" });
  await expect(recent.getByRole("option").first()).toContainText(`Call ${callId}`);
  await expect(recent).toContainText("getloan");
  await page.keyboard.press("Escape");

  await page.locator("body").click({ position: { x: 5, y: 400 } });
  await page.keyboard.press("?");
  const shortcuts = page.getByRole("dialog", { name: "Keyboard shortcuts" });
  await expect(shortcuts).toBeVisible();
  for (const what of ["Open the command palette", "Go to Tools", "Go to Calls", "Show these shortcuts"]) await expect(shortcuts).toContainText(what);
  await screenshot(page, "shortcuts-1280");
  await page.keyboard.press("Escape");
  await expect(shortcuts).toBeHidden();
  // g then c goes to the calls
  await page.keyboard.press("g");
  await page.keyboard.press("c");
  await expect(page).toHaveURL(`${base}/calls`, { timeout: 30_000 });
});

test("phone: the header's Search button opens the palette, a tap jumps", async ({ page }) => {
  test.setTimeout(60_000);
  const base = `/p/${demoProject().slug}`;
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(base);
  const button = page.getByTestId("palette-button-phone");
  await expect(button).toBeVisible();
  await expect(page.getByTestId("palette-button")).toBeHidden();
  await button.click();
  await input(page).fill("listopen");
  const item = palette(page).getByRole("option", { name: /listopenloans/ });
  await expect(item).toBeVisible();
  const box = (await palette(page).boundingBox())!;
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(390);
  await screenshot(page, "palette-390");
  await item.click();
  await expect(page).toHaveURL(`${base}/tools/listopenloans`, { timeout: 30_000 });
});
