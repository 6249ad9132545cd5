import type { ReactNode } from "react";
import { SettingsTabs } from "@/components/settings/settings-tabs";
import { PageHeader } from "@/components/ui";
import { hasRole } from "@/contracts/roles";
import { requireProject } from "@/server/page-session";

export default async function SettingsLayout({ children, params }: { children: ReactNode; params: Promise<{ slug: string }> }) {
  const { slug } = await params;
  const { project, role } = await requireProject(slug);
  return (
    <>
      <PageHeader title="Settings" description={project.name} />
      <SettingsTabs slug={project.slug} showKeys={hasRole(role, "admin")} />
      {children}
    </>
  );
}
