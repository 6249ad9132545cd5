import { expect, test, type Page } from "@playwright/test";
import { ADMIN, createProjectViaUi, unique } from "./helpers";
import { SIGNED_OUT } from "./state";

// The forms with a secret, submitted before any JavaScript runs (a slow network: the button
// is live before the page's script is): they post to app/api/forms and come back with a
// redirect, so no password ever lands in a URL — not in the address bar, history or a request.
test.describe.configure({ timeout: 120_000 });

/** Every URL the page requested or showed, to search for secrets afterwards. */
function urlsOf(page: Page) {
  const urls: string[] = [];
  page.on("request", (r) => urls.push(r.url()));
  page.on("framenavigated", (f) => urls.push(f.url()));
  return urls;
}

const expectNoneContain = (urls: string[], secrets: string[]) => {
  for (const secret of secrets) {
    for (const variant of [secret, encodeURIComponent(secret), secret.replaceAll(" ", "+")]) {
      expect(
        urls.filter((u) => u.includes(variant)),
        `"${secret}" in a URL`,
      ).toEqual([]);
    }
  }
};

test("sign-in, an invitation link, and a change of password work without JavaScript and never put a password in a URL", async ({ page, browser }) => {
  // the admin (JavaScript on) invites someone and copies the link
  const slug = await createProjectViaUi(page, unique("No JS"));
  await page.goto(`/p/${slug}/settings/members`);
  const email = `${unique("nojs")}@example.test`;
  await page.getByLabel("Email").fill(email);
  await page.getByRole("button", { name: "Invite", exact: true }).click();
  const link = (await page.getByTestId("invitation-link").textContent())!.trim();
  expect(link).toMatch(/\/invite\/[\w-]{43}$/);

  const context = await browser.newContext({ javaScriptEnabled: false, storageState: SIGNED_OUT });
  const visitor = await context.newPage();
  const urls = urlsOf(visitor);
  const wrong = "a wrong password, typed";
  const chosen = "the invitee's own password";
  const changed = "a changed password, long";

  // sign-in: a wrong password comes back as a message on the page
  await visitor.goto("/login");
  await visitor.getByLabel("Email").fill(ADMIN.email);
  await visitor.getByLabel("Password").fill(wrong);
  await visitor.getByRole("button", { name: "Sign in" }).click();
  await expect(visitor).toHaveURL(/\/login\?/);
  await expect(visitor.getByRole("alert")).toContainText("Wrong email or password.");

  // the invitation link: a new account, first with two different passwords
  await visitor.goto(link);
  await expect(visitor.getByRole("heading", { name: /^Join / })).toBeVisible();
  await visitor.getByLabel("Email").fill(email);
  await visitor.getByLabel("Password", { exact: true }).fill(chosen);
  await visitor.getByLabel("Repeat the password").fill(wrong);
  await visitor.getByRole("button", { name: "Create account and join" }).click();
  await expect(visitor.getByRole("alert")).toContainText("The two new passwords differ");
  await visitor.getByLabel("Password", { exact: true }).fill(chosen);
  await visitor.getByLabel("Repeat the password").fill(chosen);
  await visitor.getByRole("button", { name: "Create account and join" }).click();
  await expect(visitor).toHaveURL(`/p/${slug}`);
  await expect(visitor.getByTestId("signed-in-email")).toHaveText(email);

  // a change of password: the wrong current one first
  await visitor.goto("/account/password");
  await visitor.getByLabel("Current password").fill(wrong);
  await visitor.getByLabel("New password", { exact: true }).fill(changed);
  await visitor.getByLabel("Repeat the new password").fill(changed);
  await visitor.getByRole("button", { name: "Set new password" }).click();
  await expect(visitor.getByRole("alert")).toContainText("The current password is wrong.");
  await visitor.getByLabel("Current password").fill(chosen);
  await visitor.getByLabel("New password", { exact: true }).fill(changed);
  await visitor.getByLabel("Repeat the new password").fill(changed);
  await visitor.getByRole("button", { name: "Set new password" }).click();
  await expect(visitor).toHaveURL(`/p/${slug}`);

  // signed out (a fresh browser), the new password signs in through the form
  await context.clearCookies();
  await visitor.goto("/login");
  await visitor.getByLabel("Email").fill(email);
  await visitor.getByLabel("Password").fill(changed);
  await visitor.getByRole("button", { name: "Sign in" }).click();
  await expect(visitor).toHaveURL(`/p/${slug}`);

  expect(
    urls.some((u) => u.includes("/api/forms/")),
    "the forms posted to app/api/forms",
  ).toBe(true);
  expectNoneContain(urls, [wrong, chosen, changed]);
  await context.close();
});

test("a form post from another site is refused", async ({ request }) => {
  const response = await request.post("/api/forms/sign-in", {
    headers: { origin: "http://evil.example", "sec-fetch-site": "cross-site", "content-type": "application/x-www-form-urlencoded" },
    data: `email=${encodeURIComponent(ADMIN.email)}&password=${encodeURIComponent(ADMIN.password)}`,
  });
  expect(response.status()).toBe(403);
  expect((await response.json()).error).toContain("cross-site");
});
