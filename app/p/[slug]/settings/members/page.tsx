import type { Metadata } from "next";
import { MembersPanel } from "@/components/settings/members-panel";
import { hasRole } from "@/contracts/roles";
import { pageTimeZone, requireProject } from "@/server/page-session";

export const metadata: Metadata = { title: "Members" };

export default async function MembersPage({ params }: { params: Promise<{ slug: string }> }) {
  const { slug } = await params;
  const { project, role, user } = await requireProject(slug);
  return <MembersPanel slug={project.slug} canManage={hasRole(role, "owner")} currentUserId={user.id} zone={(await pageTimeZone()).zone} />;
}
