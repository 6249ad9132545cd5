import type { Metadata } from "next";
import Link from "next/link";
import { AlertsTabs } from "@/components/alerts/alerts-tabs";
import { MuteBadges, RuleStateBadge, SeverityBadge, StateBadge } from "@/components/alerts/badges";
import { incidentAge } from "@/components/alerts/format";
import { SilenceForm, SilenceList } from "@/components/alerts/mute-forms";
import { RulePreview } from "@/components/alerts/rule-preview";
import { describeRule, ruleInputOf, ruleScopeText, ruleStateText, ruleView } from "@/components/alerts/rule-view";
import { formatDateTimeZoned } from "@/isomorphic/time-zone";
import { pageError } from "@/components/form-errors";
import { buttonClass, Card, PageHeader } from "@/components/ui";
import { hasRole } from "@/contracts/roles";
import { loadByIdOr404 } from "@/components/alerts/load-by-id";
import { pageCaller, pageTimeZone, requireProject } from "@/server/page-session";
import { formatCount } from "@/contracts/format-number";

export const metadata: Metadata = { title: "Alert rule" };

/** One rule: its state from the last evaluation, its preview over the last 7 days, its incidents and silences. */
export default async function AlertRulePage({
  params,
  searchParams,
}: {
  params: Promise<{ slug: string; id: string }>;
  searchParams: Promise<{ error?: string | string[] }>;
}) {
  const { slug, id } = await params;
  const { project, role } = await requireProject(slug);
  const { zone } = await pageTimeZone();
  const api = await pageCaller();
  const row = await loadByIdOr404(id, (id) => api.alerts.rule({ project: slug, id }));
  const rule = ruleView(row);
  const [preview, incidents, silences] = await Promise.all([
    rule.builtIn ? null : api.alerts.preview({ project: slug, rule: ruleInputOf(rule), days: 7 }),
    api.alerts.incidents({ project: slug, ruleId: id }),
    api.alerts.silences({ project: slug }),
  ]);
  const mine = silences.filter((s) => s.ruleId === id);
  const back = `/p/${project.slug}/alerts/rules/${id}`;
  const member = hasRole(role, "member");
  const now = new Date();
  const error = pageError((await searchParams).error);

  return (
    <>
      <PageHeader
        title={rule.name}
        description={
          <span className="inline-flex flex-wrap items-center gap-2">
            <RuleStateBadge state={rule.enabled ? rule.lastState : null} />
            <SeverityBadge severity={rule.severity} />
            {!rule.enabled && <span className="text-slate-600">switched off</span>}
            {mine.length > 0 && (
              <span data-testid="rule-silenced" className="text-slate-600">
                silenced until {formatDateTimeZoned(mine[0]!.endsAt, zone)}
              </span>
            )}
          </span>
        }
        actions={
          <Link href={`/p/${project.slug}/alerts/rules`} className={buttonClass("secondary")}>
            All rules
          </Link>
        }
      />
      <AlertsTabs slug={project.slug} showWebhooks={hasRole(role, "admin")} />
      <div className="space-y-6">
        <Card title="Now">
          <p className="text-slate-800" data-testid="rule-state-text">
            {rule.enabled ? ruleStateText(rule, zone) : "Switched off: not evaluated."}
          </p>
          <dl className="mt-3 grid gap-x-6 gap-y-1 text-sm sm:grid-cols-2">
            <dt className="text-slate-600">Condition</dt>
            <dd className="text-slate-900">{rule.builtIn ? "Invalid rate of a new version against its previous one" : describeRule(rule)}</dd>
            <dt className="text-slate-600">Scope</dt>
            <dd className="text-slate-900">{ruleScopeText(rule)}</dd>
            <dt className="text-slate-600">Minimum calls</dt>
            <dd className="text-slate-900">{formatCount(rule.minCalls)} in the window</dd>
            <dt className="text-slate-600">Last evaluated</dt>
            <dd className="text-slate-900" data-testid="rule-last-evaluated">
              {rule.lastEvaluatedAt ? formatDateTimeZoned(rule.lastEvaluatedAt, zone) : "not yet"}
            </dd>
          </dl>
        </Card>

        {preview && (
          <Card title="The last 7 days" description="What this rule would have done, evaluated over past data by the evaluator's own logic.">
            <RulePreview preview={preview} metric={rule.metric} />
          </Card>
        )}

        <Card title="Incidents">
          {incidents.length === 0 ? (
            <p className="text-slate-600">This rule has not fired.</p>
          ) : (
            <ul className="-my-3 divide-y divide-slate-100" aria-label="Incidents of this rule">
              {incidents.slice(0, 20).map((i) => (
                <li key={i.id} className="flex flex-wrap items-center gap-x-3 gap-y-1 py-3">
                  <StateBadge state={i.state} />
                  <MuteBadges silenced={i.silenced} snoozedUntil={i.snoozedUntil} now={now} zone={zone} />
                  <Link
                    href={`/p/${project.slug}/alerts/${i.id}`}
                    className="min-w-0 flex-1 basis-48 text-slate-800 [overflow-wrap:anywhere] hover:text-indigo-700 hover:underline"
                  >
                    {i.summary}
                  </Link>
                  <span className="text-xs text-slate-600">
                    {formatDateTimeZoned(i.firedAt, zone)} · {incidentAge(i, now)}
                  </span>
                </li>
              ))}
            </ul>
          )}
        </Card>

        <Card title="Silence" description="Incidents of a silenced rule are still recorded, marked silenced, and sent to no webhook.">
          <div className="space-y-4">
            <SilenceList slug={project.slug} back={back} silences={mine} canEnd={member} zone={zone} />
            {member && <SilenceForm slug={project.slug} back={back} ruleId={id} error={error} />}
          </div>
        </Card>
      </div>
    </>
  );
}
