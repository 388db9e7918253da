"""Fan Tan's measures for ``parlour analyze``: passes per round (RULINGS FT-5)."""

from __future__ import annotations

from parlour.game import PASS, Round
from parlour.measures import Measure


def passes(r: Round) -> float:
    """Every pass of the round, forced or withheld (FT-5)."""
    return sum(1 for _, m in r.history if m == PASS)


METRICS = (Measure("passes", "passes per round", "mean", passes),)
HALF_ROUND_PLAYS = 26
"""Half the deck on the layout."""
