// The JSON Schema `format` checks Toolgate runs on arguments, each in time linear in the value.
//
// ajv-formats matches most formats with backtracking RegExps, some of them superlinear: its `url`
// held the event loop 10 s on "http://" followed by 100,000 colons. Here every format is one of:
//  - a bounded one (date, ipv4, ipv6, uuid, hostname…): its length is checked first, so that the
//    RegExp behind it only ever sees a few dozen characters;
//  - a regular expression run by RE2 (re2js, as for `pattern`), whose matching takes time linear
//    in the input whatever the expression;
//  - plain code that reads the value once.
// The names and the verdicts are those of ajv-formats' "full" formats, which the classifier used
// before (isomorphic/formats.test.ts compares them on the JSON Schema Test Suite's format cases);
// `uri` and `uri-reference` follow RFC 3986's grammar, `uri-template` RFC 6570's.
import type { Format } from "ajv";
import { fullFormats } from "ajv-formats/dist/formats";
import { RE2JS } from "re2js";

type Check = (value: string) => boolean;

/** An expression matched by RE2 (linear time); `i` ignores case, `m` lets ^ and $ match at line ends. */
function re2(source: string, flags = ""): Check {
  let compiled: RE2JS | undefined;
  const options = (flags.includes("i") ? RE2JS.CASE_INSENSITIVE : 0) | (flags.includes("m") ? RE2JS.MULTILINE : 0);
  return (value) => {
    compiled ??= RE2JS.compile(source, options);
    return flags.includes("m") ? compiled.matcher(value).find() : compiled.matches(value);
  };
}

/** One of ajv-formats' own checks, run only on values no longer than `max` characters (all longer ones fail it). */
function bounded(max: number, check: Check | RegExp): Check {
  const test = check instanceof RegExp ? (value: string) => check.test(value) : check;
  return (value) => value.length <= max && test(value);
}

/** ajv-formats' check of one format, as a function of the string. */
function ajvCheck(name: keyof typeof fullFormats): Check {
  const format = fullFormats[name] as Format;
  if (format instanceof RegExp) return (value) => format.test(value);
  if (typeof format === "function") return format;
  if (typeof format === "object" && typeof format.validate === "function") return format.validate as Check;
  if (typeof format === "object" && format.validate instanceof RegExp) {
    const pattern = format.validate;
    return (value) => pattern.test(value);
  }
  throw new Error(`ajv-formats' ${name} is not a string check`);
}

/** ajv-formats' expression for a format, run by RE2 instead of RegExp. */
function ajvRe2(name: keyof typeof fullFormats): Check {
  const format = fullFormats[name];
  if (!(format instanceof RegExp)) throw new Error(`ajv-formats' ${name} is not a RegExp`);
  return re2(RE2JS.translateRegExp(format.source), format.flags);
}

