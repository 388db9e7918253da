"""Player names as people read them: normalised, printable, distinct at a table.

A name is NFC-normalised, its runs of spaces collapsed, and refused when it holds a
control character, NUL, a bidirectional override or isolate, a zero-width or other
format character, a private-use or unassigned code point, or a line separator: such
characters make one name look like another (``"\\u202eTSOH"`` shows as "HOST").
"""

from __future__ import annotations

import unicodedata

MAX_LENGTH = 24
REFUSED_CATEGORIES = {"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"}


class BadName(ValueError):
    """A name that cannot be shown as it is (the message says why, in plain words)."""


def clean(raw: str) -> str:
    """The name to show for ``raw`` ("" for a blank one), or :class:`BadName`."""
    name = unicodedata.normalize("NFC", raw)
    for ch in name:
        if unicodedata.category(ch) in REFUSED_CATEGORIES:
            raise BadName("names may hold letters, digits, spaces and punctuation, but "
                          f"not invisible or control characters (U+{ord(ch):04X})")
    name = " ".join(name.split())
    if len(name) > MAX_LENGTH:
        raise BadName(f"a name has at most {MAX_LENGTH} characters")
    return name


def key(name: str) -> str:
    """What two names must not share at one table (case and width folded)."""
    return unicodedata.normalize("NFKC", name).casefold()
