"""Bots never make an illegal move, in any variant (FT-3, FT-5, FA-5, FA-6)."""

from __future__ import annotations

import pytest
from helpers_bots import VARIANTS, round_at
from hypothesis import given, settings
from hypothesis import strategies as st

from parlour.bots import bot_names, make_bot
from parlour.games import get_game
from parlour.match import Match, Shuffler


def play_round_checked(game: str, players: int, rules: dict, lineup: list[str],
                       seed: int) -> None:
    g = get_game(game)
    m = Match.new(g, players, {"rounds": 1, **rules}, shuffler=Shuffler(seed))
    bots = [make_bot(lineup[s % len(lineup)], game, seed + s) for s in range(players)]
    r = m.rounds[0]
    while not r.is_over:
        p = r.current_player
        view = r.view(p)
        move = bots[p].choose(view)
        assert move in view.legal, f"{lineup[p % len(lineup)]} chose {move} not in {view.legal}"
        assert r.why_illegal(move) is None
        r.apply(move)


@settings(max_examples=40, deadline=None)
@given(variant=st.sampled_from(VARIANTS), seed=st.integers(0, 10**6))
def test_simple_bots_only_make_legal_moves(variant, seed):
    game, players, rules = variant
    play_round_checked(game, players, rules, ["heuristic", "greedy", "random", "medium"],
                       seed)


@settings(max_examples=8, deadline=None)
@given(variant=st.sampled_from(VARIANTS), seed=st.integers(0, 10**6))
def test_search_bots_only_make_legal_moves(variant, seed):
    game, players, rules = variant
    play_round_checked(game, players, rules, ["pimc:12", "ismcts:12", "hard:12:noinfer"],
                       seed)


@pytest.mark.parametrize("game", ["fantan", "fanti"])
def test_levels_and_engines_are_registered(game):
    names = bot_names(game)
    for name in ("random", "greedy", "heuristic", "pimc", "ismcts",
                 "easy", "medium", "hard", "expert"):
        assert name in names
    assert make_bot("hard:5", game, 1).name == "hard:5"
    with pytest.raises(ValueError):
        make_bot("pimc:x", game, 1)
    with pytest.raises(ValueError):
        make_bot("nonsense", game, 1)


class _SlowMachine:
    """A stand-in for the ``time`` module whose clock moves 0.25 s at every reading:
    a machine far too slow for the level's iterations."""

    def __init__(self) -> None:
        self.now = 0.0

    def perf_counter(self) -> float:
        self.now += 0.25
        return self.now


@pytest.mark.parametrize("game", ["fantan", "fanti"])
def test_levels_keep_their_time_promises(game, monkeypatch):
    """hard answers within 1 s and expert within 3 s: their budgets carry a time limit
    under those, and a decision stops on its clock when the iterations cannot finish
    in time (a fake clock: no wall-clock measurement)."""
    from parlour.bots import budget as budget_module
    from parlour.bots.budget import Budget
    from parlour.bots.levels import EXPERT_SECONDS, HARD_SECONDS
    from parlour.games import get_kit

    model = get_kit(game).part("model")
    hard, expert = make_bot("hard", game, 0), make_bot("expert", game, 0)
    assert hard.engine.budget == Budget(model.HARD, HARD_SECONDS) and HARD_SECONDS < 1.0
    assert expert.engine.budget == Budget(model.EXPERT, EXPERT_SECONDS)
    assert EXPERT_SECONDS < 3.0
    assert make_bot("hard:50", game, 0).engine.budget.seconds is None  # reproducible

    view = next(v for v in _views(game) if len(v.legal) >= 2)
    monkeypatch.setattr(budget_module, "time", _SlowMachine())
    for bot, its in ((hard, model.HARD), (expert, model.EXPERT)):
        first = bot.estimates(view)[0]
        assert first.samples * len(view.legal) < its // 4  # stopped by the clock


def _views(game):
    for seed in range(20):
        r = round_at(game, 4, {}, seed, 10)
        if not r.is_over:
            yield r.view(r.current_player)
