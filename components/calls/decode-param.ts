// Browser-safe: the not-found page decodes the id of its URL with it too.

/** Decodes a route param once, safely: a malformed escape leaves it as it is. */
export function decodeParam(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}
