import { fullFormats } from "ajv-formats/dist/formats";
import { describe, expect, it } from "vitest";
import { classifyCall, registryFrom } from "./classify";
import { REGEX_FORMAT_MAX, STRING_FORMATS } from "./formats";

const MiB = 1024 * 1024;

/**
 * Values of 1 MiB built to make a backtracking matcher work hard on each kind of format: long runs
 * of the characters its expression repeats, with a character at the end that fails it.
 */
const HARD_VALUES: string[] = [
  "http://" + ":".repeat(MiB),
  "a".repeat(MiB) + "!",
  "1".repeat(MiB) + "!",
  "a:" + "%aa".repeat(MiB / 3) + "%",
  "http://a/" + "/a".repeat(MiB / 2) + " ",
  "{" + "a.".repeat(MiB / 2),
  "2020-01-01T12:00:00." + "1".repeat(MiB) + "!",
  "P" + "1".repeat(MiB),
  "1:".repeat(MiB / 2),
  "a@".repeat(MiB / 2),
  "AAAA\n".repeat(MiB / 5) + "!",
  "a.".repeat(MiB / 2) + "-",
  "/~".repeat(MiB / 2) + "~",
  "http://a" + "-a".repeat(MiB / 2) + "!",
  "http://" + "a ".repeat(MiB / 2),
  "0" + "/".repeat(MiB),
];

describe("format checks", () => {
  // Each format is checked on every hard value; before, `url` alone took about 10 s on 100,000
  // colons (and grows with their square: 8 s at 40,000, so ~1,000 s at 1 MiB). The bound tells a
  // quadratic check from a linear one, not speed: linear checks take tens to hundreds of ms, and
  // up to ~5 s under mutation testing's instrumentation (npm run test:mutation) on a loaded machine.
  const LINEAR_BOUND_MS = 15_000;
  for (const [format, check] of Object.entries(STRING_FORMATS)) {
    it(`checks ${format} in time linear in the value: 1 MiB values in seconds, not minutes`, () => {
      for (const value of HARD_VALUES) {
        const started = performance.now();
        check(value);
        expect(performance.now() - started, `${format} on ${JSON.stringify(value.slice(0, 12))}…`).toBeLessThan(LINEAR_BOUND_MS);
      }
    });
  }

  it("checks formats through the classifier, the SDKs' and the gateway's path, without holding it", () => {
    const properties = Object.fromEntries(Object.keys(STRING_FORMATS).map((format) => [format, { type: "string", format }]));
    const registry = registryFrom([{ name: "f", version: "formats-1", parameters: { type: "object", properties } }]);
    classifyCall({ tool: "f", arguments: { url: "http://example.com" }, registry }); // compiled once, outside the measure
    const started = performance.now();
    const verdict = classifyCall({ tool: "f", arguments: { url: "http://" + ":".repeat(MiB) }, registry });
    expect(performance.now() - started).toBeLessThan(LINEAR_BOUND_MS);
    expect(verdict).toMatchObject({ valid: false, category: "out_of_range", path: "url" });
  });

  it("gives ajv-formats' verdicts on ordinary values", () => {
    const samples = [
      "2026-10-02",
      "2026-02-30",
      "09:30:00Z",
      "23:59:60Z",
      "2026-10-02T09:30:00.123+02:00",
      "2026-10-02 09:30:00Z",
      "2026-10-02T09:30:00",
      "P1Y2M3DT4H5M6S",
      "P",
      "PT",
      "P1W",
      "PT1H",
      "P1DT",
      "https://example.com/a/b?c=d#e",
      "http://[2001:db8::1]:8080/x",
      "mailto:someone@example.com",
      "foo:",
      "//example.com/a",
      "a/b c",
      "../x?y#z",
      "http://10.0.0.1/",
      "http://169.254.1.1",
      "http://169.253.1.1",
      "http://172.16.0.1",
      "http://172.32.0.1",
      "http://192.168.0.1",
      "http://192.167.0.1",
      "http://8.8.8.8:53/q",
      "http://127.0.0.1",
      "ftp://user:pw@files.example.org",
      "http://ex ample.com",
      "http://localhost",
      "http://example.com/{id}",
      "http://example.com/{id*,x:3}",
      "{+path}/here",
      "{",
      "name@example.com",
      "a..b@example.com",
      "example.com",
      "-example.com",
      "192.0.2.1",
      "256.0.0.1",
      "::1",
      "1::2::3",
      "^a+$",
      "(",
      "123e4567-e89b-12d3-a456-426614174000",
      "/a~1b/c~0d",
      "/a~2",
      "#/a%20b",
      "0#",
      "1/a/b",
      "01",
      "aGVsbG8=",
      "aGVsbG8",
      "not base64!\naGVsbG8=",
    ];
    for (const [format, check] of Object.entries(STRING_FORMATS)) {
      const ajv = fullFormats[format as keyof typeof fullFormats];
      const theirs =
        ajv === true
          ? () => true
          : ajv instanceof RegExp
            ? (v: string) => ajv.test(v)
            : typeof ajv === "function"
              ? ajv
              : (ajv as { validate: (v: string) => boolean }).validate;
      // uri and uri-reference follow RFC 3986 here ("foo:" is a URI, a quote is not a URI character)
      const skip = format === "uri" || format === "uri-reference";
      for (const value of skip ? [] : samples) expect(check(value), `${format}: ${value}`).toBe(theirs(value));
    }
    expect(STRING_FORMATS.uri!("foo:")).toBe(true);
    expect(STRING_FORMATS.uri!("https://example.com/a?b#c")).toBe(true);
    expect(STRING_FORMATS.uri!('http://example.com/"')).toBe(false);
    expect(STRING_FORMATS.uri!("//example.com")).toBe(false);
    expect(STRING_FORMATS["uri-reference"]!("//example.com")).toBe(true);
    expect(STRING_FORMATS["uri-reference"]!("a b")).toBe(false);
  });

  it("fails a regex format over REGEX_FORMAT_MAX characters unread", () => {
    expect(STRING_FORMATS.regex!("a".repeat(REGEX_FORMAT_MAX))).toBe(true);
    expect(STRING_FORMATS.regex!("a".repeat(REGEX_FORMAT_MAX + 1))).toBe(false);
  });
});
