"""Per-round measures a game offers to ``parlour analyze`` (the ``analysis`` part of a kit).

A game's ``analysis.py`` lists ``METRICS``, a sequence of :class:`Measure`; the balance
report adds one row per measure for that game (``parlour analyze``, docs/arena.md). It
may also set ``HALF_ROUND_PLAYS``: how many cards are out at the middle of a typical
round, which ``parlour bench`` uses to pick its mid-round positions (default 26); and
``ABLATIONS``, a sequence of :class:`Ablation`: the rules ``parlour analyze --ablate``
can switch off to measure what they are worth.
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


@dataclass(frozen=True)
class Ablation:
    """A rule that ``parlour analyze --ablate KEY`` switches off to measure its worth.

    The round is played once under the rules as they are; then it is scored again as
    if the rule did not exist, so each deal gives a pair (with, without) on the very
    same cards and play. The rule favours one seat of the round (``seat``), whose
    points and win rate the report compares with and without it.
    """

    key: str
    """The switch's name on the command line, e.g. ``final-sweep``."""
    label: str
    """The rule in plain words, e.g. "the final sweep (FA-8)"."""
    who: str
    """The seat the rule favours, in plain words, e.g. "the last collector"."""
    seat: Callable[[Round], int | None]
    """That seat in a finished round, or None when the rule did not apply."""
    score_without: Callable[[Round], list[int]]
    """The finished round's score as if the rule were switched off."""
