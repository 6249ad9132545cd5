import { redirect } from "next/navigation";
import { pageCaller, requireUser } from "@/server/page-session";

/** The first of the user's projects (a demo project only when there is nothing else), or a new one. */
export default async function HomePage() {
  await requireUser();
  const projects = await (await pageCaller()).projects.list();
  const first = projects.find((p) => !p.demo) ?? projects[0];
  redirect(first ? `/p/${first.slug}` : "/projects/new");
}
