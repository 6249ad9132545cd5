import type { Metadata } from "next";
import { AlertsTabs } from "@/components/alerts/alerts-tabs";
import { ruleView } from "@/components/alerts/rule-view";
import { RulesPanel } from "@/components/alerts/rules-panel";
import { PageHeader } from "@/components/ui";
import { resolveRange } from "@/contracts/range";
import { hasRole } from "@/contracts/roles";
import { pageCaller, requireProject } from "@/server/page-session";

export const metadata: Metadata = { title: "Alert rules" };

export default async function AlertRulesPage({ params }: { params: Promise<{ slug: string }> }) {
  const { slug } = await params;
  const { project, role } = await requireProject(slug);
  const admin = hasRole(role, "admin");
  const api = await pageCaller();
  const { from, to } = resolveRange({ range: "30d" });
  const range = { from, to };
  const [{ rules, regressionTest }, webhooks, tools, models] = await Promise.all([
    api.alerts.rules({ project: slug }),
    admin ? api.webhooks.list({ project: slug }) : [],
    admin ? api.metrics.breakdown({ project: slug, range, dimension: "tool" }) : [],
    admin ? api.metrics.breakdown({ project: slug, range, dimension: "model" }) : [],
  ]);

  return (
    <>
      <PageHeader
        title="Alerts"
        description={admin ? "Rules decide when an incident fires and whom it notifies." : "Rules decide when an incident fires; admins manage them."}
      />
      <AlertsTabs slug={project.slug} showWebhooks={admin} />
      <RulesPanel
        slug={project.slug}
        rules={rules.map(ruleView)}
        regressionTest={regressionTest}
        canManage={admin}
        webhooks={webhooks.map((w) => ({ id: w.id, name: w.name }))}
        tools={tools.map((t) => t.key)}
        models={models.map((m) => ({ model: m.key, version: m.version }))}
      />
    </>
  );
}
