import { expect, test } from "@playwright/test";
import { ADMIN, createProjectViaUi, ensureAdmin, signIn, signOut, unique } from "./helpers";
import { SIGNED_OUT } from "./state";

// Accounts, sessions and project settings. The first run (/setup) is e2e/first-run.spec.ts.
// Tests start signed in as the admin with the session of e2e/shared.setup.ts; those about
// signing in and out start signed out and sign in through the form, with sessions of their own
// (signing out ends only the session it is done in).
// Whole sign-in journeys: several argon2 hashes each, on 2-core machines that may be busy.
test.describe.configure({ timeout: 120_000 });

test.describe("without a session", () => {
  test.use({ storageState: SIGNED_OUT });

  test("signed out, protected pages go to /login; a wrong password says so; sign-in returns to the page", async ({ page, request }) => {
    const slug = await ensureAdmin(page);
    await signOut(page);

    for (const path of ["/", "/projects/new", `/p/${slug}`, `/p/${slug}/settings`, "/account/password"]) {
      await page.goto(path);
      await expect(page, `${path} goes to /login`).toHaveURL(/\/login(\?|$)/);
    }
    expect((await request.get("/api/trpc/projects.list")).status()).toBe(401);

    await page.goto(`/p/${slug}/settings/members`);
    await expect(page).toHaveURL(`/login?next=${encodeURIComponent(`/p/${slug}/settings/members`)}`);
    await signIn(page, ADMIN.email, "not the password at all");
    await expect(page.getByRole("alert").filter({ hasText: "Wrong email or password." })).toBeVisible();
    await expect(page).toHaveURL(/\/login\?next=/);

    await signIn(page, ADMIN.email, ADMIN.password);
    await expect(page).toHaveURL(`/p/${slug}/settings/members`);
    await expect(page.getByRole("heading", { name: "Members", exact: true })).toBeVisible();
  });

  test("?next= only leads to paths on this site", async ({ page }) => {
    await page.goto("/login?next=//evil.example/x");
    await signIn(page, ADMIN.email, ADMIN.password);
    await expect(page).toHaveURL(/localhost:\d+\/p\/[a-z0-9-]+$/);
  });

  test("pages carry the security headers", async ({ page }) => {
    const response = await page.goto("/login");
    expect(response).not.toBeNull();
    const headers = response!.headers();
    const csp = headers["content-security-policy"] ?? "";
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("script-src 'self' 'unsafe-inline'");
    expect(csp).not.toContain("unsafe-eval");
    expect(headers["x-content-type-options"]).toBe("nosniff");
    expect(headers["x-frame-options"]).toBe("DENY");
    expect(headers["referrer-policy"]).toBe("strict-origin-when-cross-origin");
  });

  test("a page of another origin cannot sign the user out, nor post a form; the app's own button can", async ({ page }) => {
    await ensureAdmin(page);
    const sibling = await page.request.post("/api/trpc/auth.signOut", {
      headers: { origin: "http://evil.localhost", "sec-fetch-site": "same-site" },
      data: {},
    });
    expect(sibling.status()).toBe(403);
    expect((await sibling.json()).error.message).toContain("Refused a same-site request");
    const form = await page.request.post("/api/trpc/auth.signOut", { multipart: { anything: "x" } });
    expect(form.status()).toBe(403);
    expect((await form.json()).error.message).toContain("multipart/form-data");
    await page.reload();
    await expect(page.getByTestId("signed-in-email"), "still signed in").toHaveText(ADMIN.email);
    await signOut(page);
  });

  test("a request body over 4 MB gets 413 with a message naming the limit", async ({ request }) => {
    const body = Buffer.alloc(4 * 1024 * 1024 + 1, "a");
    const response = await request.post("/api/trpc/ingest.batch", { headers: { "content-type": "application/json" }, data: body });
    expect(response.status()).toBe(413);
    const json = await response.json();
    expect(json.error.message).toContain("4 MB");
    expect(json.error.data.code).toBe("PAYLOAD_TOO_LARGE");
  });
});

