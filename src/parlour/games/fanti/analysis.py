"""Fanti's measures for ``parlour analyze``: how often the most cards and the most Leaf
cards are tied, so nobody (or everybody tied) gets the bonus (RULINGS FA-9); and the
rule ``parlour analyze --ablate`` can switch off: the final sweep (FA-8)."""

from __future__ import annotations

from typing import Any

from parlour.games.fanti.rules import LEAVES, score_piles
from parlour.measures import Ablation, Measure


def _tied(counts: list[int]) -> float:
    return float(counts.count(max(counts)) > 1)


def cards_tied(r: Any) -> float:
    """1 when two or more seats share the most collected cards (FA-9)."""
    return _tied([p.bit_count() for p in r.piles])


def leaves_tied(r: Any) -> float:
    """1 when two or more seats share the most Leaf cards (FA-9)."""
    return _tied([(p & LEAVES).bit_count() for p in r.piles])


def last_collector(r: Any) -> int | None:
    """The seat that collected last and so took the cards left on the table (FA-8)."""
    return r.leftovers_to()


def without_sweep(r: Any) -> list[int]:
    """The round scored as if the leftovers had stayed on the table (no FA-8 sweep)."""
    piles = list(r.piles)
    seat = r.leftovers_to()
    if seat is not None:
        piles[seat] &= ~r.leftovers()
    return score_piles(piles, r.rules["ties"] == "shared")


METRICS = (Measure("cards_tied", "most cards tied", "share", cards_tied),
           Measure("leaves_tied", "most Leaf cards tied", "share", leaves_tied))
ABLATIONS = (Ablation("final-sweep", "the final sweep (FA-8)", "the last collector",
                       last_collector, without_sweep),)
HALF_ROUND_PLAYS = 24
"""Half of a round's 48 plays (52 cards less the 4 dealt to the table)."""
