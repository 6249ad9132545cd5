// The cards of the incident page, drawn from the prepared view (./incident-view.ts).

import Link from "next/link";
import type { ReactNode } from "react";
import { RateLineChart } from "../charts";
import { buttonClass, Card, Table, td, th } from "../ui";
import type { IncidentView } from "./incident-view";

const dt = "text-xs font-medium uppercase tracking-wide text-slate-500";
const figure = "mt-0.5 text-2xl font-semibold tabular-nums";

export function WhatFiredCard({
  view,
  assignee,
  note,
  className,
}: {
  view: IncidentView["whatFired"];
  assignee: { email: string; name: string } | null;
  note: string | null;
  className: string;
}) {
  return (
    <Card title="What fired" className={className}>
      <p className="text-slate-700 [overflow-wrap:anywhere]" data-testid="incident-summary">
        {view.summary}
      </p>
      <dl className="mt-4 grid grid-cols-2 gap-x-6 gap-y-3 sm:grid-cols-3">
        <div>
          <dt className={dt}>{view.valueLabel}</dt>
          <dd className={`${figure} text-red-700`} data-testid="incident-value">
            {view.value}
          </dd>
        </div>
        <div>
          <dt className={dt}>{view.thresholdLabel}</dt>
          <dd className={`${figure} text-slate-700`}>{view.threshold}</dd>
        </div>
        <div>
          <dt className={dt}>Calls in the window</dt>
          <dd className={`${figure} text-slate-700`}>{view.calls}</dd>
        </div>
        <div className="col-span-2 sm:col-span-3">
          <dt className={dt}>Scope</dt>
          <dd className="mt-0.5 text-slate-800 [overflow-wrap:anywhere]" data-testid="incident-scope">
            {view.scope}
          </dd>
        </div>
        <div className="col-span-2 sm:col-span-3">
          <dt className={dt}>Window</dt>
          <dd className="mt-0.5 text-slate-800">{view.window}</dd>
        </div>
        <div className="col-span-2 sm:col-span-3">
          <dt className={dt}>Assignee</dt>
          <dd className="mt-0.5 text-slate-800 [overflow-wrap:anywhere]" data-testid="incident-assignee">
            {assignee ? assignee.name || assignee.email : <span className="text-slate-500">nobody</span>}
          </dd>
        </div>
        {note && (
          <div className="col-span-2 sm:col-span-3">
            <dt className={dt}>Note</dt>
            <dd className="mt-0.5 whitespace-pre-line text-slate-800 [overflow-wrap:anywhere]" data-testid="incident-note">
              {note}
            </dd>
          </div>
        )}
      </dl>
    </Card>
  );
}

export function IncidentChartCard({ chart }: { chart: IncidentView["chart"] }) {
  return (
    <Card
      title={chart.title}
      description={chart.description}
      actions={
        <Link href={chart.explorerHref} className={buttonClass("secondary", "sm")} data-testid="explorer-link">
          {chart.explorerLabel}
        </Link>
      }
    >
      {chart.series.length ? (
        <RateLineChart
          labels={chart.labels}
          series={chart.series}
          bucket={chart.bucket}
          markers={chart.markers}
          threshold={chart.threshold}
          label={chart.label}
          height={280}
          zone={chart.zone}
        />
      ) : (
        <p className="py-10 text-center text-slate-500">No calls in this scope around the incident.</p>
      )}
    </Card>
  );
}

const NO_INVALID = <p className="text-slate-500">No invalid calls in the window.</p>;
const right = `${td} text-right tabular-nums`;

