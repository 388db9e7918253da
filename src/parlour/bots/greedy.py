"""``greedy``: simple one-move rules, a step up from random.

Fan Tan: never pass when a card fits; play the card that leads towards most of my own
cards in its row (so I unlock myself), 7s last among equals.
Fanti: take the collection worth most now (cards, Leaf cards, 2C and 10D); when
nothing can be taken, discard the least valuable card.
"""

from __future__ import annotations

from typing import Any

from parlour import cards
from parlour.bots.base import Bot, register
from parlour.game import PASS, Move, move_card, move_take
from parlour.games.fantan.rules import SEVEN, UNLOCKS
from parlour.games.fanti.rules import LEAVES, TEN_OF_DIAMONDS, TWO_OF_CLUBS


@register("greedy", "fantan")
class GreedyFanTan(Bot):
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


def capture_value(take: int, played: int) -> float:
    got = take | (1 << played)
    return (got.bit_count() + 0.5 * (got & LEAVES).bit_count()
            + 2.0 * (got >> TWO_OF_CLUBS & 1) + 2.0 * (got >> TEN_OF_DIAMONDS & 1))


@register("greedy", "fanti")
class GreedyFanti(Bot):
    def choose(self, view: Any) -> Move:
        def value(m: Move) -> float:
            c, take = move_card(m), move_take(m)
            if take:
                return 10 + capture_value(take, c)
            return -capture_value(0, c)

        return max(view.legal, key=lambda m: (value(m), -m))
