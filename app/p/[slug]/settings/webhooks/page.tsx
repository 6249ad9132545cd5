import type { Metadata } from "next";
import { WebhooksPanel } from "@/components/alerts/webhooks-panel";
import { Card } from "@/components/ui";
import { hasRole } from "@/contracts/roles";
import { pageTimeZone, requireProject } from "@/server/page-session";

export const metadata: Metadata = { title: "Webhooks" };

export default async function WebhooksPage({ params }: { params: Promise<{ slug: string }> }) {
  const { slug } = await params;
  const { project, role } = await requireProject(slug);
  if (!hasRole(role, "admin")) {
    return (
      <Card title="Webhooks">
        <p className="text-slate-600">Admins and owners manage where alerts are sent; you are {role}. Incidents are on the Alerts page.</p>
      </Card>
    );
  }
  return <WebhooksPanel slug={project.slug} zone={(await pageTimeZone()).zone} />;
}
