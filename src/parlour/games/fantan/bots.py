"""Fan Tan's own bots: ``greedy`` (one-move rules) and ``heuristic`` (the end-case
strategy of :mod:`.heuristic`). ``random`` and the search levels are generic
(:mod:`parlour.bots.registry`)."""

from __future__ import annotations

from typing import Any

from parlour import cards
from parlour.bots.base import Bot, BotFactory
from parlour.game import PASS, Move
from parlour.games.fantan.heuristic import HeuristicFanTan
from parlour.games.fantan.rules import SEVEN, UNLOCKS


class GreedyFanTan(Bot):
    """Never pass when a card fits (FT-5); play the card that leads towards most of my
    own cards in its row (so I unlock myself), 7s last among equals."""

    name = "greedy"

    def choose(self, view: Any) -> Move:
        plays = [m for m in view.legal if m != PASS]
        if not plays:
            return PASS
        unlocks = UNLOCKS[view.rules["ace"] == "high"]

        def behind(c: int) -> int:
            """How many of my cards lie further out beyond ``c`` in its row."""
            reach, frontier = 0, unlocks[c]
            while frontier:
                reach |= frontier
                nxt = 0
                for x in cards.iter_cards(frontier):
                    nxt |= unlocks[x]
                frontier = nxt
            return (reach & view.hand).bit_count()

        return max(plays, key=lambda c: (behind(c), cards.rank_of(c) != SEVEN, -c))


BOTS: dict[str, BotFactory] = {"greedy": GreedyFanTan, "heuristic": HeuristicFanTan}
