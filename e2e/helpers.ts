import { randomUUID } from "node:crypto";
import { expect, type Page } from "@playwright/test";

/** The one admin of the e2e database: e2e/first-run.spec.ts creates it through /setup. */
export const ADMIN = {
  email: "admin@toolgate.test",
  password: "e2e admin password, long enough",
  name: "E2E Admin",
  projectName: "Acme agents",
  projectSlug: "acme-agents",
};

/** Unique names, so that specs never depend on each other or on their order. */
export const unique = (prefix: string) => `${prefix}-${randomUUID().slice(0, 8)}`;

const path = (page: Page) => new URL(page.url()).pathname;

/** The /setup form, filled with ADMIN; lands on the first project. */
export async function completeSetup(page: Page) {
  await expect(page).toHaveURL(/\/setup$/);
  await page.getByLabel("Email").fill(ADMIN.email);
  await page.getByLabel("Password").fill(ADMIN.password);
  await page.getByLabel(/^Name/).fill(ADMIN.name);
  await page.getByLabel("Project name").fill(ADMIN.projectName);
  await expect(page.getByLabel("Slug")).toHaveValue(ADMIN.projectSlug);
  await page.getByRole("button", { name: "Create admin and project" }).click();
  await expect(page).toHaveURL(`/p/${ADMIN.projectSlug}`);
}

/** Fills and sends the /login form (the page must be on /login). */
export async function signIn(page: Page, email: string, password: string) {
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
}

/** Signed in as ADMIN, doing the first-run setup when nobody exists yet. Answers the project slug it lands on. */
export async function ensureAdmin(page: Page): Promise<string> {
  await page.goto("/login");
  if (path(page) === "/setup") {
    await completeSetup(page);
  } else if (path(page) === "/login") {
    await signIn(page, ADMIN.email, ADMIN.password);
  }
  await expect(page).toHaveURL(/\/p\/[a-z0-9-]+$/);
  return path(page).split("/")[2]!;
}

/** Creates a project through /projects/new; answers its slug (the suggested one unless given). */
export async function createProjectViaUi(page: Page, name: string, slug?: string): Promise<string> {
  await page.goto("/projects/new");
  await page.getByLabel("Project name").fill(name);
  if (slug) await page.getByLabel("Slug").fill(slug);
  const finalSlug = await page.getByLabel("Slug").inputValue();
  await page.getByRole("button", { name: "Create project" }).click();
  await expect(page).toHaveURL(`/p/${finalSlug}`);
  return finalSlug;
}

/** Creates an API key of the ingest scope through Settings → API keys; answers the key, shown once. */
export async function createKeyViaUi(page: Page, slug: string, name: string): Promise<string> {
  await page.goto(`/p/${slug}/settings/keys`);
  await page.getByLabel("Name", { exact: true }).fill(name);
  await page.getByRole("button", { name: "Create key" }).click();
  return (await page.getByTestId("new-api-key").textContent())!.trim();
}

export async function signOut(page: Page) {
  // a click that lands before React has hydrated the page does nothing: click again until it signs out
  await expect(async () => {
    await page.getByRole("button", { name: "Sign out" }).click();
    await expect(page).toHaveURL(/\/login$/, { timeout: 3_000 });
  }).toPass({ timeout: 15_000 });
}

/** Opens the command palette with Ctrl-K: a key pressed before React has hydrated the page has no listener yet, so press again until it opens. */
export async function openPalette(page: Page) {
  await expect(async () => {
    await page.keyboard.press("Control+K");
    await expect(page.getByTestId("command-palette")).toBeVisible({ timeout: 1_000 });
  }).toPass({ timeout: 15_000 });
}
