import type { Metadata } from "next";
import { AlertsTabs } from "@/components/alerts/alerts-tabs";
import { ruleView } from "@/components/alerts/rule-view";
import { RulesPanel } from "@/components/alerts/rules-panel";
import { SilenceForm, SilenceList } from "@/components/alerts/mute-forms";
import { pageError } from "@/components/form-errors";
import { Card, PageHeader } from "@/components/ui";
import { resolveRange } from "@/contracts/range";
import { hasRole } from "@/contracts/roles";
import { pageCaller, pageTimeZone, requireProject } from "@/server/page-session";

export const metadata: Metadata = { title: "Alert rules" };

export default async function AlertRulesPage({
  params,
  searchParams,
}: {
  params: Promise<{ slug: string }>;
  searchParams: Promise<{ error?: string | string[] }>;
}) {
  const { slug } = await params;
  const { project, role } = await requireProject(slug);
  const { zone } = await pageTimeZone();
  const admin = hasRole(role, "admin");
  const member = hasRole(role, "member");
  const api = await pageCaller();
  const { from, to } = resolveRange({ range: "30d" });
  const range = { from, to };
  const [{ rules, regressionTest }, webhooks, tools, models, silences] = await Promise.all([
    api.alerts.rules({ project: slug }),
    admin ? api.webhooks.list({ project: slug }) : [],
    member ? api.metrics.breakdown({ project: slug, range, dimension: "tool" }) : [],
    member ? api.metrics.breakdown({ project: slug, range, dimension: "model" }) : [],
    api.alerts.silences({ project: slug }),
  ]);
  const back = `/p/${project.slug}/alerts/rules`;
  const error = pageError((await searchParams).error);

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
        zone={zone}
      />
      <Card
        title="Silences"
        description="Silence a tool or a model for a while (a rule is silenced from its own page): its incidents are still recorded, marked silenced, and sent to no webhook."
        className="mt-6"
      >
        <div className="space-y-4">
          <SilenceList slug={project.slug} back={back} silences={silences} canEnd={member} zone={zone} />
          {member && (
            <SilenceForm slug={project.slug} back={back} tools={tools.map((t) => t.key)} models={[...new Set(models.map((m) => m.key))]} error={error} />
          )}
        </div>
      </Card>
    </>
  );
}
