// The project's pages, in the sidebar's order: the sidebar's navigation, the command palette's
// "Pages" and the "g then a letter" shortcuts all read this list.

export const NAV = [
  { label: "Overview", path: "", key: "o" },
  { label: "Tools", path: "/tools", key: "t" },
  { label: "Definitions", path: "/definitions", key: "d" },
  { label: "Models", path: "/models", key: "m" },
  { label: "Inflation", path: "/inflation", key: "i" },
  { label: "Calls", path: "/calls", key: "c" },
  { label: "Errors", path: "/errors", key: "e" },
  { label: "Alerts", path: "/alerts", key: "a" },
  { label: "Settings", path: "/settings", key: "s" },
] as const;

/** Pages inside the sections above (their tabs), which the palette lists too. */
export const SUBPAGES = [
  { label: "Alert rules", path: "/alerts/rules", keywords: ["Alerts → Rules", "silences"] },
  { label: "Connect", path: "/settings/connect", keywords: ["Settings → Connect", "OpenTelemetry", "SDK", "MCP"] },
  { label: "Members", path: "/settings/members", keywords: ["Settings → Members", "invite"] },
  { label: "API keys", path: "/settings/keys", keywords: ["Settings → API keys", "tokens"] },
  { label: "Webhooks", path: "/settings/webhooks", keywords: ["Settings → Webhooks", "notifications"] },
] as const;
