"""Fanti's measures for ``parlour analyze``: how often the most cards and the most Leaf
cards are tied, so nobody (or everybody tied) gets the bonus (RULINGS FA-9)."""

from __future__ import annotations

from typing import Any

from parlour.games.fanti.rules import LEAVES
from parlour.measures import Measure


def _tied(counts: list[int]) -> float:
    return float(counts.count(max(counts)) > 1)


def cards_tied(r: Any) -> float:
    """1 when two or more seats share the most collected cards (FA-9)."""
    return _tied([p.bit_count() for p in r.piles])


def leaves_tied(r: Any) -> float:
    """1 when two or more seats share the most Leaf cards (FA-9)."""
    return _tied([(p & LEAVES).bit_count() for p in r.piles])


METRICS = (Measure("cards_tied", "most cards tied", "share", cards_tied),
           Measure("leaves_tied", "most Leaf cards tied", "share", leaves_tied))
HALF_ROUND_PLAYS = 24
"""Half of a round's 48 plays (52 cards less the 4 dealt to the table)."""
