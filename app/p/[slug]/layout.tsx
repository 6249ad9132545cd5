import { Suspense, type ReactNode } from "react";
import { NavigationProgress } from "@/components/navigation-progress";
import { PaletteProvider } from "@/components/palette/palette-provider";
import { ProjectSidebar } from "@/components/project-sidebar";
import { pageCaller, pageTimeZone, requireProject } from "@/server/page-session";

/** The app shell: sidebar (project switcher, navigation, account) beside the page. */
export default async function ProjectLayout({ children, params }: { children: ReactNode; params: Promise<{ slug: string }> }) {
  const { slug } = await params;
  const { user, project } = await requireProject(slug);
  const timeZone = await pageTimeZone();
  const projects = (await (await pageCaller()).projects.list()).map((p) => ({ slug: p.slug, name: p.name, demo: p.demo }));
  return (
    <PaletteProvider slug={project.slug} zone={timeZone.zone}>
      <div className="min-h-screen lg:flex">
        <Suspense>
          <NavigationProgress />
        </Suspense>
        <a
          href="#content"
          className="sr-only z-50 rounded-md bg-white px-3 py-2 font-medium text-indigo-700 shadow focus:not-sr-only focus:fixed focus:left-3 focus:top-3"
        >
          Skip to content
        </a>
        <ProjectSidebar slug={project.slug} projects={projects} email={user.email} timeZone={timeZone} />
        <div className="min-w-0 flex-1">
          <main id="content" tabIndex={-1} className="mx-auto max-w-7xl px-4 py-6 focus:outline-none sm:px-8 sm:py-8">
            {children}
          </main>
        </div>
      </div>
    </PaletteProvider>
  );
}
