import { TabBar } from "../tab-bar";

/** Incidents | Rules | Webhooks (admins; the webhooks live in the project's settings). */
export function AlertsTabs({ slug, showWebhooks }: { slug: string; showWebhooks: boolean }) {
  const base = `/p/${slug}/alerts`;
  const tabs = [
    { label: "Incidents", href: base },
    { label: "Rules", href: `${base}/rules` },
    ...(showWebhooks ? [{ label: "Webhooks", href: `/p/${slug}/settings/webhooks` }] : []),
  ];
  return <TabBar label="Alerts" tabs={tabs} />;
}