// RFC 3986, appendix A.
const HEX = "[0-9A-Fa-f]";
const PCT = `%${HEX}{2}`;
const UNRESERVED = "A-Za-z0-9\\-._~";
const SUB_DELIMS = "!$&'()*+,;=";
const PCHAR = `(?:[${UNRESERVED}${SUB_DELIMS}:@]|${PCT})`;
const DEC_OCTET = "(?:25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])";
const IPV4 = `${DEC_OCTET}(?:\\.${DEC_OCTET}){3}`;
const H16 = `${HEX}{1,4}`;
const LS32 = `(?:${H16}:${H16}|${IPV4})`;
const IPV6 = [
  `(?:${H16}:){6}${LS32}`,
  `::(?:${H16}:){5}${LS32}`,
  `(?:${H16})?::(?:${H16}:){4}${LS32}`,
  `(?:(?:${H16}:){0,1}${H16})?::(?:${H16}:){3}${LS32}`,
  `(?:(?:${H16}:){0,2}${H16})?::(?:${H16}:){2}${LS32}`,
  `(?:(?:${H16}:){0,3}${H16})?::${H16}:${LS32}`,
  `(?:(?:${H16}:){0,4}${H16})?::${LS32}`,
  `(?:(?:${H16}:){0,5}${H16})?::${H16}`,
  `(?:(?:${H16}:){0,6}${H16})?::`,
].join("|");
const IP_LITERAL = `\\[(?:${IPV6}|[vV]${HEX}+\\.[${UNRESERVED}${SUB_DELIMS}:]+)\\]`;
const REG_NAME = `(?:[${UNRESERVED}${SUB_DELIMS}]|${PCT})*`;
const AUTHORITY = `(?:(?:[${UNRESERVED}${SUB_DELIMS}:]|${PCT})*@)?(?:${IP_LITERAL}|${IPV4}|${REG_NAME})(?::[0-9]*)?`;
const SEGMENT = `${PCHAR}*`;
const PATH_ABEMPTY = `(?:/${SEGMENT})*`;
const PATH_ABSOLUTE = `/(?:${PCHAR}+(?:/${SEGMENT})*)?`;
const PATH_ROOTLESS = `${PCHAR}+(?:/${SEGMENT})*`;
const PATH_NOSCHEME = `(?:[${UNRESERVED}${SUB_DELIMS}@]|${PCT})+(?:/${SEGMENT})*`;
const QUERY_FRAGMENT = `(?:\\?(?:${PCHAR}|[/?])*)?(?:#(?:${PCHAR}|[/?])*)?`;
const URI = `[A-Za-z][A-Za-z0-9+\\-.]*:(?://${AUTHORITY}${PATH_ABEMPTY}|${PATH_ABSOLUTE}|${PATH_ROOTLESS})?${QUERY_FRAGMENT}`;
const RELATIVE_REF = `(?://${AUTHORITY}${PATH_ABEMPTY}|${PATH_ABSOLUTE}|${PATH_NOSCHEME})?${QUERY_FRAGMENT}`;

// RFC 6570, section 2: literals and {expressions}.
const VARCHAR = `(?:[A-Za-z0-9_]|${PCT})`;
const VARSPEC = `${VARCHAR}(?:\\.?${VARCHAR})*(?::[1-9][0-9]{0,3}|\\*)?`;
const URI_TEMPLATE = `(?:[^\\x00-\\x20"'<>%\\\\^\`{|}]|${PCT}|\\{[+#./;?&=,!@|]?${VARSPEC}(?:,${VARSPEC})*\\})*`;

// ISO 8601 durations as RFC 3339 appendix A writes them: P, then at least one part; T, then at least one time part.
const DURATION_PARTS = re2("P(?:[0-9]+Y)?(?:[0-9]+M)?(?:[0-9]+D)?(?:T(?:[0-9]+H)?(?:[0-9]+M)?(?:[0-9]+S)?)?|P[0-9]+W");
const duration: Check = (value) => value !== "P" && !value.endsWith("T") && DURATION_PARTS(value);

// ajv-formats' `url` (web addresses) is one expression with lookaheads, which RE2 does not have: they
// refuse a private IPv4 address as the host (10.*, 127.*, 169.254.*, 192.168.*, 172.16–31.*). Here
// the expression names the public addresses instead, octet by octet, which is what the lookaheads
// leave (the second and third octets may have a leading zero there, as in ajv-formats).
const OCTET = "(?:[0-9]{1,2}|1[0-9]{2}|2[0-4][0-9]|25[0-5])";
const LAST = "(?:[1-9][0-9]?|1[0-9]{2}|2[0-4][0-9]|25[0-4])";
const PUBLIC_FIRST = [
  "[1-9]|1[1-9]|[2-9][0-9]", // one or two digits, not 10
  "1(?:[013-58][0-9]|2[0-689]|6[0-8]|7[013-9]|9[013-9])", // 1xx but 127, 169, 172, 192
  "2[01][0-9]|22[0-3]",
].join("|");
const PUBLIC_IPV4 = [
  `(?:${PUBLIC_FIRST})\\.${OCTET}`,
  `169\\.(?:[0-9]{1,2}|1[0-9]{2}|2[0-4][0-9]|25[0-35])`, // not 169.254
  `172\\.(?:[0-9]|0[0-9]|1[0-5]|3[2-9]|[4-9][0-9]|1[0-9]{2}|2[0-4][0-9]|25[0-5])`, // not 172.16–31
  `192\\.(?:[0-9]{1,2}|1(?:[0-57-9][0-9]|6[0-79])|2[0-4][0-9]|25[0-5])`, // not 192.168
]
  .map((start) => `(?:${start})\\.${OCTET}\\.${LAST}`)
  .join("|");
