"""The rules as the product applies them, in plain words, for ``parlour rules``.

Each game's package holds its own rulebook (``games/NAME/rulebook.py``: ``SUMMARY`` and
``RULINGS``, ruling id -> :class:`Ruling`); the rulings shared by every game (the cards,
the deal, the shuffle: ``C-n``) are here. Error messages cite ruling ids such as FT-5;
``parlour rules fantan FT-5`` shows what that ruling means. The texts are written for
players, describing what the engine does; they are not copies of the specification.
"""

from __future__ import annotations

from dataclasses import dataclass

from parlour.games import get_kit


@dataclass(frozen=True)
class Ruling:
    """One ruling: its short title and what it means at the table."""

    title: str
    text: str


COMMON: dict[str, Ruling] = {
    "C-1": Ruling("The cards",
                  "Every game here uses one ordinary 52-card deck without jokers. A card is written "
                  "rank then suit: AC, 7D, 10H, QS (clubs, diamonds, hearts, spades). Records "
                  "always use exactly these codes; when you type a move you may also write T "
                  "for 10, use lower case, or the suit symbols ♣ ♦ ♥ ♠."),
    "C-2": Ruling("A fresh deck every round",
                  "Each round starts from a full, newly shuffled deck. The order of the deck and "
                  "the dealer's seat say everything about a deal, which is why a record can be "
                  "replayed card for card."),
    "C-3": Ruling("Shuffling",
                  "Games against real people are shuffled with the operating system's secure "
                  "random source. Simulations, tests and replays take a seed instead, and the "
                  "same seed always gives the same games."),
}
SEATS = ("Seats are numbered from 0 and go clockwise; the seat 'after' or 'next to' seat s is "
         "s + 1, wrapping round to 0.")


def rulings(game: str | None) -> dict[str, Ruling]:
    """Every ruling of a game (its own, then the common ones); the common ones alone
    for ``None``."""
    if game is None:
        return dict(COMMON)
    own = get_kit(game).attr("rulebook", "RULINGS", {}) or {}
    return {**own, **COMMON}


def summary(game: str) -> str:
    """The game's rules in a few paragraphs (its rulebook's ``SUMMARY``)."""
    return get_kit(game).attr("rulebook", "SUMMARY", "") or ""


def find(ruling_id: str, game: str | None = None) -> tuple[str | None, str, Ruling] | None:
    """``(game or None, canonical id, ruling)`` for an id such as ``ft-5`` or ``FA8``,
    looked up in ``game`` (or in every game when None); None when no game has it."""
    from parlour.games import GAMES

    key = ruling_id.strip().upper().replace("_", "-")
    if "-" not in key:
        key = key.rstrip("0123456789") + "-" + key[len(key.rstrip("0123456789")):]
    if key in COMMON:
        return None, key, COMMON[key]
    for name in [game] if game else list(GAMES):
        own = get_kit(name).attr("rulebook", "RULINGS", {}) or {}
        if key in own:
            return name, key, own[key]
    return None
