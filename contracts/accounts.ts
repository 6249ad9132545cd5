import { z } from "zod";
import { projectSlugSchema, roleSchema } from "./roles";
import { limitedText, TEXT_LIMITS, tooLongMessage } from "./text-limits";

export const emailSchema = z.email("enter an email address such as ops@example.com").max(254);
const passwordSchema = z
  .string()
  .min(12, "the password must be at least 12 characters")
  .max(TEXT_LIMITS.password, { error: (issue) => tooLongMessage("the password", TEXT_LIMITS.password, String(issue.input).length) });
export const projectNameSchema = limitedText("the project name", TEXT_LIMITS.projectName).min(1, "a project needs a name");
const personNameSchema = limitedText("your name", TEXT_LIMITS.personName);

export const setupInput = z.object({
  email: emailSchema,
  password: passwordSchema,
  name: personNameSchema.optional(),
  projectName: projectNameSchema,
  projectSlug: projectSlugSchema,
});

export const signInInput = z.object({ email: z.string().trim().min(1, "enter your email"), password: z.string().min(1, "enter your password") });

export const changePasswordInput = z.object({ current: z.string().min(1), next: passwordSchema });

export const createProjectInput = z.object({ name: projectNameSchema, slug: projectSlugSchema });

export const addMemberInput = z.object({ email: emailSchema, role: roleSchema });

/** The secret of an invitation link (`/invite/<token>`). */
export const invitationTokenSchema = z
  .string()
  .regex(/^[\w-]{43}$/, "this is not an invitation link's code: copy the whole link the owner gave you")
  .describe("invitation token");
export const invitationInput = z.object({ token: invitationTokenSchema });
/** A new account made by accepting an invitation: the address is the holder's choice (it is only a sign-in name). */
export const acceptAsNewAccountInput = invitationInput.extend({ email: emailSchema, password: passwordSchema, name: personNameSchema.optional() });

export const apiKeyNameSchema = limitedText("the key name", TEXT_LIMITS.apiKeyName).min(1, "name the key after the harness that uses it");

/** What an API key may do: `ingest` sends events and tool schemas (harnesses), `read` fetches figures (CI gates). */
export const API_KEY_SCOPES = ["ingest", "read"] as const;
export type ApiKeyScope = (typeof API_KEY_SCOPES)[number];
export const apiKeyScopeSchema = z.enum(API_KEY_SCOPES, { error: 'scope must be "ingest" or "read"' });

/** "My Agents" → "my-agents": a suggestion for the slug field. */
export function slugify(name: string) {
  return (
    name
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-+|-+$/g, "")
      .slice(0, 63) || "project"
  );
}

/** Retention: raw calls and rollups older than this many days are deleted (rollups are kept at least as long as calls). The column defaults in schema.prisma say the same. */
export const RETENTION_DEFAULTS = { callsDays: 90, rollupsDays: 400 } as const;
/** Whole days: a JSON number, or the decimal digits a form field or command line sends ("30"); never true, [5], "0x10" or "1e2". */
const retentionDays = (what: string) =>
  z
    .union([z.number(), z.string().regex(/^\d+$/).transform(Number)], {
      error: (issue) => `${what}: enter a whole number of days (got ${JSON.stringify(issue.input)})`,
    })
    .pipe(z.number().int(`${what}: whole days only`).min(1, `${what}: at least 1 day`).max(3650, `${what}: at most 3650 days (10 years)`));
export const retentionInput = z
  .object({ callsDays: retentionDays("raw calls"), rollupsDays: retentionDays("rollups") })
  .refine((r) => r.rollupsDays >= r.callsDays, {
    path: ["rollupsDays"],
    message: "rollups must be kept at least as long as raw calls (charts of older ranges read them)",
  });
export type RetentionInput = z.infer<typeof retentionInput>;
