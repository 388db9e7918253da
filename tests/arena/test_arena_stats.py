"""Duplicate rotations, seeds, confidence intervals and ratings."""

from __future__ import annotations

import math
from fractions import Fraction

import pytest

from parlour.arena import stats
from parlour.arena.lineup import bot_seed, deal_seed, lineup, seat_entries
from parlour.arena.tournament import Tournament


def test_lineup_repeats_the_last_bot():
    assert lineup(["hard", "heuristic"], 4) == ["hard", "heuristic", "heuristic", "heuristic"]
    assert lineup(["a", "b", "c"], 3) == ["a", "b", "c"]
    with pytest.raises(ValueError):
        lineup(["a", "b", "c"], 2)
    with pytest.raises(ValueError):
        lineup([" "], 2)


def test_each_entry_sits_in_every_seat_once_over_the_rotations():
    for n in range(2, 9):
        seen = [set() for _ in range(n)]
        for r in range(n):
            entries = seat_entries(n, r)
            assert sorted(entries) == list(range(n))
            for seat, e in enumerate(entries):
                seen[e].add(seat)
        assert all(s == set(range(n)) for s in seen)


def test_seeds_depend_on_deal_and_seat_not_rotation():
    assert bot_seed(1, 2, 3) == bot_seed(1, 2, 3)
    assert len({bot_seed(1, d, s) for d in range(10) for s in range(8)}) == 80
    assert deal_seed(1, 0) != deal_seed(2, 0)
    assert 0 <= deal_seed(5, 5) < 2**63


def test_clustered_ci_by_hand():
    # six deals, two games each: wins 2, 1, 0, 1, 1, 1 -> p = 0.5
    p, (lo, hi) = stats.clustered_ci([(2, 2), (1, 2), (0, 2), (1, 2), (1, 2), (1, 2)])
    assert p == 0.5
    var = 6 / 5 * ((2 - 1) ** 2 + (0 - 1) ** 2) / 12**2
    half = stats.Z95 * math.sqrt(var)
    assert lo == pytest.approx(0.5 - half)
    assert hi == pytest.approx(0.5 + half)


def test_clustered_ci_edges():
    assert stats.clustered_ci([]) == (0.0, (0.0, 1.0))
    assert stats.clustered_ci([(1, 4)]) == (0.25, (0.0, 1.0))
    p, ci = stats.clustered_ci([(1, 1)] * 10)
    assert p == 1.0 and ci == (1.0, 1.0)


def test_clustering_widens_the_interval_when_deals_decide():
    """Games of one deal that agree carry less information than independent games."""
    agree = [(4, 4), (0, 4)] * 10
    mixed = [(2, 4)] * 20
    _, a = stats.clustered_ci(agree)
    _, m = stats.clustered_ci(mixed)
    assert a[1] - a[0] > m[1] - m[0]


def test_win_shares_and_ranks():
    assert stats.win_shares([1, 3], 4) == [0, 0.5, 0, 0.5]
    assert stats.ranks([3, 0, 5, 3], lower_wins=True) == [2, 1, 4, 2]
    assert stats.ranks([3, 0, 5, 3], lower_wins=False) == [2, 4, 1, 2]


def test_ratings_order_the_better_bot_first():
    games = [(["a", "b", "b"], [1, 2, 3])] * 20
    r = stats.ratings(games)
    assert r["a"][0] > 25 > r["b"][0]


@pytest.mark.parametrize("game,players", [("fantan", 4), ("fantan", 3), ("fanti", 2),
                                          ("fanti", 3)])
def test_identical_bots_score_exactly_the_fair_share(game, players):
    """Seeded by (deal, seat), identical bots play identical games in every rotation."""
    for bot, deals in (("heuristic", 6), ("random", 5)):
        result = Tournament(game, players, [bot], deals, seed=4).run()
        wins = [Fraction(0)] * players
        for g in result.games:
            for seat, entry in enumerate(g.entries):
                if seat in g.winners:
                    wins[entry] += Fraction(1, len(g.winners))
        assert wins == [Fraction(deals * players, players)] * players  # exactly 1/N
        for entry in result.summary()["entries"]:
            assert entry["win_rate"] == pytest.approx(1 / players, abs=1e-6)
