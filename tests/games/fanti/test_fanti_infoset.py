"""Fanti information-set search (parlour.games.fanti.infoset): held to the per-world
solver, and shown to remove strategy fusion rather than to copy PIMC."""

from __future__ import annotations

import random

import pytest
from helpers_bots import round_at

from parlour.bots import make_bot
from parlour.bots.budget import Budget
from parlour.bots.pimc import Pimc
from parlour.games.fanti.infoset import InfoSolver
from parlour.games.fanti.search import deal_hands, solve_moves


def _flat(values: list[tuple[float, float]]) -> list[float]:
    return [x for pair in values for x in pair]


def _decisions(players: int, seeds: range, bot: str = "heuristic"):
    """Views of real decisions (two or more legal moves) along seeded rounds."""
    for seed in seeds:
        r = round_at("fanti", players, {}, seed, 0, bot)
        bots = [make_bot(bot, "fanti", seed * 10 + s) for s in range(players)]
        while not r.is_over:
            p = r.current_player
            view = r.view(p)
            if len(view.legal) > 1:
                yield view
            r.apply(bots[p].choose(view))


@pytest.mark.parametrize("players,fitted", [(2, False), (2, True), (3, False), (4, False)])
def test_one_world_is_exactly_the_per_world_solver(players, fitted):
    """With a single world there is nothing to tell apart: every move's value is
    :func:`solve_moves` answering the heuristic (``respond``), with the same leaf."""
    rng = random.Random(players)
    checked = 0
    for view in _decisions(players, range(3)):
        world = deal_hands(view, rng)
        legal = list(view.legal)
        want = solve_moves(view, world, legal, respond=True, fitted=fitted)
        got = InfoSolver(view, world, fitted).root(view, [world], [1.0], legal)
        assert _flat(got) == pytest.approx(_flat(want), abs=1e-12)
        checked += 1
    assert checked > 10


def test_many_worlds_never_value_a_move_above_pimc_and_sometimes_below():
    """Per world, PIMC picks my later moves knowing the hands; here they are picked
    once per information set, so no move is worth more than PIMC's weighted mean --
    and on real positions some are worth less (strategy fusion is gone, not copied).
    Duplicated worlds change nothing but the weights."""
    rng = random.Random(7)
    below = 0
    for view in _decisions(2, range(4)):
        legal = list(view.legal)
        worlds = [deal_hands(view, rng) for _ in range(6)]
        weights = [rng.random() + 0.1 for _ in worlds]
        got = InfoSolver(view, worlds[0]).root(view, worlds, weights, legal)
        per = [solve_moves(view, w, legal, respond=True) for w in worlds]
        for j in range(len(legal)):
            pimc = sum(wt * v[j][0] for wt, v in zip(weights, per, strict=True)) / sum(weights)
            assert got[j][0] <= pimc + 1e-12
            below += got[j][0] < pimc - 1e-9
        twice = InfoSolver(view, worlds[0]).root(view, worlds + worlds, weights + weights,
                                                 legal)
        assert _flat(twice) == pytest.approx(_flat(got), abs=1e-12)
    assert below > 0


def test_hard_and_expert_search_their_worlds_together_and_reproduce():
    """``hard`` and ``expert`` (Fanti) use the joint search; a decision reproduces
    from its seed, ranks every legal move and differs from the one-by-one search
    somewhere along real rounds."""
    assert make_bot("hard", "fanti", 1).engine.now.joint
    assert make_bot("expert", "fanti", 1).engine.now.joint
    assert not make_bot("deep:50", "fanti", 1).engine.now.joint  # two deals: per world
    differs = 0
    for view in _decisions(2, range(3)):
        first = Pimc("fanti", Budget(iterations=60)).estimates(view, random.Random(3))
        again = Pimc("fanti", Budget(iterations=60)).estimates(view, random.Random(3))
        assert first == again
        assert sorted(e.move for e in first) == sorted(view.legal)
        apart = Pimc("fanti", Budget(iterations=60))
        apart.now = type(apart.now)(joint=False)
        alone = apart.estimates(view, random.Random(3))
        differs += [e.value for e in first] != pytest.approx([e.value for e in alone])
    assert differs > 0


def test_past_its_deadline_the_joint_search_answers_from_one_world():
    """On an overloaded machine the joint search gives up at the search's deadline and
    answers from the first world alone (milliseconds), never overrunning the move's
    time: exactly the one-world values, for every legal move."""
    import time

    from parlour.games.fanti.search import NowWorlds

    rng = random.Random(11)
    view = next(v for v in _decisions(2, range(1, 3)) if len(v.legal) > 2)
    legal = list(view.legal)
    worlds = [(deal_hands(view, rng), 1.0) for _ in range(8)]
    late = NowWorlds(joint=True).solve_all(view, worlds, legal, time.perf_counter() - 1.0)
    want = solve_moves(view, worlds[0][0], legal, respond=True)
    assert _flat(late) == pytest.approx(_flat(want), abs=1e-12)
    on_time = NowWorlds(joint=True).solve_all(view, worlds, legal, time.perf_counter() + 60)
    assert on_time == NowWorlds(joint=True).solve_all(view, worlds, legal)


@pytest.mark.parametrize("joint", [True, False])
def test_a_decision_out_of_time_before_its_first_world_still_ranks_every_move(joint):
    """On a machine so loaded that reading the other seats' plays uses up the move's
    time, the search still deals one pool of worlds and ranks every legal move (it
    once divided by zero there)."""
    view = next(v for v in _decisions(4, range(3)) if len(v.legal) > 2 and v.history)
    engine = Pimc("fanti", Budget(iterations=400, seconds=1e-9))
    engine.now = type(engine.now)(joint=joint)
    ranked = engine.estimates(view, random.Random(2))
    assert sorted(e.move for e in ranked) == sorted(view.legal)
    assert all(0.0 <= e.value <= 1.0 for e in ranked)