test("an API key made in the browser works until it is revoked in the browser", async ({ page }) => {
  const slug = await createProjectViaUi(page, unique("Keys"));
  await page.goto(`/p/${slug}/settings/keys`);
  await page.getByLabel("Name").fill("e2e harness");
  await page.getByRole("button", { name: "Create key" }).click();
  await expect(page.getByText("it will not be shown again")).toBeVisible();
  const key = (await page.getByTestId("new-api-key").textContent())?.trim() ?? "";
  expect(key).toMatch(/^tg_[a-z0-9]{10}_[A-Za-z0-9_-]{43}$/);
  const prefix = key.split("_")[1]!;
  const row = page.getByTestId("api-key-row").filter({ hasText: "e2e harness" });
  await expect(row).toContainText(`tg_${prefix}_…`);
  await expect(row).toContainText("active");

  const whoami = () => page.request.get("/api/trpc/system.whoami", { headers: { Authorization: `Bearer ${key}` } });
  const ok = await whoami();
  expect(ok.status()).toBe(200);
  expect(await ok.json()).toEqual({ result: { data: { project: slug, scope: "ingest" } } });

  // shown once: after a reload only the prefix is left
  await page.reload();
  await expect(row).toContainText(`tg_${prefix}_…`);
  await expect(page.getByText(key)).toHaveCount(0);

  await row.getByRole("button", { name: "Revoke e2e harness" }).click();
  await row.getByRole("button", { name: "Revoke", exact: true }).click();
  await expect(row).toContainText("revoked");
  await expect(row.getByRole("button")).toHaveCount(0);

  const refused = await whoami();
  expect(refused.status()).toBe(401);
  expect((await refused.json()).error.message).toContain("revoked");
});

test("an owner renames a project and deletes it after typing its slug", async ({ page }) => {
  const slug = await createProjectViaUi(page, unique("Doomed"));
  await page.goto(`/p/${slug}/settings`);
  // a name over the limit is never cut: the field counts it, and the server refuses it saying so
  const name = page.getByLabel("Name", { exact: true });
  await expect(page.getByTestId("length-count")).toHaveText(/^\d+ \/ 80 characters$/);
  const long = `Renamed ${"x".repeat(200)}`;
  await name.fill(long);
  await expect(name).toHaveValue(long);
  await expect(page.getByTestId("length-count")).toHaveText("128 over the limit of 80 characters: shorten it (nothing is cut)");
  await page.getByRole("button", { name: "Save name" }).click();
  await expect(page.getByText("The project name is at most 80 characters; you sent 208: shorten it (nothing is cut).")).toBeVisible();
  const renamed = unique("Renamed");
  await name.fill(renamed);
  await page.getByRole("button", { name: "Save name" }).click();
  await expect(page.getByText("Saved.", { exact: true })).toBeVisible();
  await expect(page.locator("#project-switcher option:checked")).toHaveText(renamed);

  // retention: a refusal says what is wrong; a valid change is kept across a reload
  await page.getByLabel("Keep raw calls (days)").fill("30");
  await page.getByLabel("Keep rollups (days)").fill("20");
  await page.getByRole("button", { name: "Save retention" }).click();
  await expect(page.getByText(/at least as long as/i).first()).toBeVisible();
  await page.getByLabel("Keep rollups (days)").fill("365");
  await page.getByRole("button", { name: "Save retention" }).click();
  await expect(page.getByText("Saved. The next sweep applies it.")).toBeVisible();
  await page.reload();
  await expect(page.getByLabel("Keep raw calls (days)")).toHaveValue("30");
  await expect(page.getByLabel("Keep rollups (days)")).toHaveValue("365");

  const remove = page.getByRole("button", { name: "Delete this project" });
  await expect(remove).toBeDisabled();
  await page.getByLabel("to confirm").fill("not-the-slug");
  await expect(remove).toBeDisabled();
  await page.getByLabel("to confirm").fill(slug);
  await remove.click();
  await expect(page).toHaveURL(/\/p\/[a-z0-9-]+$/);
  expect(new URL(page.url()).pathname).not.toBe(`/p/${slug}`);
  const gone = await page.goto(`/p/${slug}`);
  expect(gone?.status()).toBe(404);
});

