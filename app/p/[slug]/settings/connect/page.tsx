import type { Metadata } from "next";
import { ConnectPanel } from "@/components/settings/connect-panel";
import { hasRole } from "@/contracts/roles";
import { pageCaller, pageOrigin, pageTimeZone, requireProject } from "@/server/page-session";

export const metadata: Metadata = { title: "Connect" };

export default async function ConnectPage({ params }: { params: Promise<{ slug: string }> }) {
  const { slug } = await params;
  const { project, role } = await requireProject(slug);
  const api = await pageCaller();
  const [origin, stats, unregistered, exports] = await Promise.all([
    pageOrigin(),
    api.otlp.stats({ project: slug }),
    api.tools.unregistered({ project: slug }),
    api.otlp.exports({ project: slug }),
  ]);
  return (
    <ConnectPanel
      slug={project.slug}
      origin={origin}
      stats={stats}
      canCreateKeys={hasRole(role, "admin")}
      unregistered={unregistered}
      exports={exports}
      zone={(await pageTimeZone()).zone}
    />
  );
}
