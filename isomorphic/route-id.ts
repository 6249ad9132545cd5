// Ids in page and download URLs (call ids, run ids) are the harness's and may hold any character.
// Next.js hands them over percent-encoded or not depending on the characters, so a lookup tries the
// id as given, then percent-decoded. Browser-safe: the not-found page decodes its URL's id too.

/** Decodes a route param once, safely: a malformed escape leaves it as it is. */
export function decodeParam(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/** The ids to try for a route param, in order, without repeats: as given, then decoded. */
export function idCandidates(raw: string): string[] {
  return [...new Set([raw, decodeParam(raw)])];
}
