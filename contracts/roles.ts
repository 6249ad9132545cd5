import { z } from "zod";
import { TEXT_LIMITS, tooLongMessage } from "./text-limits";

/** Project roles, weakest first. Each role can do everything the ones before it can. */
export const ROLES = ["viewer", "member", "admin", "owner"] as const;
export type Role = (typeof ROLES)[number];
export const roleSchema = z.enum(ROLES);

export const ROLE_DESCRIPTIONS: Record<Role, string> = {
  viewer: "reads dashboards, calls and alerts",
  member: "also acknowledges and resolves alerts",
  admin: "also manages tool schemas, alert rules, webhooks and API keys",
  owner: "also manages members and can delete the project",
};

export function hasRole(actual: Role, needed: Role): boolean {
  return ROLES.indexOf(actual) >= ROLES.indexOf(needed);
}

export const projectSlugSchema = z
  .string()
  .max(TEXT_LIMITS.projectSlug, { error: (issue) => tooLongMessage("a project slug", TEXT_LIMITS.projectSlug, String(issue.input).length) })
  .regex(/^[a-z0-9][a-z0-9-]{0,62}$/, "a project slug is 1–63 lower-case letters, digits or dashes, starting with a letter or digit");
