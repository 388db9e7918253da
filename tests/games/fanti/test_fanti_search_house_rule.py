"""FA-8's "who collected last" is written once, in :func:`.rules.last_collector_after`:
a house rule put there reaches the engine and every search path alike.

The house rule of these tests: the leftovers go to the last seat to *play*, capture or
not. Under it the engine, the per-world solver, the joint information-set solver and
the opponent reader must still agree move for move; a path that kept its own copy of
FA-8 would follow the real rule and part from the engine.
"""

from __future__ import annotations

import random
import sys

import pytest
from helpers_bots import round_at

from parlour.bots.solver import solve
from parlour.game import Move
from parlour.games.fanti import rules as fanti_rules
from parlour.games.fanti.heuristic import round_policy
from parlour.games.fanti.infoset import InfoSolver
from parlour.games.fanti.opponents import round_plays
from parlour.games.fanti.search import Solver, final_outcome


def _last_to_play(last_collector: int, seat: int, move: Move) -> int:
    return seat


@pytest.fixture
def house_rule(monkeypatch):
    """The house rule in place of FA-8 wherever the reference function is bound."""
    reference = fanti_rules.last_collector_after
    bound = [m for m in list(sys.modules.values())
             if getattr(m, "__name__", "").startswith("parlour.games.fanti")
             and getattr(m, "last_collector_after", None) is reference]
    for module in bound:
        monkeypatch.setattr(module, "last_collector_after", _last_to_play)
    return bound


def test_the_rule_itself_fa_8():
    """FA-8: a collection makes its seat the last collector; a discard changes nothing."""
    from parlour import cards

    take = fanti_rules.play(cards.parse("5C"), cards.mask_of([cards.parse("6D")]))
    assert fanti_rules.last_collector_after(-1, 2, take) == 2
    assert fanti_rules.last_collector_after(0, 2, take) == 2
    assert fanti_rules.last_collector_after(0, 2, fanti_rules.play(cards.parse("KS"))) == 0
    assert fanti_rules.last_collector_after(-1, 1, fanti_rules.play(cards.parse("KS"))) == -1


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_solvers_step_follows_the_engine_under_a_house_rule(house_rule, players):
    """Random rounds stepped by the engine and :meth:`Solver._play`: the same last
    collector after every move, and the same final outcome (FA-8's leftovers)."""
    differs = False
    for seed in range(6):
        r = round_at("fanti", players, {}, seed, 0)
        s = Solver(players, r.turn, r._gtg, False, False)
        rng = random.Random(seed)
        while not r.is_over:
            m = rng.choice(r.legal_moves())
            *_, t, p, _nxt, lc, done = s._play(list(r.hands), r.table, list(r.piles),
                                               r.turn, r.last_collector, m)
            final = r.dealt >= 52 and done
            r.advance(m)
            assert lc == r.last_collector
            differs |= not m >> 6
            if final:
                assert final_outcome(p, t, lc, False) == final_outcome(r.piles, 0, -1, False)
    assert differs  # the house rule did move the last collector on a discard


@pytest.mark.parametrize("players", [2, 3])
def test_the_reader_follows_the_engine_under_a_house_rule(house_rule, players):
    """:func:`.opponents.round_plays`: who had collected last before each play read is
    the engine's, replaying the same moves."""
    r = round_at("fanti", players, {}, 3, 30)
    view = r.view(r.current_player)
    replay = round_at("fanti", players, {}, 3, 0)
    before = []
    for seat, m in view.history:
        before.append((seat, replay.last_collector))
        replay.advance(m)
    want = [lc for seat, lc in before if seat != view.seat]
    assert [p.last_collector for p in round_plays(view)] == want


def _result(x) -> list[tuple[float, float]]:
    """The true result of a finished engine round, per seat (its leftovers given out)."""
    return list(final_outcome(x.piles, 0, -1, False))


@pytest.mark.parametrize("players,moves", [(2, 42), (3, 40), (4, 34)])
def test_the_last_deals_search_follows_the_engine_under_a_house_rule(house_rule, players,
                                                                      moves):
    """In the round's last deal, where the leftovers decide the score: every root move's
    value from the per-world solver and from the joint solver (one world) equals the
    generic solver's over engine rounds answering the heuristic."""
    checked = 0
    for seed in range(6):
        r = round_at("fanti", players, {}, 70 + seed, moves)
        if r.is_over or r.dealt < 52:
            continue
        checked += 1
        me, view, legal = r.turn, r.view(r.turn), r.legal_moves()
        s = Solver(players, me, r._gtg, False, True, True, 0)
        per_world = s.root(list(r.hands), r.table, list(r.piles), me, r.last_collector,
                           legal)
        joint = InfoSolver(view, r.hands).root(view, [list(r.hands)], [1.0], legal)
        for m, mine, ours in zip(legal, per_world, joint, strict=True):
            child = r.copy()
            child.advance(m)
            ref = solve(child, _result, lambda x: (
                tuple(x.hands), tuple(x.piles), x.table, x.turn, x.last_collector),
                memo={}, budget=10**6, me=me, opponents=round_policy)
            assert mine[1] == pytest.approx(ref[me][1], abs=1e-12)
            assert ours[1] == pytest.approx(ref[me][1], abs=1e-12)
    assert checked >= 3
