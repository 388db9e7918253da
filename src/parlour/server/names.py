"""Player names as people read them: normalised, printable, distinct at a table.

A name is NFC-normalised, its runs of spaces collapsed, and refused when it holds a
control character, NUL, a bidirectional override or isolate, a zero-width or other
format character, a private-use or unassigned code point, or a line separator: such
characters make one name look like another (``"\\u202eTSOH"`` shows as "HOST").
Letters that draw nothing (the Hangul filler U+3164, the Braille blank U+2800 and the
rest of Unicode's default-ignorable code points) are refused too, and so is a name that
mixes scripts with look-alike letters ("Ηοst" with a Greek Eta and omicron), judged by
the Unicode confusables data of the kept ``confusable_homoglyphs`` library; Chinese,
Japanese and Korean names, which mix their scripts with Latin as a matter of course,
are let through as Unicode's "highly restrictive" profile (UTS #39) allows. Two names
at one table must also differ once look-alike letters are read as the Latin letter they
imitate (:func:`key`). A person may not take a word the room itself uses for someone
("Spectator", "(watching)", "Host", "Computer 2", a bot's level...).

:func:`refusal` is the one question for any name a person chooses (a seat, an account).
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

from confusable_homoglyphs import categories, confusables

MAX_LENGTH = 24
REFUSED_CATEGORIES = {"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"}
INVISIBLE = frozenset(
    [0x00AD, 0x034F, 0x061C, 0x115F, 0x1160, 0x17B4, 0x17B5, 0x2800, 0x3164, 0xFEFF,
     0xFFA0, 0x1D159, *range(0x180B, 0x1810), *range(0x200B, 0x2010),
     *range(0x202A, 0x202F), *range(0x2060, 0x2070), *range(0xFE00, 0xFE0E),
     *range(0xFFF0, 0xFFF9), *range(0x1BCA0, 0x1BCA4), *range(0x1D173, 0x1D17B),
     *range(0xE0000, 0xE1000)])
"""Default-ignorable code points (Unicode DerivedCoreProperties) and blank letters:
they draw nothing, so a name made of them looks empty or like another name. The emoji
presentation selectors U+FE0E and U+FE0F stay allowed (phones add them to emoji)."""
MAX_MARKS = 3
"""Combining marks in a row: a few are real writing; dozens spill over other lines."""
CJK_SETS = ({"LATIN", "HAN", "HIRAGANA", "KATAKANA"}, {"LATIN", "HAN", "BOPOMOFO"},
            {"LATIN", "HAN", "HANGUL"})
"""Script mixes that are ordinary writing (UTS #39, highly restrictive)."""
RESERVED = frozenset(
    ["spectator", "spectators", "watching", "watcher", "host", "admin", "administrator",
     "moderator", "mod", "system", "server", "parlour", "dealer", "table", "you", "bot",
     "computer", "player", "seat", "standin", "nobody", "everyone", "random", "easy",
     "medium", "hard", "expert", "learned", "greedy", "heuristic", "pimc", "ismcts"])
"""Words the room uses for someone (``Spectator``, ``Host``, ``Computer 2``, a bot's
level); a person's name may not be one of them, with or without a number."""
_RESERVED_WITHIN = ("spectator", "watching", "admin", "moderator")
_WORDS = re.compile(r"[^0-9a-z]+")


class BadName(ValueError):
    """A name that cannot be shown as it is (the message says why, in plain words)."""


def clean(raw: str) -> str:
    """The name to show for ``raw`` ("" for a blank one), or :class:`BadName`.

    Checks the characters only; a name a person chooses for themselves also goes
    through :func:`check_reserved` (see :func:`refusal`)."""
    name = unicodedata.normalize("NFC", raw)
    marks = 0
    for ch in name:
        if unicodedata.category(ch) in REFUSED_CATEGORIES or ord(ch) in INVISIBLE:
            raise BadName("names may hold letters, digits, spaces and punctuation, but "
                          f"not invisible or control characters (U+{ord(ch):04X})")
        marks = marks + 1 if unicodedata.category(ch).startswith("M") else 0
        if marks > MAX_MARKS:
            raise BadName("a name may not pile up accents on one letter")
    name = " ".join(name.split())
    if len(name) > MAX_LENGTH:
        raise BadName(f"a name has at most {MAX_LENGTH} characters")
    if name and _look_alike(name):
        raise BadName("this name mixes letters from different alphabets that look "
                      "alike (like a Greek or Cyrillic letter among Latin ones): "
                      "write it in one alphabet")
    return name


def _look_alike(name: str) -> bool:
    """Mixed scripts with confusable letters, except the ordinary CJK mixes."""
    scripts = categories.unique_aliases(name) - {"COMMON", "INHERITED"}
    if len(scripts) < 2 or any(scripts <= allowed for allowed in CJK_SETS):
        return False
    return bool(confusables.is_dangerous(name))


def check_reserved(name: str) -> None:
    """:class:`BadName` when ``name`` is a word the room uses for someone."""
    words = _WORDS.sub(" ", key(name)).split()
    joined = "".join(words)
    bare = joined.rstrip("0123456789")
    if bare in RESERVED or any(w in joined for w in _RESERVED_WITHIN):
        raise BadName(f"{name!r} is a word the card room uses for someone else "
                      "(a spectator, the host, a computer player): choose another name")


def refusal(name: str) -> str | None:
    """Why ``name`` cannot be a person's name, in plain words, or None when it can.

    The one rule for every name a person chooses (a seat here, an account name
    elsewhere): the characters (:func:`clean`), not blank, and not a reserved word.
    The name is judged as :func:`clean` would show it."""
    try:
        shown = clean(name)
        if not shown:
            return "a name needs at least one letter or digit"
        check_reserved(shown)
    except BadName as e:
        return str(e)
    return None


def person(raw: str) -> str:
    """:func:`clean` for a name a person chooses for themselves ("" stays blank)."""
    name = clean(raw)
    if name:
        check_reserved(name)
    return name


def key(name: str) -> str:
    """What two names must not share at one table: case and width folded, and every
    letter that imitates a Latin one (Greek Eta for H, Cyrillic o for o) read as it."""
    folded = unicodedata.normalize("NFKC", name)
    return "".join(_latin(ch) for ch in folded).casefold()


@lru_cache(maxsize=4096)
def _latin(ch: str) -> str:
    """The ASCII letter or digit ``ch`` is confusable with, or ``ch`` itself."""
    if ch.isascii():
        return ch
    glyphs = [g["c"] for g in confusables.confusables_data.get(ch, ())]
    return next((g for g in glyphs if len(g) == 1 and g.isascii() and g.isalnum()), ch)
