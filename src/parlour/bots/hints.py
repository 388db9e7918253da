"""Move hints: every legal move with its estimated value, for people and servers.

>>> from parlour.bots.hints import hints, suggest
>>> hints("fantan", round.view(seat), level="hard", seed=0)   # doctest: +SKIP
[(19, 0.41), (32, 0.37), (52, 0.0)]

The value of a move is the estimated **probability that this seat wins the round**
after playing it (a shared win counts as its share: 1/2 for a two-way tie), as
measured by the PIMC search over worlds consistent with the view, with
the level's budget:

=======  ==========================================================
level    search budget per call
=======  ==========================================================
easy     a fifth of ``hard``'s iterations (the game's ``model.HARD``)
medium   half of ``hard``'s iterations
hard     ``hard``'s iterations, at most 1 s
expert   ``expert``'s engine and iterations (``model.EXPERT``), at most 3 s
=======  ==========================================================

The engine is the one ``hard`` plays with (:func:`.levels.search_bot`): the game's
own engine if its kit has one (Fan Tan's compiled PIMC), else the generic PIMC, so
a hint costs what a ``hard`` move costs. Games without a search model have no hints.

**Hints in points.** A game whose kit says so (``HINT_POINTS = True`` in its
``model``: Fan Tan, where a round is won by one player and most choices only change how
much the others pay) also gets each move's **expected round score** for the seat in
the game's own currency -- penalty points or chips (:func:`rich_hints`,
:func:`expected_points`): the mean score over :data:`POINT_WORLDS` worlds drawn from
the view as the search draws them, every move played out in every world with the
same noise (paired). Moves are then ranked by that expectation (the chance to win
breaks ties), and moves whose expectations agree to :data:`EQUAL` are equal.

With an iteration budget only (easy, medium) the values are reproducible from the
seed; hard and expert are also cut by wall time, so under load they may differ.
The list is best first; it is empty when the seat has no move to make (not its
turn, or the round is over). Only the view is used: hints never see hidden cards.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from parlour.bots.budget import Budget
from parlour.bots.levels import iterations, level_budget, search_bot
from parlour.bots.opponents import read_earlier
from parlour.game import Move
from parlour.games import get_game, get_kit

POINT_WORLDS = 32
"""Worlds over which a move's expected score is averaged."""
POINT_MIN_WORLDS = 8
"""Worlds always played, whatever the clock says."""
POINT_SECONDS = 1.0
"""Wall time after which no further world is played (so a hint stays within the
server's per-move limit on a loaded machine)."""
POINT_NOISE = 0.1
"""Playout noise for the expected score (as the search's playouts)."""
EQUAL = 0.005
"""Expected scores closer than this are equal (they show the same to two decimals)."""

BUDGETS = {"easy": lambda g: Budget(max(1, iterations(g, "hard") // 5)),
           "medium": lambda g: Budget(max(1, iterations(g, "hard") // 2)),
           "hard": lambda g: level_budget(g, "hard"),
           "expert": lambda g: level_budget(g, "expert")}


def hints(game_name: str, view: Any, level: str = "hard", seed: int = 0,
          earlier: Sequence[Any] = ()) -> list[tuple[Move, float]]:
    """Every legal move of ``view`` with its estimated win probability, best first.
    ``earlier``: the seat's views of the game's finished rounds, whose plays the
    search reads each opponent by too (:func:`.opponents.read_earlier`)."""
    game = get_game(game_name).name
    if level not in BUDGETS:
        raise ValueError(f"level must be one of {', '.join(BUDGETS)}, not {level!r}")
    if not view.legal:
        return []
    engine = search_bot("expert" if level == "expert" else "hard", game, seed,
                        BUDGETS[level](game)).engine
    if hasattr(engine, "earlier"):
        engine.earlier = read_earlier(game, earlier)
    return [(e.move, e.value) for e in engine.estimates(view, random.Random(seed))]


def suggest(game_name: str, view: Any, level: str = "hard", seed: int = 0) -> Move | None:
    """The best move for ``view`` by :func:`hints`, or None when there is none to make."""
    ranked = hints(game_name, view, level, seed)
    return ranked[0][0] if ranked else None


@dataclass(frozen=True)
class Hint:
    """One move of a hint: its chance to win and, where the game counts hints in
    points, the seat's expected round score after it (None otherwise)."""

    move: Move
    value: float
    points: float | None = None
    equal_to_best: bool = False
    """Its expectation (points where given, else the chance) equals the best move's."""


def in_points(game_name: str) -> bool:
    """Whether the game's kit asks for hints in points (``model.HINT_POINTS``)."""
    return bool(get_kit(get_game(game_name).name).attr("model", "HINT_POINTS", False))


def expected_points(game_name: str, view: Any, moves: Sequence[Move], seed: int = 0,
                    worlds: int = POINT_WORLDS, seconds: float | None = POINT_SECONDS
                    ) -> dict[Move, float]:
    """Each move's expected round score for ``view``'s seat (module doc); past
    ``seconds`` (None: no limit) no further world is played, once
    :data:`POINT_MIN_WORLDS` have been."""
    import time

    started = time.monotonic()
    from parlour.bots.determinize import world_pool
    from parlour.bots.models import model_for, noisy

    model = model_for(get_game(game_name).name)
    rng = random.Random(seed)
    pool = world_pool(model.determinizer(), view, worlds, rng, model.policy, model.inference)
    play = noisy(model.policy, POINT_NOISE)
    totals = dict.fromkeys(moves, 0.0)
    weight = 0.0
    for i, world in enumerate(pool):
        if (seconds is not None and i >= POINT_MIN_WORLDS
                and time.monotonic() - started > seconds):
            break
        noise = rng.getrandbits(64)
        for m in moves:
            r = world.round.copy()
            r.advance(m)
            prng = random.Random(noise)  # the same noise for every move: paired
            while not r.is_over:
                r.advance(play(r, prng))
            score = r.score()
            assert score is not None
            totals[m] += world.weight * score[view.seat]
        weight += world.weight
    return {m: totals[m] / weight for m in moves}


def rich_hints(game_name: str, view: Any, level: str = "hard", seed: int = 0,
               earlier: Sequence[Any] = (), seconds: float | None = POINT_SECONDS
               ) -> list[Hint]:
    """:func:`hints` with each move's expected score where the game counts hints in
    points, ranked by it (best first, by the game's direction), and equal moves
    marked."""
    ranked = hints(game_name, view, level, seed, earlier)
    if not ranked:
        return []
    if not in_points(game_name):
        best = ranked[0][1]
        return [Hint(m, v, None, abs(v - best) < EQUAL) for m, v in ranked]
    game = get_game(game_name)
    sign = -1.0 if game.lower_wins(view.rules) else 1.0
    points = expected_points(game_name, view, [m for m, _ in ranked], seed,
                             seconds=seconds)
    order = sorted(ranked, key=lambda mv: (-sign * round(points[mv[0]] / EQUAL / 2),
                                           -mv[1]))
    top = points[order[0][0]]
    return [Hint(m, v, points[m], abs(points[m] - top) < EQUAL) for m, v in order]
