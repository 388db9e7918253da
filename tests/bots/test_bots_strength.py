"""A quick strength check on a tiny fixed deal set (seconds, not minutes).

``hard``'s engine at a small iteration budget must still clearly beat random play;
the real strength figures are benchmarks (benchmarks/strength.sh, docs/bots.md).
"""

from __future__ import annotations

from parlour.arena.tournament import Tournament


def test_hard_engine_beats_random_at_fan_tan():
    s = Tournament("fantan", 4, ["hard:80", "random"], 5, seed=21).run().summary()
    hard, rnd = s["bots"]
    assert hard["name"] == "hard:80"
    assert hard["win_rate"] >= 0.3  # fair share 25%
    assert hard["mean_score"] < rnd["mean_score"] - 0.5  # fewer penalty points (FT-7)


def test_hard_engine_beats_random_at_fanti():
    s = Tournament("fanti", 2, ["hard:60", "random"], 6, seed=21).run().summary()
    hard, rnd = s["bots"]
    assert hard["win_rate"] >= 0.75  # fair share 50%
    assert hard["mean_score"] > rnd["mean_score"] + 1  # more Fanti points (FA-9)


def test_heuristic_beats_random_at_both_games():
    ft = Tournament("fantan", 4, ["heuristic", "random"], 40, seed=5).run().summary()
    assert ft["bots"][0]["win_rate"] >= 0.4
    fa = Tournament("fanti", 2, ["heuristic", "random"], 40, seed=5).run().summary()
    assert fa["bots"][0]["win_rate"] >= 0.7
