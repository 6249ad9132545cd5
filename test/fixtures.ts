import { randomUUID } from "node:crypto";
import type { ApiKeyScope } from "../contracts/accounts";
import type { Role } from "../contracts/roles";
import { prisma } from "../server/db/client";
import { createApiKey } from "../server/services/auth/api-keys";
import { createSession, SESSION_COOKIE } from "../server/services/auth/sessions";
import { hashPassword } from "../server/services/auth/passwords";
import { createContext } from "../server/trpc/init";
import { createCaller } from "../server/routers/root";

/** Test data with unique names, so tests never depend on each other or on order. */
export const unique = (prefix: string) => `${prefix}-${randomUUID().slice(0, 8)}`;
export const TEST_PASSWORD = "correct horse battery staple";
const passwordHash = hashPassword(TEST_PASSWORD);

export async function makeUser(email = `${unique("user")}@example.test`) {
  return prisma().user.create({ data: { email, passwordHash: await passwordHash }, select: { id: true, email: true } });
}

/** A caller as the API sees it: headers in, response headers out (cookies, Retry-After). */
export function callerWith(headers: Record<string, string> = {}) {
  const ctx = createContext({
    headers: new Headers({ "x-forwarded-for": `10.0.${Math.floor(Math.random() * 255)}.${Math.floor(Math.random() * 255)}`, ...headers }),
  });
  return withExtras(createCaller(ctx), { ctx });
}

/** The caller is a proxy that treats every property as a procedure path: add ours beside it. */
function withExtras<T extends object, E extends object>(caller: T, extras: E): T & E {
  return new Proxy(caller, { get: (target, prop) => (prop in extras ? extras[prop as keyof E] : Reflect.get(target, prop)) }) as T & E;
}

export async function signedIn(userId: string) {
  const { token } = await createSession(userId);
  return withExtras(callerWith({ cookie: `${SESSION_COOKIE}=${token}` }), { token });
}

export const withKey = (key: string) => callerWith({ authorization: `Bearer ${key}` });

/** A project with an owner, plus helpers to get members of each role and API keys. */
export async function makeProject() {
  const owner = await makeUser();
  const slug = unique("proj");
  const project = await prisma().project.create({
    data: { slug, name: `Project ${slug}`, memberships: { create: { userId: owner.id, role: "owner" } } },
    select: { id: true, slug: true, name: true },
  });
  return {
    project,
    owner,
    asOwner: () => signedIn(owner.id),
    async member(role: Role) {
      const user = await makeUser();
      await prisma().membership.create({ data: { userId: user.id, projectId: project.id, role } });
      return withExtras(await signedIn(user.id), { user });
    },
    key: (name = "test harness", scope: ApiKeyScope = "ingest") => createApiKey(project.id, name, scope),
  };
}

/** A project and an ingest key of it, as a harness has. */
export async function projectWithKey() {
  const p = await makeProject();
  const { key } = await p.key();
  return { ...p, key };
}

/** A project whose harness registered `tools`: its ingest caller, and a read key as CI or an agent has. */
export async function projectWithTools(tools: Parameters<ReturnType<typeof withKey>["tools"]["register"]>[0]["tools"]) {
  const p = await makeProject();
  const ingest = withKey((await p.key()).key);
  const readKey = (await p.key("agent", "read")).key;
  await ingest.tools.register({ tools });
  return { ...p, ingest, readKey };
}

/** The tRPC error code a call ends with ("OK" when it succeeds). */
export const codeOf = (promise: Promise<unknown>) =>
  promise.then(
    () => "OK",
    (e: { code?: string }) => e.code ?? String(e),
  );

const objectOf = (properties: Record<string, unknown>) => ({ type: "object", properties, additionalProperties: false });
/** Three tools of very different context cost: a short one, a long one, and one no run calls (the context-cost tests'). */
export const COST_TOOLS = [
  { name: "get_order", description: "Returns one order by its id.", parameters: objectOf({ id: { type: "string", description: "The order's id." } }) },
  {
    name: "export_everything",
    description: "Exports every record of the account as one archive and returns its download link. ".repeat(6),
    parameters: objectOf({ format: { type: "string", enum: ["zip", "tar"], description: "The archive's format: zip or tar." } }),
  },
  { name: "never_used", description: "Returns nothing anyone has asked for so far.", parameters: objectOf({}) },
];
