import { redirect } from "next/navigation";
import { projectsOf } from "@/server/services/projects";
import { requireUser } from "@/server/page-session";

/** The first of the user's projects, or a new one. */
export default async function HomePage() {
  const user = await requireUser();
  const [first] = await projectsOf(user.id);
  redirect(first ? `/p/${first.slug}` : "/projects/new");
}