const URL_LABEL = "(?:[a-z0-9\\x{00a1}-\\x{ffff}]+-)*[a-z0-9\\x{00a1}-\\x{ffff}]+";
const URL_HOST = `${URL_LABEL}(?:\\.${URL_LABEL})*\\.[a-z\\x{00a1}-\\x{ffff}]{2,}`;
const url = re2(`(?:https?|ftp)://(?:\\S+(?::\\S*)?@)?(?:${PUBLIC_IPV4}|${URL_HOST})(?::[0-9]{2,5})?(?:/\\S*)?`, "i");

/**
 * A regular expression as JavaScript reads it: ajv-formats compiles it with RegExp (compiling, not
 * matching), which for a 1 MiB value still takes most of a second; a value over REGEX_FORMAT_MAX
 * characters fails the format unread (docs/limits.md).
 */
export const REGEX_FORMAT_MAX = 64 * 1024;
const regex = bounded(REGEX_FORMAT_MAX, ajvCheck("regex"));

/** RFC 3339 date-time: the date (10 characters), "T", "t" or a space, the time; read as ajv-formats reads them. */
function dateTime(time: Check): Check {
  const date = ajvCheck("date");
  return (value) => value.length > 11 && /[t\s]/i.test(value[10]!) && date(value.slice(0, 10)) && time(value.slice(11));
}

const BASE64_LINE = re2("(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?");
/** ajv-formats' `byte` matches line by line (its expression has the m flag): some line of the value is base64. */
const byte: Check = (value) => value.split(/[\n\r\u2028\u2029]/).some(BASE64_LINE);

/** RFC 6901 and draft-handrews-relative-json-pointer: a whole number, then "#" or a JSON Pointer. */
/** RFC 6901: empty, or "/" then reference tokens, each "~" escaping "0" or "1". One pass (RE2 slowed on long runs of "/"). */
const JSON_POINTER: Check = (value) => (value === "" || value.startsWith("/")) && !/~(?![01])/.test(value);
const relativeJsonPointer: Check = (value) => {
  let digits = value.startsWith("0") ? 1 : 0;
  if (!digits) while (digits < value.length && value[digits]! >= "0" && value[digits]! <= "9") digits++;
  const rest = value.slice(digits);
  return digits > 0 && (rest === "#" || JSON_POINTER(rest));
};

/** The string formats the classifier checks; any other format name is an annotation only. */
export const STRING_FORMATS: Readonly<Record<string, Check>> = {
  // RFC 3339: a date is 10 characters; times are read by ajv-formats' checks, whose expression has
  // a single repetition (the second's fraction) and no nesting: one pass over the value.
  date: bounded(10, ajvCheck("date")),
  time: ajvCheck("time"),
  "date-time": dateTime(ajvCheck("time")),
  "iso-time": ajvCheck("iso-time"),
  "iso-date-time": dateTime(ajvCheck("iso-time")),
  duration,
  uri: re2(URI),
  "uri-reference": re2(`${URI}|${RELATIVE_REF}`),
  "uri-template": re2(URI_TEMPLATE),
  url,
  email: ajvRe2("email"),
  // RFC 1123: at most 253 characters, and a final dot
  hostname: bounded(254, ajvCheck("hostname")),
  ipv4: bounded(15, ajvCheck("ipv4")),
  ipv6: bounded(45, ajvCheck("ipv6")),
  regex,
  uuid: bounded(45, ajvCheck("uuid")),
  "json-pointer": JSON_POINTER,
  "json-pointer-uri-fragment": ajvRe2("json-pointer-uri-fragment"),
  "relative-json-pointer": relativeJsonPointer,
  byte,
  password: () => true,
  binary: () => true,
};

/** The formats to give Ajv: the string ones above, and ajv-formats' number formats (int32, int64, float, double). */
export function linearFormats(): Record<string, Format> {
  const numbers = Object.fromEntries((["int32", "int64", "float", "double"] as const).map((name) => [name, fullFormats[name] as Format]));
  return { ...STRING_FORMATS, ...numbers };
}