test("a project name with markup shows as literal text and runs nothing", async ({ page }) => {
  const dialogs: string[] = [];
  page.on("dialog", (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  const name = `<script>alert(1)</script> & "quotes"`;
  const slug = await createProjectViaUi(page, name, unique("xss"));

  await expect(page.getByRole("heading", { level: 1 })).toHaveText(name);
  await expect(page.locator("#project-switcher option:checked")).toHaveText(name);
  await page.goto(`/p/${slug}/settings`);
  await expect(page.getByLabel("Name", { exact: true })).toHaveValue(name);

  // the server's HTML never holds the name as markup (also not inside the RSC payload)
  const html = await (await page.request.get(`/p/${slug}`)).text();
  expect(html).not.toContain("<script>alert(1)</script>");
  expect(dialogs).toEqual([]);
});

test("an invited member joins through the link with an account of their own; removed, the account goes", async ({ page, browser }) => {
  const slug = await createProjectViaUi(page, unique("Invites"));
  await page.goto(`/p/${slug}/settings/members`);
  const email = `${unique("invitee")}@example.test`;
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Role", { exact: true }).selectOption("viewer");
  await page.getByRole("button", { name: "Invite", exact: true }).click();
  await expect(page.getByText("Having an account with this address is not enough to join.")).toBeVisible();
  const link = (await page.getByTestId("invitation-link").textContent())?.trim() ?? "";
  expect(link).toMatch(/^http:\/\/localhost:\d+\/invite\/[\w-]{43}$/);
  await expect(page.getByTestId("invitation-row").filter({ hasText: email })).toBeVisible();
  await expect(page.getByTestId("member-row").filter({ hasText: email }), "not a member before accepting").toHaveCount(0);

  // the invitee opens the link in a browser of their own; the admin's session stays as it is
  const invitee = await browser.newPage({ storageState: SIGNED_OUT });
  await invitee.goto(link);
  await expect(invitee.getByRole("heading", { name: /^Join / })).toBeVisible();
  await expect(invitee.getByLabel("Email")).toHaveValue(email);
  const chosen = "my very own password";
  await invitee.getByLabel("Password", { exact: true }).fill(chosen);
  await invitee.getByLabel("Repeat the password").fill(chosen);
  await invitee.getByRole("button", { name: "Create account and join" }).click();
  await expect(invitee).toHaveURL(`/p/${slug}`);
  await expect(invitee.getByTestId("signed-in-email")).toHaveText(email);

  // a viewer sees the members but none of the owner's controls, and no API keys tab
  await invitee.goto(`/p/${slug}/settings/members`);
  await expect(invitee.getByTestId("member-row").filter({ hasText: email })).toContainText("viewer");
  await expect(invitee.getByRole("heading", { name: "Invite a member" })).toHaveCount(0);
  await expect(invitee.getByRole("button", { name: /Remove/ })).toHaveCount(0);
  await expect(invitee.getByRole("link", { name: "API keys" })).toHaveCount(0);

  // the link opened once
  await invitee.goto(link);
  await expect(invitee.getByRole("heading", { name: "This invitation cannot be used" })).toBeVisible();

  // the owner removes them: asked first, then gone; the account was made by the link and is used nowhere else, so it goes too
  await page.reload();
  const row = page.getByTestId("member-row").filter({ hasText: email });
  await row.getByRole("button", { name: `Remove ${email}` }).click();
  await expect(row).toContainText("Remove from project?");
  await row.getByRole("button", { name: `Confirm removing ${email}` }).click();
  await expect(row).toHaveCount(0);
  await invitee.goto(`/p/${slug}`);
  await expect(invitee).toHaveURL(/\/login/);
  await signIn(invitee, email, chosen);
  await expect(invitee.getByRole("alert").filter({ hasText: "Wrong email or password." })).toBeVisible();
  await invitee.close();
});
