import { TabBar } from "../tab-bar";

export function SettingsTabs({ slug, showKeys }: { slug: string; showKeys: boolean }) {
  const base = `/p/${slug}/settings`;
  const tabs = [
    { label: "General", href: base },
    { label: "Members", href: `${base}/members` },
    { label: "Connect", href: `${base}/connect` },
    ...(showKeys ? [{ label: "API keys", href: `${base}/keys` }] : []),
    ...(showKeys ? [{ label: "Webhooks", href: `${base}/webhooks` }] : []),
  ];
  return <TabBar label="Settings" tabs={tabs} />;
}
