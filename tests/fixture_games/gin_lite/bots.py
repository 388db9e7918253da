"""Gin Lite's own bot: ``greedy`` keeps its longest suit (GL-4) and discards from its
shortest one, the lowest card first. ``random`` is generic."""

from __future__ import annotations

from typing import Any

from parlour import cards
from parlour.bots.base import Bot, BotFactory
from parlour.game import Move


class GreedyGinLite(Bot):
    name = "greedy"

    def choose(self, view: Any) -> Move:
        def suit_size(c: int) -> int:
            return (view.hand & cards.SUIT_MASKS[cards.suit_of(c)]).bit_count()

        return min(view.legal, key=lambda c: (suit_size(c), cards.rank_of(c), c))


BOTS: dict[str, BotFactory] = {"greedy": GreedyGinLite}
