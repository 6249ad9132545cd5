import { TRPCError } from "@trpc/server";
import { notFound } from "next/navigation";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** An incident or rule of a page's `[id]`: the project's not-found page (404) for an id that is no uuid or names nothing. */
export async function loadByIdOr404<T>(id: string, load: (id: string) => Promise<T>): Promise<T> {
  if (!UUID.test(id)) notFound();
  return load(id).catch((e: unknown) => {
    if (e instanceof TRPCError && e.code === "NOT_FOUND") notFound();
    throw e;
  });
}
