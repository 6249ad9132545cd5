import type { ReactNode } from "react";
import { ProjectSidebar } from "@/components/project-sidebar";
import { pageCaller, requireProject } from "@/server/page-session";

/** The app shell: sidebar (project switcher, navigation, account) beside the page. */
export default async function ProjectLayout({ children, params }: { children: ReactNode; params: Promise<{ slug: string }> }) {
  const { slug } = await params;
  const { user, project } = await requireProject(slug);
  const projects = (await (await pageCaller()).projects.list()).map((p) => ({ slug: p.slug, name: p.name }));
  return (
    <div className="flex min-h-screen">
      <ProjectSidebar slug={project.slug} projects={projects} email={user.email} />
      <div className="min-w-0 flex-1">
        <main className="mx-auto max-w-7xl px-8 py-8">{children}</main>
      </div>
    </div>
  );
}
