import { describe, expect, it } from "vitest";
import { webhookAddressVerdict, webhookUrlFor } from "./webhook-targets";

describe("webhookAddressVerdict", () => {
  it.each(["8.8.8.8", "1.1.1.1", "2001:4860:4860::8888", "::ffff:8.8.8.8"])("%s is public: allowed", (address) => {
    expect(webhookAddressVerdict(address)).toEqual({ allowed: true });
  });

  it.each([
    ["127.0.0.1", /loopback/],
    ["127.1.2.3", /loopback/],
    ["::1", /loopback/],
    ["10.0.0.5", /private/],
    ["172.16.3.4", /private/],
    ["192.168.1.1", /private/],
    ["169.254.169.254", /link-local.*metadata/],
    ["fe80::1", /link-local/],
    ["fc00::1", /unique-local/],
    ["fd12:3456::1", /unique-local/],
    ["100.64.0.1", /carrier-grade NAT/],
    ["0.0.0.0", /unspecified/],
    ["::", /unspecified/],
    ["224.0.0.1", /multicast/],
    ["ff02::1", /multicast/],
    ["255.255.255.255", /broadcast/],
    ["192.0.2.1", /reserved/],
    ["::ffff:127.0.0.1", /127\.0\.0\.1 is a loopback/],
    ["::ffff:10.1.2.3", /10\.1\.2\.3 is a private/],
    ["::ffff:169.254.169.254", /link-local/],
    ["64:ff9b::a00:1", /NAT64/],
    ["2002:a00:1::", /6to4/],
    ["not-an-ip", /not an IP address/],
  ])("%s: refused (%s)", (address, reason) => {
    const verdict = webhookAddressVerdict(address);
    expect(verdict.allowed).toBe(false);
    expect(!verdict.allowed && verdict.reason).toMatch(reason);
  });
});

describe("webhookUrlFor", () => {
  const slack = "https://hooks.slack.com/services/T000/B000/secret-token";
  it("admins and owners see the whole URL; members and viewers the host only", () => {
    expect(webhookUrlFor("owner", slack)).toBe(slack);
    expect(webhookUrlFor("admin", slack)).toBe(slack);
    expect(webhookUrlFor("member", slack)).toBe("https://hooks.slack.com/…");
    expect(webhookUrlFor("viewer", slack)).toBe("https://hooks.slack.com/…");
  });

  it("hides a URL it cannot parse entirely from those who may not see it", () => {
    expect(webhookUrlFor("member", "not a url")).toBe("(hidden)");
    expect(webhookUrlFor("admin", "not a url")).toBe("not a url");
  });
});

describe("webhookAddressVerdict for a range without words of its own", () => {
  it("names ipaddr.js's range", () => {
    // 100::/64 is IPv6's discard prefix
    expect(webhookAddressVerdict("100::1")).toEqual({ allowed: false, reason: "100::1 is not a public address (discard)" });
  });
});
