import { redirect } from "next/navigation";
import { pageCaller, requireUser } from "@/server/page-session";

/** The first of the user's projects, or a new one. */
export default async function HomePage() {
  await requireUser();
  const [first] = await (await pageCaller()).projects.list();
  redirect(first ? `/p/${first.slug}` : "/projects/new");
}
