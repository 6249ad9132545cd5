import { TRPCError } from "@trpc/server";
import { ZodError } from "zod";
import { invitationTokenSchema } from "@/contracts/accounts";
import { PASTED_TOOLS_MAX_CHARS } from "@/contracts/tools";
import { describeIssues, issueLine } from "@/contracts/issues";
import { crossSiteRefusal } from "@/server/http/cross-site";
import { ownOrigins } from "@/server/services/origins";
import { safeNextPath } from "@/isomorphic/next-path";
import { readCookie, SESSION_COOKIE } from "@/server/services/auth/sessions";
import { readLimited } from "@/server/http/read-limited";
import { createContext } from "@/server/trpc/init";
import { createCaller } from "@/server/routers/root";

export const dynamic = "force-dynamic";

type Caller = ReturnType<typeof createCaller>;
type Form = {
  /** the page the form is on, where an error is shown (`?error=`) */
  page: (data: URLSearchParams) => string;
  /** runs the form's procedure and answers where to go next */
  submit: (caller: Caller, data: URLSearchParams) => Promise<string>;
  /** bytes the post may hold (FORM_BODY_LIMIT unless said) */
  bodyLimit?: number;
};

const invitationPage = (data: URLSearchParams) => {
  const token = invitationTokenSchema.safeParse(data.get("token"));
  return token.success ? `/invite/${token.data}` : "/";
};
const text = (data: URLSearchParams, key: string) => data.get(key) ?? "";
function sameNewPassword(data: URLSearchParams, field: string) {
  if (text(data, field) !== text(data, "repeat"))
    throw new TRPCError({ code: "BAD_REQUEST", message: "The two new passwords differ: type the same one twice." });
  return text(data, field);
}

/** The page a tool form came from, with what to show there (`form` names the form, for its notice). */
function backTo(data: URLSearchParams, shown: Record<string, string>) {
  const url = new URL(safeNextPath(data.get("back")), "http://toolgate.invalid");
  for (const [key, value] of Object.entries(shown)) url.searchParams.set(key, value);
  return `${url.pathname}${url.search}`;
}
/** The page an alerts form came from (a same-site path), where it goes back to. */
const back = (data: URLSearchParams) => safeNextPath(data.get("back"));
const optional = (data: URLSearchParams, key: string) => text(data, key).trim() || undefined;

/**
 * The forms that carry a secret (sign-in, first-run setup, change of password, invitation
 * links) post here when the page's JavaScript has not taken over yet (a slow network): the
 * same tRPC procedures, then a redirect — never the fields in a URL. With JavaScript the
 * forms call tRPC themselves and never come here. The alerts' silence, end-silence, triage and
 * snooze forms are plain HTML forms that always post here, so they work the same without
 * JavaScript.
 */
const FORMS: Record<string, Form> = {
  "sign-in": {
    page: (data) => `/login?next=${encodeURIComponent(safeNextPath(data.get("next")))}`,
    submit: async (caller, data) => {
      await caller.auth.signIn({ email: text(data, "email"), password: text(data, "password") });
      return safeNextPath(data.get("next"));
    },
  },
  setup: {
    page: () => "/setup",
    submit: async (caller, data) => {
      const { project } = await caller.auth.setup({
        email: text(data, "email"),
        password: text(data, "password"),
        name: text(data, "name").trim() || undefined,
        projectName: text(data, "projectName"),
        projectSlug: text(data, "projectSlug"),
      });
      return `/p/${project}`;
    },
  },
  "change-password": {
    page: () => "/account/password",
    submit: async (caller, data) => {
      await caller.auth.changePassword({ current: text(data, "current"), next: sameNewPassword(data, "next") });
      return "/";
    },
  },
  "accept-invitation": {
    page: invitationPage,
    submit: async (caller, data) => `/p/${(await caller.members.accept({ token: text(data, "token") })).project}`,
  },
  silence: {
    page: back,
    submit: async (caller, data) => {
      await caller.alerts.silence({
        project: text(data, "project"),
        silence: {
          ruleId: optional(data, "ruleId"),
          tool: optional(data, "tool"),
          model: optional(data, "model"),
          minutes: Number(text(data, "minutes")),
          reason: text(data, "reason"),
        },
      });
      return back(data);
    },
  },
  "end-silence": {
    page: back,
    submit: async (caller, data) => {
      await caller.alerts.endSilence({ project: text(data, "project"), id: text(data, "id") });
      return back(data);
    },
  },
  triage: {
    page: back,
    submit: async (caller, data) => {
      await caller.alerts.triage({
        project: text(data, "project"),
        id: text(data, "id"),
        assigneeId: text(data, "assigneeId") || null,
        note: text(data, "note"),
      });
      return back(data);
    },
  },
  snooze: {
    page: back,
    submit: async (caller, data) => {
      await caller.alerts.snooze({
        project: text(data, "project"),
        id: text(data, "id"),
        minutes: Number(text(data, "minutes")),
        note: optional(data, "note"),
      });
      return back(data);
    },
  },
  "decline-invitation": {
    page: invitationPage,
    submit: async (caller, data) => {
      await caller.members.decline({ token: text(data, "token") });
      return "/";
    },
  },
  "join-invitation": {
    page: invitationPage,
    submit: async (caller, data) => {
      const joined = await caller.auth.acceptInvitationAsNewAccount({
        token: text(data, "token"),
        email: text(data, "email"),
        password: sameNewPassword(data, "password"),
        name: text(data, "name").trim() || undefined,
      });
      return `/p/${joined.project}`;
    },
  },
  // the tool definitions an admin pastes or uploads (a file input: the post is multipart), then the re-check of the stored calls
  "register-tools": {
    page: (data) => backTo(data, { form: "register-tools" }),
    submit: async (caller, data) => {
      const { tools } = await caller.tools.registerPasted({
        project: text(data, "project"),
        definitions: text(data, "definitions").trim() || text(data, "file"),
        name: text(data, "name") || undefined,
      });
      return backTo(data, { form: "register-tools", registered: [...new Set(tools.map((t) => t.name))].join("\n") });
    },
    bodyLimit: 2 * PASTED_TOOLS_MAX_CHARS,
  },
  "recheck-tool": {
    page: (data) => backTo(data, { form: "recheck-tool" }),
    submit: async (caller, data) => {
      const from = text(data, "from");
      const to = text(data, "to");
      const result = await caller.tools.recheck({ project: text(data, "project"), tool: text(data, "tool"), range: from && to ? { from, to } : undefined });
      return backTo(data, { form: "recheck-tool", rechecked: result.summary });
    },
  },
};

