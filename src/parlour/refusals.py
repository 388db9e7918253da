"""Why a move is refused, as a catalog key and its facts (the ``game`` domain's
``refusal.*`` keys), worded two ways: the engine's reference text in English with card
codes (``why_illegal``: records, tests, logs) and the reader's words in the current
language with card names (:mod:`parlour.speech`: the terminal, the server's message).

A refusal's params are facts, never words: ``card`` a card code, ``cards`` and ``take``
lists of codes, ``options`` a list of collections (each a list of codes), ``seat`` a
seat number, ``count`` a number that picks the plural form."""

from __future__ import annotations

import re
from typing import Any

from parlour import cards
from parlour.i18n import t

RULING = re.compile(r"\s*[(（](?:(?:FA|FT|C)-\d+(?:,\s*)?)+[)）]")
"""A ruling id in parentheses ("(FA-6)", Chinese "（FT-4）"): the reference text cites the
rule, a player reads the reason without it."""

Refusal = tuple[str, dict[str, Any]]
"""``(key, params)``: a refusal's ``game`` catalog key and its facts."""


def reference(refusal: Refusal) -> str:
    """The engine's words: English, card codes (``7D does not fit on the table (FT-3)``)."""
    key, params = refusal
    return t("en", key, domain="game", **_filled(params, str, ", ".join, "+".join, " or "))


def worded(refusal: Refusal) -> str:
    """The reader's words: the current language and card names (:mod:`parlour.speech`)."""
    from parlour import speech

    def name(code: str) -> str:
        return speech.card_name(cards.from_code(code))

    def names(codes: list[str]) -> str:
        return speech.listing([name(c) for c in codes])

    key, params = refusal
    filled = _filled(params, name, names, names, speech.say("refusal.or"))
    return RULING.sub("", speech.say(key, **filled))


def _filled(params: dict[str, Any], card: Any, many: Any, take: Any, either: str
            ) -> dict[str, Any]:
    out = dict(params)
    if "card" in out:
        out["card"] = card(out["card"])
    if "cards" in out:
        out["cards"] = many(out["cards"])
    if "take" in out:
        out["take"] = take(out["take"])
    if "options" in out:
        out["options"] = either.join(take(o) for o in out["options"])
    return out
