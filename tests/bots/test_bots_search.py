"""Search engines: reproducible from a seed, hints as documented, exact solver."""

from __future__ import annotations

import random

import pytest
from helpers_bots import round_at

from parlour.bots import make_bot
from parlour.bots.budget import Budget
from parlour.bots.hints import hints, suggest
from parlour.bots.ismcts import Ismcts
from parlour.bots.models import model_for, outcomes
from parlour.bots.pimc import Pimc
from parlour.bots.solver import TooBig, solve


def a_choice(game, players, seed, moves):
    r = round_at(game, players, {}, seed, moves)
    while len(r.legal_moves()) < 2:
        r.apply(r.legal_moves()[0])
    return r, r.view(r.current_player)


@pytest.mark.parametrize("engine", [Ismcts, Pimc])
@pytest.mark.parametrize("game,players", [("fantan", 4), ("fanti", 2)])
def test_seeded_search_is_reproducible(engine, game, players):
    _r, view = a_choice(game, players, 11, 20)
    first = engine(game, Budget(iterations=60)).estimates(view, random.Random(5))
    again = engine(game, Budget(iterations=60)).estimates(view, random.Random(5))
    assert first == again
    assert sorted(e.move for e in first) == sorted(view.legal)


def test_seeded_bots_replay_the_same_game():
    def game_moves():
        r = round_at("fantan", 4, {}, 2, 0)
        bots = [make_bot("ismcts:30", "fantan", 9 + s) for s in range(4)]
        while not r.is_over:
            p = r.current_player
            r.apply(bots[p].choose(r.view(p)))
        return r.history

    assert game_moves() == game_moves()


@pytest.mark.parametrize("game,players", [("fantan", 4), ("fanti", 3)])
def test_hints_rank_every_legal_move_with_a_win_probability(game, players):
    _r, view = a_choice(game, players, 4, 12)
    ranked = hints(game, view, level="easy", seed=3)
    assert sorted(m for m, _ in ranked) == sorted(view.legal)
    values = [v for _, v in ranked]
    assert all(0.0 <= v <= 1.0 for v in values)
    assert suggest(game, view, level="easy", seed=3) == ranked[0][0]
    assert hints(game, view, level="easy", seed=3) == ranked


def test_hints_are_empty_off_turn_and_reject_unknown_levels():
    r, view = a_choice("fantan", 4, 4, 12)
    other = r.view((r.current_player + 1) % 4)
    assert hints("fantan", other) == []
    assert suggest("fantan", other) is None
    with pytest.raises(ValueError):
        hints("fantan", view, level="godlike")


def test_solver_finds_the_winning_line_in_a_small_world():
    """The max^n solver agrees with win shares at the leaves and respects its budget."""
    r = round_at("fantan", 3, {}, 8, 200, bot="heuristic")
    # rewind to a late position: replay all but the last few moves
    from parlour.games import get_game

    g = get_game("fantan")
    late = g.new_round(r.rules, r.players, r.dealer, r.deck)
    for _, m in r.history[:-6]:
        late.apply(m)
    model = model_for("fantan")
    value = solve(late, outcomes, model.key, model.policy)
    wins = [w for _, w in value]
    assert sum(wins) == pytest.approx(1.0)
    assert all(w in (0.0, 1.0) for w in wins)
    assert all(w <= reward <= w + 0.1 + 1e-12 for reward, w in value)
    early = g.new_round(r.rules, r.players, r.dealer, r.deck)
    with pytest.raises(TooBig):
        solve(early, outcomes, model.key, model.policy, budget=50)
