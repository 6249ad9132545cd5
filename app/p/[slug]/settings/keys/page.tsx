import type { Metadata } from "next";
import { ApiKeysPanel } from "@/components/settings/api-keys-panel";
import { Card } from "@/components/ui";
import { hasRole } from "@/contracts/roles";
import { pageTimeZone, requireProject } from "@/server/page-session";

export const metadata: Metadata = { title: "API keys" };

export default async function ApiKeysPage({ params }: { params: Promise<{ slug: string }> }) {
  const { slug } = await params;
  const { project, role } = await requireProject(slug);
  if (!hasRole(role, "admin")) {
    return (
      <Card title="API keys">
        <p className="text-slate-600">Admins and owners manage this project&apos;s API keys; you are {role}. Ask one of them for a key.</p>
      </Card>
    );
  }
  return <ApiKeysPanel slug={project.slug} zone={(await pageTimeZone()).zone} />;
}
