"""The `format` checks of the server (ajv-formats' "full" mode), each in time linear in the input.

Every check is either a regular expression run by RE2 (linear whatever the input) or a few lines of
plain code. A format the server does not know is not checked, as on the server.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from ._classify_js import utf16_length
from ._classify_re2 import compile_re2


def _bounded(limit: int, check: Callable[[str], bool]) -> Callable[[str], bool]:
    """The server's bound: a value longer than `limit` (JavaScript's length) fails before any matching."""
    return lambda text: utf16_length(text) <= limit and check(text)


# the server's REGEX_FORMAT_MAX (isomorphic/formats.ts): a longer `regex` value fails
REGEX_FORMAT_MAX = 64 * 1024


def _full(pattern: str, *, ignore_case: bool = False) -> Callable[[str], bool]:
    compiled = compile_re2(pattern, ignore_case=ignore_case)
    return lambda text: compiled.fullmatch(text) is not None


_DATE = compile_re2(r"(\d\d\d\d)-(\d\d)-(\d\d)")
_DAYS = [0, 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
_TIME = compile_re2(r"(?i)(\d\d):(\d\d):(\d\d(?:\.\d+)?)(z|([+-])(\d\d)(?::?(\d\d))?)?")


def _leap(year: int) -> bool:
    return year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)


def _date(text: str) -> bool:
    match = _DATE.fullmatch(text)
    if not match:
        return False
    year, month, day = (int(match.group(i)) for i in (1, 2, 3))
    return 1 <= month <= 12 and 1 <= day <= (29 if month == 2 and _leap(year) else _DAYS[month])


def _time(strict_zone: bool) -> Callable[[str], bool]:
    def check(text: str) -> bool:
        match = _TIME.fullmatch(text)
        if not match:
            return False
        hour, minute, second = int(match.group(1)), int(match.group(2)), float(match.group(3))
        zone = match.group(4)
        sign = -1 if match.group(5) == "-" else 1
        zone_hour = int(match.group(6) or 0)
        zone_minute = int(match.group(7) or 0)
        if zone_hour > 23 or zone_minute > 59 or (strict_zone and not zone):
            return False
        if hour <= 23 and minute <= 59 and second < 60:
            return True
        # a leap second: 23:59:60 in UTC
        utc_minute = minute - zone_minute * sign
        utc_hour = hour - zone_hour * sign - (1 if utc_minute < 0 else 0)
        return utc_hour in (23, -1) and utc_minute in (59, -1) and second < 61

    return check


_SEPARATOR = compile_re2(r"(?i)t|\s")


def _date_time(strict_zone: bool) -> Callable[[str], bool]:
    time = _time(strict_zone)

    def check(text: str) -> bool:
        # exactly one separator (RE2's split maps every match's offsets, quadratic in their number: two searches instead)
        first = _SEPARATOR.search(text)
        if first is None:
            return False
        date, rest = text[: first.start()], text[first.end() :]
        return _SEPARATOR.search(rest) is None and _date(date) and time(rest)

    return check


def _duration(text: str) -> bool:
    # P, then years/months/days and a time part with at least one of H/M/S, or weeks alone; not "P" alone
    if not text.startswith("P") or text == "P":
        return False
    body = text[1:]
    if _WEEKS(body):
        return True
    date, _, time = body.partition("T")
    if "T" in body and not time[:1].isdigit():
        return False
    return _DATE_PART(date) and _TIME_PART(time)


_WEEKS = _full(r"\d+W")
_DATE_PART = _full(r"(\d+Y)?(\d+M)?(\d+D)?")
_TIME_PART = _full(r"(\d+H)?(\d+M)?(\d+S)?")

_OCTET = r"(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)"
_IPV4 = rf"(?:{_OCTET}\.){{3}}{_OCTET}"
_H16 = r"[0-9a-f]{1,4}"


def _ipv6(text: str) -> bool:
    """Eight groups of hex, "::" standing for one or more zero groups, an IPv4 tail counting as two."""
    if not _IPV6_CHARS(text):
        return False
    head, double, tail = text.partition("::")
    if "::" in tail:
        return False

    def groups(part: str, last: bool) -> int | None:
        if part == "":
            return 0
        pieces = part.split(":")
        count = 0
        for index, piece in enumerate(pieces):
            if last and index == len(pieces) - 1 and _IPV4_FULL(piece):
                count += 2
            elif _H16_FULL(piece):
                count += 1
            else:
                return None
        return count

    if not double:
        count = groups(text, True)
        return count == 8
    before = groups(head, False)
    after = groups(tail, True)
    if before is None or after is None:
        return False
    return before + after <= 7


_IPV6_CHARS = _full(r"[0-9a-f:.]+", ignore_case=True)
_IPV4_FULL = _full(_IPV4)
_H16_FULL = _full(_H16, ignore_case=True)

_HOST_LABEL = r"[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?"
_HOSTNAME = _full(rf"{_HOST_LABEL}(?:\.{_HOST_LABEL})*\.?", ignore_case=True)


def _hostname(text: str) -> bool:
    bare = text[:-1] if text.endswith(".") else text
    return 1 <= len(bare) <= 253 and "\n" not in text and _HOSTNAME(text)


_EMAIL = _full(
    r"[a-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[a-z0-9!#$%&'*+/=?^_`{|}~-]+)*@(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+[a-z0-9](?:[a-z0-9-]*[a-z0-9])?",
    ignore_case=True,
)
_UUID = _full(r"(?:urn:uuid:)?[0-9a-f]{8}-(?:[0-9a-f]{4}-){3}[0-9a-f]{12}", ignore_case=True)
_JSON_POINTER = _full(r"(?:/(?:[^~/]|~0|~1)*)*")
_RELATIVE_POINTER = _full(r"(?:0|[1-9][0-9]*)(?:#|(?:/(?:[^~/]|~0|~1)*)*)")

# RFC 3986: scheme ":" hier-part [ "?" query ] [ "#" fragment ], checked piece by piece
_PCT = r"%[0-9a-f]{2}"
_UNRESERVED_SUB = r"[a-z0-9\-._~!$&'()*+,;=]"
_PCHAR = rf"(?:[a-z0-9\-._~!$&'()*+,;=:@]|{_PCT})"
_URI = _full(
    rf"[a-z][a-z0-9+\-.]*:"
    rf"(?://(?:(?:{_UNRESERVED_SUB}|:|{_PCT})*@)?"
    rf"(?:\[[0-9a-f:.v]+\]|(?:{_UNRESERVED_SUB}|{_PCT})*)(?::\d*)?(?:/{_PCHAR}*)*"
    rf"|/(?:{_PCHAR}+(?:/{_PCHAR}*)*)?|{_PCHAR}+(?:/{_PCHAR}*)*)?"
    rf"(?:\?(?:{_PCHAR}|[/?])*)?(?:#(?:{_PCHAR}|[/?])*)?",
    ignore_case=True,
)


def _uri(text: str) -> bool:
    return ("/" in text or ":" in text) and _URI(text)


_BYTE = _full(r"(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?")


def _byte(text: str) -> bool:
    # as the server's check, line by line: one line of base64 (or an empty one) is enough
    return any(_BYTE(line) for line in _LINES.split(text))


# one character class: Python's re splits on it in linear time (RE2's split is quadratic in the number of lines)
_LINES = re.compile("[\n\r\u2028\u2029]")


_Z_ANCHOR = compile_re2(r"[^\\]\\Z")


def _regex(text: str) -> bool:
    """A regular expression (compiled only, never run: compiling takes time linear in the pattern)."""
    if utf16_length(text) > REGEX_FORMAT_MAX:
        return False
    if _Z_ANCHOR.search(text):
        return False
    try:
        compile_re2(text)
        return True
    except Exception:  # noqa: BLE001 - RE2 refused it: Python's syntax, closer to JavaScript's, has the last word
        pass
    try:
        re.compile(text)
        return True
    except re.error:
        return False


STRING_FORMATS: dict[str, Callable[[str], bool]] = {
    "date": _bounded(10, _date),
    "time": _time(True),
    "date-time": _date_time(True),
    "iso-time": _time(False),
    "iso-date-time": _date_time(False),
    "duration": _duration,
    "uri": _uri,
    "email": _EMAIL,
    "hostname": _bounded(254, _hostname),
    "ipv4": _bounded(15, _IPV4_FULL),
    "ipv6": _bounded(45, _ipv6),
    "regex": _regex,
    "uuid": _bounded(45, _UUID),
    "json-pointer": _JSON_POINTER,
    "relative-json-pointer": _RELATIVE_POINTER,
    "byte": _byte,
    "password": lambda _text: True,
    "binary": lambda _text: True,
}


def _int32(value: float) -> bool:
    return float(value).is_integer() and -(2**31) <= value <= 2**31 - 1


def _int64(value: float) -> bool:
    # every whole number JSON carries fits, as on the server (JavaScript's numbers stop at 2**53 anyway)
    return float(value).is_integer()


NUMBER_FORMATS: dict[str, Callable[[float], bool]] = {
    "int32": _int32,
    "int64": _int64,
    "float": lambda _value: True,
    "double": lambda _value: True,
}
