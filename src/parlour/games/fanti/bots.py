"""Fanti's own bots: ``greedy`` (the collection worth most now) and ``heuristic``
(capture value minus gift risk, :mod:`.heuristic`). ``random`` and the search levels
are generic (:mod:`parlour.bots.registry`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from parlour.bots.base import Bot, BotFactory
from parlour.game import Move, move_card, move_take
from parlour.games.fanti.heuristic import HeuristicFanti
from parlour.games.fanti.rules import LEAVES, TEN_OF_DIAMONDS, TWO_OF_CLUBS


def capture_value(take: int, played: int) -> float:
    """Cards, Leaf cards, 2C and 10D (FA-9) in a collection with the card played."""
    got = take | (1 << played)
    return (got.bit_count() + 0.5 * (got & LEAVES).bit_count()
            + 2.0 * (got >> TWO_OF_CLUBS & 1) + 2.0 * (got >> TEN_OF_DIAMONDS & 1))


def greedy_move(legal: Sequence[Move]) -> Move:
    """``greedy``'s move: the collection worth most now, else the cheapest discard."""
    def value(m: Move) -> float:
        c, take = move_card(m), move_take(m)
        if take:
            return 10 + capture_value(take, c)
        return -capture_value(0, c)

    return max(legal, key=lambda m: (value(m), -m))


class GreedyFanti(Bot):
    """Take the collection worth most now (FA-5, FA-9); when nothing can be taken,
    discard the least valuable card (:func:`greedy_move`)."""

    name = "greedy"

    def choose(self, view: Any) -> Move:
        return greedy_move(view.legal)


BOTS: dict[str, BotFactory] = {"greedy": GreedyFanti, "heuristic": HeuristicFanti}
