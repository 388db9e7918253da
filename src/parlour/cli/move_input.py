"""Reading a move from what a player types at the ``parlour play`` prompt.

Accepted (case does not matter): the number of a move in the menu (``3``); a card
(``7d``, ``10H``, ``T♥``, ``q♠``, RULINGS C-1); ``p`` or ``pass``; and whatever the
game's presenter adds (Fanti: its marks and letters, and what a card takes, ``5c take
6h``). The game's part is :meth:`parlour.present.Presenter.read_move`; this module is
the words every game shares (quit, help) and the entry points the session uses.

:func:`read_move` returns a move that still has to pass the rules (``why_illegal``); it
raises :class:`BadInput` with a one-line reason when the text cannot be a move.
"""

from __future__ import annotations

from typing import Any

from parlour.cards import Card
from parlour.game import Move
from parlour.present import PASS_WORDS, BadInput, presenter

__all__ = ["PASS_WORDS", "QUIT_WORDS", "HELP_WORDS", "BadInput", "help_line", "parse_card",
           "read_move"]

QUIT_WORDS = frozenset({"q", "quit", "exit"})
HELP_WORDS = frozenset({"?", "h", "help"})


def help_line(game: str) -> str:
    return presenter(game).help_line()


def parse_card(game: str, text: str) -> Card:
    """A card as a person types it, with the game's own marks."""
    return presenter(game).parse_card(text)


def read_move(game: str, view: Any, text: str) -> Move:
    """The move meant by ``text`` for the seat of ``view`` (whose turn it is)."""
    return presenter(game).read_move(view, text)
