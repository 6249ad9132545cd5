import ipaddr from "ipaddr.js";
import { hasRole, type Role } from "../../contracts/roles";

/**
 * Which addresses a webhook may be delivered to, and who may see a webhook's URL. Pure:
 * resolving names and connecting is server/services/alerts/webhook-target.ts.
 */

export type AddressVerdict = { allowed: true } | { allowed: false; reason: string };

// ipaddr.js range names (IPv4 and IPv6) said in words; only "unicast" is the public internet.
const RANGE_WORDS: Record<string, string> = {
  unspecified: "an unspecified address",
  broadcast: "a broadcast address",
  multicast: "a multicast address",
  linkLocal: "a link-local address (169.254.0.0/16 or fe80::/10, where cloud metadata services live)",
  loopback: "a loopback address (this machine)",
  carrierGradeNat: "a carrier-grade NAT address (100.64.0.0/10)",
  private: "a private network address (10/8, 172.16/12 or 192.168/16)",
  uniqueLocal: "a unique-local IPv6 address (fc00::/7)",
  reserved: "a reserved or documentation address",
  benchmarking: "a benchmarking address",
  rfc6052: "an IPv6 address that embeds an IPv4 one (NAT64)",
  rfc6145: "an IPv6 address that embeds an IPv4 one (SIIT)",
  "6to4": "an IPv6 address that embeds an IPv4 one (6to4)",
  teredo: "an IPv6 address that embeds an IPv4 one (Teredo)",
};

/** Whether a webhook may connect to `address` (an IPv4 or IPv6 literal): public unicast only. */
export function webhookAddressVerdict(address: string): AddressVerdict {
  if (!ipaddr.isValid(address)) return { allowed: false, reason: `"${address}" is not an IP address` };
  let parsed = ipaddr.parse(address);
  // ::ffff:a.b.c.d reaches a.b.c.d: judge the IPv4 address it carries
  if (parsed.kind() === "ipv6" && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  const range = parsed.range();
  if (range === "unicast") return { allowed: true };
  return { allowed: false, reason: `${parsed.toString()} is ${RANGE_WORDS[range] ?? `not a public address (${range})`}` };
}

/**
 * A webhook URL as `role` may see it: for Slack, Discord and the like the URL is the
 * credential, so only admins see it whole; everyone else sees its scheme and host.
 */
export function webhookUrlFor(role: Role, url: string): string {
  if (hasRole(role, "admin")) return url;
  try {
    const { protocol, host } = new URL(url);
    return `${protocol}//${host}/…`;
  } catch {
    return "(hidden)";
  }
}
