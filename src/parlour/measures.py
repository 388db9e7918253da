"""Per-round measures a game offers to ``parlour analyze`` (the ``analysis`` part of a kit).

A game's ``analysis.py`` lists ``METRICS``, a sequence of :class:`Measure`; the balance
report adds one row per measure for that game (``parlour analyze``, docs/arena.md). It
may also set ``HALF_ROUND_PLAYS``: how many cards are out at the middle of a typical
round, which ``parlour bench`` uses to pick its mid-round positions (default 26).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from parlour.game import Round


@dataclass(frozen=True)
class Measure:
    """One number per finished round, summarised over a variant's rounds."""

    key: str
    """Its key in the JSON report."""
    label: str
    """Its row in the Markdown report, in plain words."""
    kind: Literal["mean", "share"]
    """``mean``: shown as mean ± sd; ``share``: a yes/no per round, shown as a percentage."""
    of: Callable[[Round], float]
    """The value for one finished round."""
