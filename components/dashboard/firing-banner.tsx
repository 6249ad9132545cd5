import Link from "next/link";
import { formatDateTimeZoned } from "../../isomorphic/time-zone";
import { incidentAge, scopeText } from "../alerts/format";

type FiringIncident = {
  id: string;
  summary: string;
  firedAt: Date | string;
  scopeTool: string | null;
  scopeModel: string | null;
  scopeVersion: string | null;
  rule: { name: string };
};

/** The overview's banner while incidents fire: each one linked (the first three), the rest on the alerts page. */
export function FiringBanner({ slug, incidents, zone, now }: { slug: string; incidents: readonly FiringIncident[]; zone: string; now: Date }) {
  if (incidents.length === 0) return null;
  const shown = incidents.slice(0, 3);
  return (
    <section
      aria-label="Firing incidents"
      data-testid="firing-banner"
      className="mb-6 rounded-lg border border-red-200 bg-red-50 px-4 py-3 text-red-900 shadow-sm"
    >
      <p className="font-semibold">
        {incidents.length === 1 ? "An incident is firing" : `${incidents.length} incidents are firing`}
        {incidents.length > shown.length && (
          <>
            {" · "}
            <Link href={`/p/${slug}/alerts?state=firing`} className="font-medium underline underline-offset-2 hover:text-red-700">
              all firing incidents
            </Link>
          </>
        )}
      </p>
      <ul className="mt-1 space-y-1">
        {shown.map((incident) => (
          <li key={incident.id} className="flex flex-wrap items-baseline gap-x-2 [overflow-wrap:anywhere]">
            <Link href={`/p/${slug}/alerts/${incident.id}`} className="font-medium underline underline-offset-2 hover:text-red-700">
              {incident.rule.name}
            </Link>
            <span>{scopeText({ tool: incident.scopeTool, model: incident.scopeModel, modelVersion: incident.scopeVersion })}</span>
            <span className="text-red-800">
              fired {incidentAge(incident, now)} ({formatDateTimeZoned(incident.firedAt, zone)})
            </span>
            <span className="basis-full text-sm text-red-800">{incident.summary}</span>
          </li>
        ))}
      </ul>
    </section>
  );
}
