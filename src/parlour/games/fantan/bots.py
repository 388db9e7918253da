"""Fan Tan's own bots: ``greedy`` (one-move rules) and ``heuristic`` (the end-case
strategy of :mod:`.heuristic`). ``random`` and the search levels are generic
(:mod:`parlour.bots.registry`)."""

from __future__ import annotations

from typing import Any

from parlour import cards
from parlour.bots.base import Bot, BotFactory
from parlour.cards import Card, Mask
from parlour.game import PASS, Move
from parlour.games.fantan.heuristic import HeuristicFanTan
from parlour.games.fantan.rules import SEVEN, UNLOCKS, card_mask


def greedy_card(hand: Mask, legal: Mask, ace_high: bool) -> Card:
    """``greedy``'s card among the playable ``legal`` (non-empty): the one that leads
    towards most of my own cards further out in its row, 7s last among equals."""
    unlocks = UNLOCKS[ace_high]

    def behind(c: int) -> int:
        """How many of my cards lie further out beyond ``c`` in its row."""
        reach, frontier = 0, unlocks[c]
        while frontier:
            reach |= frontier
            nxt = 0
            for x in cards.iter_cards(frontier):
                nxt |= unlocks[x]
            frontier = nxt
        return (reach & hand).bit_count()

    return max(cards.iter_cards(legal),
               key=lambda c: (behind(c), cards.rank_of(c) != SEVEN, -c))


class GreedyFanTan(Bot):
    """Never pass when a card fits (FT-5); otherwise :func:`greedy_card`."""

    name = "greedy"

    def choose(self, view: Any) -> Move:
        legal = card_mask(view.legal)
        if not legal:
            return PASS
        return greedy_card(view.hand, legal, view.rules["ace"] == "high")


BOTS: dict[str, BotFactory] = {"greedy": GreedyFanTan, "heuristic": HeuristicFanTan}