export function FailingToolsCard({ tools }: { tools: IncidentView["tools"] }) {
  return (
    <Card title="Top failing tools" description={tools.description}>
      {tools.rows.length === 0 ? (
        NO_INVALID
      ) : (
        <Table label="Top failing tools">
          <thead>
            <tr>
              <th className={th}>Tool</th>
              <th className={`${th} text-right`}>Invalid</th>
              <th className={`${th} text-right`}>Checked calls</th>
              <th className={`${th} text-right`}>Rate</th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {tools.rows.map((t) => (
              <tr key={t.key} data-testid="failing-tool">
                <td className={`${td} font-mono text-xs`}>
                  <Link href={t.href} className="text-indigo-700 hover:underline">
                    {t.key}
                  </Link>
                </td>
                <td data-label="Invalid" className={right}>
                  {t.invalid}
                </td>
                <td data-label="Checked calls" className={right}>
                  {t.checked}
                </td>
                <td data-label="Rate" className={right}>
                  {t.rate}
                </td>
              </tr>
            ))}
          </tbody>
        </Table>
      )}
      {tools.more && <p className="mt-2 text-xs text-slate-500">{tools.more}</p>}
    </Card>
  );
}

export function FailureCategoriesCard({ categories }: { categories: IncidentView["categories"] }) {
  return (
    <Card title="Top failure categories" description="Share of the window's invalid calls">
      {categories.length === 0 ? (
        NO_INVALID
      ) : (
        <Table label="Top failure categories">
          <thead>
            <tr>
              <th className={th}>Category</th>
              <th className={`${th} text-right`}>Invalid</th>
              <th className={`${th} text-right`}>Share</th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {categories.map((c) => (
              <tr key={c.key} data-testid="failing-category">
                <td className={td}>
                  <Link href={c.href} className="text-indigo-700 hover:underline">
                    {c.label}
                  </Link>
                </td>
                <td data-label="Invalid" className={right}>
                  {c.invalid}
                </td>
                <td data-label="Share" className={right}>
                  {c.share}
                </td>
              </tr>
            ))}
          </tbody>
        </Table>
      )}
    </Card>
  );
}

export function TimelineCard({ events }: { events: IncidentView["timeline"] }) {
  return (
    <Card title="Timeline">
      <ol className="relative space-y-4 border-l border-slate-200 pl-5" aria-label="Timeline">
        {events.map((event, i) => (
          <li key={i} data-testid="timeline-event" data-kind={event.kind} className="relative [overflow-wrap:anywhere]">
            <span className={`absolute -left-[1.64rem] top-1.5 h-2.5 w-2.5 rounded-full ring-4 ring-white ${event.dot}`} />
            <p className="font-medium text-slate-900">{event.title}</p>
            <p className="text-xs text-slate-500">{event.at}</p>
            {event.note && <p className="mt-1 text-slate-600">{event.note}</p>}
          </li>
        ))}
      </ol>
    </Card>
  );
}

/** `none` is what to say when there were no deliveries (it differs for admins, who can add endpoints). */
export function DeliveriesCard({ deliveries, none }: { deliveries: IncidentView["deliveries"]; none: ReactNode }) {
  return (
    <Card title="Webhook deliveries" description="Every attempt to notify this project's endpoints about this incident.">
      {deliveries.length === 0 ? (
        <p className="text-slate-500" data-testid="no-deliveries">
          No deliveries. {none}
        </p>
      ) : (
        <Table label="Webhook deliveries">
          <thead>
            <tr>
              <th className={th}>Endpoint</th>
              <th className={th}>Attempt</th>
              <th className={th}>Status</th>
              <th className={th}>Time</th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {deliveries.map((d, i) => (
              <tr key={i} data-testid="delivery-row">
                <td className={`${td} max-w-48 truncate`} title={d.url}>
                  {d.endpoint}
                </td>
                <td data-label="Attempt" className={`${td} tabular-nums`}>
                  {d.attempt}
                </td>
                <td className={td}>
                  <span
                    className={d.status.answered ? `font-medium ${d.status.ok ? "text-emerald-700" : "text-red-700"}` : "text-red-700"}
                    title={d.status.title}
                  >
                    {d.status.text}
                  </span>
                  {d.duration && <span className="text-xs text-slate-500"> · {d.duration}</span>}
                </td>
                <td className={`${td} text-slate-500`}>{d.at}</td>
              </tr>
            ))}
          </tbody>
        </Table>
      )}
    </Card>
  );
}
