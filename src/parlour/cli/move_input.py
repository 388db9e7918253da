"""Reading a move from what a player types at the ``parlour play`` prompt.

Accepted (case does not matter):

* the number of a move in the menu (``3``);
* a card: ``7d``, ``10H``, ``T♥``, ``q♠`` (RULINGS C-1); in Fanti also the Fanti marks
  ``🍃`` (Leaf, clubs) and ``★`` (Star, diamonds) and the rank letters G, M, S for
  Guardian, Mystic, Scout (FA-1), e.g. ``G★`` for the Jack of diamonds;
* Fanti: a card and the cards it takes: ``5c 6h``, ``5c take 6h``, ``ac 4d+6s``. A card
  alone is enough when it has one way to play; ``5c discard`` asks to put it on the table;
* ``p`` or ``pass`` (Fan Tan).

:func:`read_move` returns a move that still has to pass the rules (``why_illegal``); it
raises :class:`BadInput` with a one-line reason when the text cannot be a move.
"""

from __future__ import annotations

import re
from typing import Any

from parlour import cards
from parlour.cards import Card
from parlour.game import PASS, Move, move_card, play

PASS_WORDS = frozenset({"p", "pass"})
QUIT_WORDS = frozenset({"q", "quit", "exit"})
HELP_WORDS = frozenset({"?", "h", "help"})
_FILLER = frozenset({"take", "takes", "taking", "and", "with", "→", "->", "x"})
_DISCARD = frozenset({"discard", "table", "drop"})
_FANTI_RANK = re.compile(r"([gms])([cdhs♣♦♥♠])", re.IGNORECASE)


class BadInput(ValueError):
    """Text that is not a move here; the message says why, in one line."""


def help_line(game: str) -> str:
    if game == "fanti":
        return ("Type a move number, a card (5c, T♥, G★), or a card and what it takes "
                "(5c 6h, 5c take 6h+4d); q saves and quits.")
    return "Type a move number, a card (7d, T♥), or p to pass; q saves and quits."


def parse_card(game: str, text: str) -> Card:
    """A card as a person types it, with the Fanti marks in Fanti."""
    t = text.strip()
    if game == "fanti":
        t = t.replace("🍃", "C").replace("★", "D")
        if m := _FANTI_RANK.fullmatch(t):
            t = {"g": "J", "m": "Q", "s": "K"}[m.group(1).lower()] + m.group(2)
    try:
        return cards.parse(t)
    except ValueError:
        raise BadInput(f"{text!r} is not a card or a move number (type ? for help)") from None


def read_move(game: str, view: Any, text: str) -> Move:
    """The move meant by ``text`` for the seat of ``view`` (whose turn it is)."""
    t = text.strip()
    legal = list(view.legal)
    if not t:
        raise BadInput(help_line(game))
    low = t.lower()
    if low.isdigit():
        i = int(low)
        if not 1 <= i <= len(legal):
            raise BadInput(f"there is no move {i}: choose 1 to {len(legal)}")
        return legal[i - 1]
    if low in PASS_WORDS:
        return PASS
    tokens = [w for w in re.split(r"[\s,+]+", t) if w and w.lower() not in _FILLER]
    card = parse_card(game, tokens[0])
    if not view.hand >> card & 1:
        raise BadInput(f"you do not hold {cards.code(card)}")
    rest = tokens[1:]
    if game != "fanti":
        if rest:
            raise BadInput("play one card at a time, e.g. 7d")
        return card
    if len(rest) == 1 and rest[0].lower() in _DISCARD:
        return play(card, 0)
    if rest:
        take = cards.mask_of(parse_card(game, w) for w in rest)
        return play(card, take)
    ways = [m for m in legal if move_card(m) == card]
    if len(ways) == 1:
        return ways[0]
    numbers = ", ".join(str(legal.index(m) + 1) for m in ways)
    raise BadInput(f"{cards.code(card)} can collect in {len(ways)} ways: type one of the "
                   f"numbers {numbers}, or the card and what it takes (e.g. "
                   f"'{cards.code(card).lower()} take ...')")
