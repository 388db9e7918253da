"""Fan Tan as the search engines see it: determinizer, playout policy, exact-solver
settings, the iteration budgets of the ``hard``/``expert`` levels, and the compiled
``hard`` engine (:class:`.search.FastFanTan`).

The exact solver never considers the withholding pass of ``strict: false`` (FT-5,
FT-8): it is fined, and allowing it would let the solver pass around the table forever.
"""

from __future__ import annotations

from typing import Any

from parlour.bots.budget import Budget
from parlour.bots.models import SearchModel
from parlour.game import PASS, Move
from parlour.games.fantan.determinize import FanTanDeterminizer
from parlour.games.fantan.heuristic import round_policy

HARD = 3000
"""Iterations per decision for ``hard`` (capped by :data:`parlour.bots.levels.HARD_SECONDS`)."""
EXPERT = 9000
"""Iterations per decision for ``expert``."""
LATE_HAND = 5
"""Solve a world exactly once the seat to move holds at most this many cards."""


def solver_moves(r: Any) -> list[Move]:
    """Legal moves without the withholding pass (FT-5, FT-8)."""
    moves = r.legal_moves()
    if len(moves) > 1 and moves[-1] == PASS:
        moves.pop()
    return moves


def root_moves(view: Any) -> list[Move]:
    """The moves a search bot weighs at ``view``: every legal move, except the
    withholding pass of ``strict: false`` (FT-5, FT-8) when this seat's last move was a
    pass and no card has been played since. The position would then repeat (same table,
    same hand), and a search that judges one pass at a time, answering itself as the
    heuristic afterwards, can prefer passing again every time: with every other seat
    blocked the round would never end."""
    legal = list(view.legal)
    if len(legal) > 1 and PASS in legal:
        for seat, move in reversed(view.history):
            if move != PASS:
                break  # a card was played since: the position has moved on
            if seat == view.seat:
                legal.remove(PASS)
                break
    return legal


def late(r: Any) -> bool:
    return r.hands[r.turn].bit_count() <= LATE_HAND


HINT_POINTS = True
"""Hints give each move's expected penalty or chips (:func:`parlour.bots.hints.rich_hints`):
one player wins a round, so the chance to win is often the same for every move while
what the others pay is not."""

MODEL = SearchModel(
    "fantan", FanTanDeterminizer, round_policy,
    key=lambda r: (tuple(r.hands), r.turn), late=late, inference="full",
    moves=solver_moves, respond=True, root_moves=root_moves)


def engine(budget: Budget, inference: str | None = None, deep: bool = False) -> Any:
    """The ``hard`` engine: PIMC compiled with numba (:class:`.search.FastFanTan`);
    ``deep`` judges each move two of my moves deep, the second chosen once per
    information set (``deep:N``)."""
    from parlour.games.fantan.search import FastFanTan

    return FastFanTan(budget, inference=inference, deep=deep)


def read_round(view: Any) -> Any:
    """The reading of every other seat over an earlier round of the game, as ``view``
    saw it (:func:`parlour.bots.opponents.read_earlier`): the same reading as a
    decision's (:func:`.opponents.read_seats`), on worlds within the hard constraints
    (sizes, pass voids) drawn from a fixed seed."""
    import random

    from parlour.games.fantan.opponents import read_seats
    from parlour.games.fantan.search import MODEL_EPSILON, READ_WORLDS

    det, rng = FanTanDeterminizer(), random.Random(0)
    return read_seats(view, [det.hands(view, rng) for _ in range(READ_WORLDS)], MODEL_EPSILON)


def warm() -> float:
    """Compile (or load from cache) the compiled engine's kernels; the seconds it took."""
    from parlour.games.fantan.search import warm as warm_search

    return warm_search()
