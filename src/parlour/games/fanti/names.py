"""Fanti's names for the standard cards (RULINGS FA-1).

J is the Guardian, Q the Mystic, K the Scout; clubs are Leaf cards and diamonds Star
cards. Cards keep their standard codes (``2C``, ``10D``) in records and on the wire;
these names are what a player reads, from the ``game`` catalogs in the player's language
and card-name style (:mod:`parlour.speech`: the game's names, or the classic Jack of
clubs).

>>> from parlour import cards
>>> name(cards.from_code("2C")), short(cards.from_code("KD"))
('Leaf 2', 'S★')
"""

from __future__ import annotations

from parlour import cards, speech
from parlour.cards import CLUBS, DIAMONDS, HEARTS, JACK, KING, QUEEN, SPADES, Card

RANK_LETTERS = {JACK: "G", QUEEN: "M", KING: "S"}
"""The letters a player may type for the named ranks (``G★`` is the Jack of diamonds)."""
SUIT_SYMBOLS = {CLUBS: "🍃", DIAMONDS: "★", HEARTS: "♥", SPADES: "♠"}


def name(c: Card) -> str:
    """Display name of a card in Fanti: ``Leaf 2``, ``Star 10``, ``Hearts Guardian``
    (``2 of clubs``, ``Jack of hearts`` in the classic style)."""
    return speech.card_name(c)


def short(c: Card) -> str:
    """Short Fanti label: rank letter (G/M/S for J/Q/K) and suit mark, e.g. ``G★``."""
    r, s = cards.rank_of(c), cards.suit_of(c)
    return RANK_LETTERS.get(r, cards.RANKS[r]) + SUIT_SYMBOLS[s]
