"""Every registered game, every variant: random rounds to the end, the 52 cards always
somewhere, views that show a seat only what it may see (FT-10, FA-7), records that load
back to the same match (RECORD.md), and itemised scores that add up (TEAM.md contract).

The games come from ``parlour.games.KITS`` -- including the fixture game registered by
``tests/conftest.py`` -- never from a list written here.
"""

from __future__ import annotations

import random

import pytest
from conformance_kit import (
    all_variants,
    check_score_detail,
    random_round,
    variant_id,
    variants,
)
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from parlour import record
from parlour.games import KITS
from parlour.match import Match, Shuffler

VARIANTS = all_variants()
FAST = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def test_the_suite_runs_over_every_registered_game():
    """Every registered game -- the products and the fixture game -- and every variant
    of it is in the suite's list."""
    assert {"fantan", "fanti", "ginlite"} <= set(KITS)
    for name, kit in KITS.items():
        assert kit.game.name == name and kit.part("rules") is not None
        assert {v[0] for v in VARIANTS} >= {name}
        assert len([v for v in VARIANTS if v[0] == name]) == (
            (kit.game.max_players - kit.game.min_players + 1) * len(variants(kit.game)))


@pytest.mark.parametrize("variant", VARIANTS, ids=variant_id)
def test_every_variant_plays_to_the_end_keeping_every_invariant(variant):
    """One checked random round per variant; its record loads back to the same match."""
    name, players, rules = variant
    m = random_round(KITS[name].game, players, rules, seed=VARIANTS.index(variant))
    check_score_detail(m.rounds[0])
    data = record.dump(m)
    loaded = record.load(data)
    assert loaded == m and record.dump(loaded) == data


@FAST
@given(variant=st.sampled_from(VARIANTS), seed=st.integers(0, 2**32 - 1),
       rounds=st.integers(1, 3))
def test_whole_games_round_trip_through_their_record(variant, seed, rounds):
    """Whole games of random moves: ``load(dump(m)) == m`` through JSON text, the totals
    are the rounds' sums, and every round's itemised score adds up to its score."""
    name, players, rules = variant
    game = KITS[name].game
    m = Match.new(game, players, {**rules, "rounds": rounds}, shuffler=Shuffler(seed))
    rng = random.Random(seed)

    class Random:
        def choose(self, view):
            return rng.choice(view.legal)

    m.play_out([Random()] * players, Shuffler(seed + 1))
    assert m.is_over and len(m.rounds) == rounds
    assert m.totals == [sum(r.score()[s] for r in m.rounds) for s in range(players)]
    assert m.winners and set(m.winners) <= set(range(players))
    for r in m.rounds:
        check_score_detail(r)
    loaded = record.load(record.parse_json(record.dumps(m)))
    assert loaded == m
    assert record.dump(loaded) == record.dump(m)
    assert [r.score() for r in loaded.rounds] == [r.score() for r in m.rounds]


@pytest.mark.parametrize("name", sorted(KITS))
def test_a_copy_is_independent_and_equal(name):
    """``copy()`` mid-round: equal to the original, and moves on either leave the other."""
    game = KITS[name].game
    for seed in range(5):
        r = random_round(game, game.min_players, {}, seed, check=False).rounds[0]
        fresh = game.new_round(r.rules, r.players, r.dealer, r.deck)
        for _, move in r.history[: len(r.history) // 2]:
            fresh.apply(move)
        c = fresh.copy()
        assert c == fresh and c.locations() == fresh.locations()
        kept = (list(fresh.history), fresh.locations(), fresh.current_player)
        c.apply(c.legal_moves()[0])
        assert (list(fresh.history), fresh.locations(), fresh.current_player) == kept
