"""Fanti as the search engines see it: determinizer, playout policy, the search
horizon (the end of the current deal, FA-3), the iteration budgets of the
``hard``/``expert`` levels, and worlds at the view's moment (:class:`.search.NowWorlds`):
until the deal ends nothing is dealt (FA-3), so a world is just the other seats'
current hands, solved exactly to the end of the deal (FA-5..FA-8) and judged there
by :func:`.search.leaf` (FA-9).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from parlour.bots.models import SearchModel
from parlour.game import Round
from parlour.games.fanti import search
from parlour.games.fanti.determinize import FantiDeterminizer
from parlour.games.fanti.heuristic import light_policy

HARD = 800
"""Worlds solved per decision for ``hard`` (capped by :data:`parlour.bots.levels.HARD_SECONDS`)."""
EXPERT = 3200
"""Worlds solved per decision for ``expert``."""
LATE_CARDS = 8
"""The generic solver: solve a dealt round exactly once the hands hold this few cards."""


def late(r: Any) -> bool:
    return sum(h.bit_count() for h in r.hands) <= LATE_CARDS


def horizon(start: Any) -> Callable[[Round], list[tuple[float, float]] | None] | None:
    """The generic solver's horizon: the end of the current deal, judged by
    :func:`.search.leaf`; in the last deal none (the search reaches the true result)."""
    if start.dealt >= 52:
        return None
    dealt = start.dealt

    def at_end_of_deal(r: Any) -> list[tuple[float, float]] | None:
        return None if r.dealt == dealt else list(search.leaf(tuple(r.piles)))

    return at_end_of_deal


MODEL = SearchModel(
    "fanti", FantiDeterminizer, light_policy,
    key=lambda r: (tuple(r.hands), tuple(r.piles), r.table, r.turn, r.last_collector,
                   r.dealt),
    late=late, inference="full", horizon=horizon, respond=True, now=search.NowWorlds(joint=True),
    deep=search.NowWorlds(deals=2), expert=search.NowWorlds(fitted=True, joint=True))


def read_round(view: Any) -> Any:
    """The reading of every other seat over an earlier round of the game, as ``view``
    saw it (:func:`parlour.bots.opponents.read_earlier`): the decision's reading
    (:func:`.opponents.read_seats`); at the round's end every play's hands are known
    exactly (FA-3, FA-4), else the last deal's are averaged over worlds drawn from a
    fixed seed."""
    import random

    from parlour.games.fanti.opponents import read_seats

    rng = random.Random(0)
    return read_seats(view, [search.deal_hands(view, rng) for _ in range(search.READ_WORLDS)])


def warm() -> float:
    """Load what a first ``hard`` move would (the compiled heuristic that answers for
    the other seats, :mod:`.heuristic_kernel`; the ``learned`` player model of the
    reading, :mod:`.opponents`) by searching one position where another seat has
    played; returns the seconds it took."""
    import random
    import time

    from parlour.bots.budget import Budget
    from parlour.bots.models import practice_view
    from parlour.bots.pimc import Pimc
    from parlour.games.fanti.heuristic_kernel import heuristic_move
    from parlour.games.fanti.rules import FANTI

    started = time.perf_counter()
    heuristic_move(1, 2, 3, 4, 0, True)  # compiles (seconds) or loads numba's cache
    Pimc("fanti", Budget(iterations=4)).estimates(practice_view(FANTI, 2, 3),
                                                   random.Random(0))
    return time.perf_counter() - started
