// The API key becomes `Authorization: Bearer <key>` here, for the reporter and `toolgate check`
// alike. A header carries bytes, and fetch refuses a character past U+00FF with a ByteString
// error that says nothing of the key; a real key is tg_ and plain ASCII letters, digits, "_" and
// "-", so any character outside visible ASCII is a copy that went wrong (or the docs' placeholder
// tg_…), refused up front with where it is.

/** A key that cannot be sent: thrown by `new Reporter` (and so `new Toolgate`, `withToolgate`). */
export class ApiKeyError extends Error {
  override name = "ApiKeyError";
}

const VISIBLE_ASCII = /[^\x21-\x7e]/u;

/** The Authorization header's value for this key, or an ApiKeyError naming the first character a header cannot carry (never the key). */
export function authorizationHeader(apiKey: string): string {
  const bad = VISIBLE_ASCII.exec(apiKey);
  if (bad) {
    const char = bad[0];
    const code = `U+${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")}`;
    const printable = /\p{L}|\p{N}|\p{P}|\p{S}/u.test(char);
    const position = [...apiKey.slice(0, bad.index)].length + 1;
    throw new ApiKeyError(
      `The Toolgate API key has ${printable ? `"${char}" (${code})` : code} at character ${position}, which cannot be sent in an HTTP header. Paste the real key from Settings → API keys (tg_… in the docs is a placeholder).`,
    );
  }
  return `Bearer ${apiKey}`;
}
