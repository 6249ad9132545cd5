import type { Metadata } from "next";
import { DeleteProject, RenameProject, Retention, YourRole } from "@/components/settings/project-settings";
import { hasRole } from "@/contracts/roles";
import { requireProject } from "@/server/page-session";

export const metadata: Metadata = { title: "Settings" };

export default async function ProjectSettingsPage({ params }: { params: Promise<{ slug: string }> }) {
  const { slug } = await params;
  const { project, role } = await requireProject(slug);
  const view = { slug: project.slug, name: project.name };
  return (
    <div className="space-y-6">
      <RenameProject project={view} canRename={hasRole(role, "admin")} />
      <Retention slug={project.slug} canEdit={hasRole(role, "admin")} />
      <YourRole role={role} />
      {hasRole(role, "owner") && <DeleteProject project={view} />}
    </div>
  );
}
