"""The API key becomes ``Authorization: Bearer <key>`` here.

A real key is ``tg_`` and plain ASCII letters, digits, "_" and "-"; any character outside visible
ASCII is a copy that went wrong (or the docs' placeholder ``tg_…``), refused up front with where it is.
"""

from __future__ import annotations

import unicodedata


class ApiKeyError(ValueError):
    """A key that cannot be sent in an HTTP header: raised by ``Reporter`` (and so ``Toolgate``)."""


def authorization_header(api_key: str) -> str:
    """The Authorization header's value for this key; ApiKeyError naming the first character a header cannot carry (never the key)."""
    for position, char in enumerate(api_key, start=1):
        if not 0x21 <= ord(char) <= 0x7E:
            code = f"U+{ord(char):04X}"
            printable = unicodedata.category(char)[0] in "LNPS"
            shown = f'"{char}" ({code})' if printable else code
            raise ApiKeyError(
                f"The Toolgate API key has {shown} at character {position}, which cannot be sent in an HTTP header. "
                "Paste the real key from Settings → API keys (tg_… in the docs is a placeholder)."
            )
    return f"Bearer {api_key}"