const FORM_BODY_LIMIT = 64 * 1024;

/** A form's fields, urlencoded or multipart (an uploaded file's field holds the file's text). */
async function formFields(body: Buffer, contentType: string | null): Promise<URLSearchParams> {
  if (!contentType?.toLowerCase().startsWith("multipart/form-data")) return new URLSearchParams(body.toString("utf8"));
  const fields = new URLSearchParams();
  for (const [key, value] of await new Response(new Uint8Array(body), { headers: { "content-type": contentType } }).formData()) {
    fields.append(key, typeof value === "string" ? value : await value.text());
  }
  return fields;
}

function redirect(location: string, headers = new Headers()) {
  headers.set("Location", location);
  headers.set("Cache-Control", "no-store");
  return new Response(null, { status: 303, headers });
}

const withError = (page: string, message: string) => `${page}${page.includes("?") ? "&" : "?"}error=${encodeURIComponent(message)}`;

/** The error as the form shows it: what tRPC would answer (input issues spelled out); a bug only as a pointer to the log. */
async function messageOf(error: unknown, form: string) {
  if (error instanceof TRPCError && error.cause instanceof ZodError) return `Invalid input: ${describeIssues(error.cause).map(issueLine).join("; ")}`;
  if (error instanceof TRPCError && error.code !== "INTERNAL_SERVER_ERROR") return error.message;
  console.error(`[form] ${form}:`, error);
  return "Internal server error: the details are in the server log.";
}

export async function POST(req: Request, { params }: { params: Promise<{ form: string }> }) {
  const form = FORMS[(await params).form];
  if (!form) return Response.json({ error: `No such form: the forms are ${Object.keys(FORMS).join(", ")}.` }, { status: 404 });
  const refusal = crossSiteRefusal(
    {
      method: "POST",
      authorization: null,
      origin: req.headers.get("origin"),
      secFetchSite: req.headers.get("sec-fetch-site"),
      contentType: req.headers.get("content-type"),
      hasSession: !!readCookie(req.headers.get("cookie"), SESSION_COOKIE),
      ownForm: true,
    },
    ownOrigins(req),
  );
  if (refusal) return Response.json({ error: refusal }, { status: 403 });
  const limit = form.bodyLimit ?? FORM_BODY_LIMIT;
  const body = await readLimited(req, limit);
  if (!body) return Response.json({ error: `A form post over ${limit} bytes: this form takes at most that much.` }, { status: 413 });
  let data: URLSearchParams;
  try {
    data = await formFields(body, req.headers.get("content-type"));
  } catch {
    return Response.json({ error: "The form post could not be read as multipart/form-data: submit the form from Toolgate's page." }, { status: 400 });
  }
  const resHeaders = new Headers();
  const caller = createCaller(createContext({ headers: req.headers, resHeaders, url: req.url }));
  try {
    return redirect(await form.submit(caller, data), resHeaders);
  } catch (error) {
    return redirect(withError(form.page(data), await messageOf(error, (await params).form)));
  }
}
