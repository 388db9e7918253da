"""``heuristic`` for Fan Tan: the end-case strategy with blocking (docs/bots.md).

Every playable card falls in one of three classes, tried in this order:

1. *Needy* cards: I hold cards further out in that lane with other players' cards in
   between. Play these first, in the lane where I still need most cards from others,
   so the cards I am waiting for get unlocked early.
2. *Safe* cards: the next card out is mine (an end-case run I can finish alone).
   They give nobody a new play, so they keep others blocked; shorter runs first,
   keeping the long ones as moves for later turns.
3. *Releasing* end-case cards: nothing of mine lies beyond, so playing them only
   helps others. Played last, fewest released cards first (a 7 that opens two lanes
   is held longest), then the lane that exposes the fewest cards.

It never withholds (passes with a playable card, possible under ``strict: false``):
the fine (3 points or chips, FT-8) outweighs any blocking it could buy.
"""

from __future__ import annotations

from typing import Any

from parlour import cards
from parlour.bots.base import Bot
from parlour.cards import Card, Mask
from parlour.game import PASS, Move
from parlour.games.fantan.lanes import lane_features
from parlour.games.fantan.rules import card_mask


def card_key(card: Card, hand: Mask, ace_high: bool) -> tuple[int, int, int, int]:
    """How much the heuristic wants to play ``card`` now (higher is better)."""
    need, own, release, exposed = lane_features(card, hand, ace_high)
    if need > 0:
        return (2, need, -release, own)
    if release == 0:
        return (1, -own, 0, 0)
    return (0, -release, -exposed, 0)


def best_card(hand: Mask, legal: Mask, ace_high: bool) -> Card:
    """The heuristic's play among the playable cards ``legal`` (non-empty)."""
    best, best_key = -1, None
    for c in cards.iter_cards(legal):
        key = card_key(c, hand, ace_high)
        if best_key is None or key > best_key:
            best, best_key = c, key
    return best


def round_policy(r: Any, rng: Any = None) -> Move:
    """The heuristic's move in a Fan Tan round the caller owns (a search world)."""
    legal = r.legal_mask()
    if not legal:
        return PASS
    if not legal & (legal - 1):  # one playable card
        return legal.bit_length() - 1
    return best_card(r.hands[r.turn], legal, r.rules["ace"] == "high")


class HeuristicFanTan(Bot):
    """The end-case heuristic (see the module docstring)."""

    name = "heuristic"

    def choose(self, view: Any) -> Move:
        legal = card_mask(view.legal)
        if not legal:
            return PASS
        return best_card(view.hand, legal, view.rules["ace"] == "high")
