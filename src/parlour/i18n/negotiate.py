"""Which language to answer in: the player's choice, else their browser's preferences."""

from __future__ import annotations

from parlour.i18n.languages import DEFAULT, LANGUAGES, language

ALIASES = {"prs": "fa", "pes": "fa"}
"""Dari and Iranian Persian by their own ISO 639-3 codes read the Persian catalog."""


def _preferences(header: str) -> list[str]:
    """Accept-Language's tags, most wanted first (q=0 and malformed entries dropped)."""
    ranked: list[tuple[float, int, str]] = []
    for i, part in enumerate(header.split(",")):
        tag, _, rest = part.strip().partition(";")
        tag = tag.strip()
        q = 1.0
        for param in rest.split(";"):
            name, _, value = param.strip().partition("=")
            if name.strip().lower() == "q":
                try:
                    q = float(value)
                except ValueError:
                    q = 0.0
        if tag and tag != "*" and q > 0:
            ranked.append((-q, i, tag))
    return [tag for _, _, tag in sorted(ranked)]


def _match(tag: str) -> str | None:
    exact = language(tag)
    if exact is not None:
        return exact.code
    primary = tag.split("-")[0].split("_")[0].lower()
    primary = ALIASES.get(primary, primary)
    return primary if primary in LANGUAGES else None


def negotiate(accept_language: str | None, chosen: str | None) -> str:
    """The language code to use: a valid ``chosen`` (the cookie, ``--lang``) wins, then
    the first of ``Accept-Language``'s tags we have (by primary subtag: ``fa-IR`` ->
    ``fa``, ``zh-CN`` -> ``zh``), then English."""
    picked = language(chosen)
    if picked is not None:
        return picked.code
    for tag in _preferences(accept_language or ""):
        found = _match(tag)
        if found is not None:
            return found
    return DEFAULT

