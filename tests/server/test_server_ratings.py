"""Ratings: the model, the idempotent update, rebuild, and bots never rated (issue 32)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sqlalchemy import text

from parlour.server import rated, ratings
from parlour.server.db import Store, _alchemy_tx


@pytest.fixture
def store(tmp_path):
    s = Store(f"sqlite:///{tmp_path}/r.sqlite3")
    yield s
    s.close()


def rate(store: Store, e: rated.Ending, owners: dict[int, str]) -> bool:
    with store.engine.begin() as c:
        return rated.record_in(_alchemy_tx(c), e, owners)


def stored(store: Store) -> list[tuple]:
    with store.engine.connect() as c:
        return [tuple(r) for r in c.execute(text(
            "SELECT player_id, pool, mu, sigma, games, wins FROM ratings ORDER BY 1, 2"))]


def test_pools_follow_the_game_kit():
    assert ratings.pool_of("fanti", 2) == "fanti:2"
    assert ratings.pool_of("fanti", 3) == ratings.pool_of("fanti", 4) == "fanti:3-4"
    assert ratings.pool_of("fantan", 4) == "fantan:3-4"
    assert ratings.pool_of("fantan", 7) == "fantan:5-8"
    assert ratings.label("fantan:5-8") == "Fan Tan, 5 to 8 players"
    assert ratings.label("fanti:2") == "Fanti, 2 players"
    assert ratings.pools("fanti") == ["fanti:2", "fanti:3-4"]


def test_places_share_ties_and_put_leavers_last():
    # higher wins: 10, 7, 7, 3 -> 1, 2, 2, 4
    assert ratings.places(False, [10, 7, 7, 3], [0], [False] * 4) == [1, 2, 2, 4]
    # lower wins (Fan Tan points), two winners share first
    assert ratings.places(True, [2, 2, 9], [0, 1], [False] * 3) == [1, 1, 3]
    # the winner on points left: they place last, the others move up
    assert ratings.places(False, [10, 7, 3], [0], [True, False, False]) == [3, 1, 2]
    # FT-9: the game's winner is first even if another total is better
    assert ratings.places(True, [5, 1, 9], [0], [False] * 3) == [1, 2, 3]


def test_a_win_raises_and_a_loss_lowers():
    (w, ws), (lo, ls) = ratings.update([(ratings.MU, ratings.SIGMA)] * 2, [1, 2])
    assert w > ratings.MU > lo and ws < ratings.SIGMA
    assert ratings.shown(ratings.MU) == 1500
    assert ratings.shown(w) > 1500 > ratings.shown(lo)
    assert ratings.provisional(ws, 6.5)


def test_replaying_the_end_changes_nothing(store):
    e = rated.Ending("T1", "fanti:2", 1.0, [30, 20], [1, 2], [False, False])
    assert rate(store, e, {0: "a", 1: "b"})
    first = stored(store)
    assert not rate(store, e, {0: "a", 1: "b"})  # a restart or a second process
    assert stored(store) == first
    assert [r[4] for r in first] == [1, 1] and [r[5] for r in first] == [1, 0]


def test_the_same_player_in_two_seats_or_an_unknown_seat_is_not_rated(store):
    assert not rate(store, rated.Ending("T1", "fanti:2", 1.0, [3, 2], [1, 2], [False] * 2),
                    {0: "a", 1: "a"})
    assert not rate(store, rated.Ending("T2", "fanti:2", 1.0, [3, 2], [1, 2], [False] * 2),
                    {0: "a"})
    assert stored(store) == []


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 2**32))
def test_rebuild_finds_exactly_the_stored_numbers(tmp_path_factory, seed):
    rng = random.Random(seed)
    s = Store(f"sqlite:///{tmp_path_factory.mktemp('rb')}/r.sqlite3")
    try:
        people = [f"p{i}" for i in range(6)]
        for k in range(25):
            pool = rng.choice(["fanti:2", "fanti:3-4", "fantan:5-8"])
            n = 2 if pool == "fanti:2" else rng.randint(3, 4) if pool == "fanti:3-4" else 5
            who = rng.sample(people, n)
            totals = [rng.randint(0, 5) for _ in who]
            gone = [rng.random() < 0.1 for _ in who]
            best = max(totals)
            winners = [i for i, t in enumerate(totals) if t == best]
            e = rated.Ending(f"T{k}", pool, float(k), totals,
                             ratings.places(False, totals, winners, gone), gone)
            assert rate(s, e, dict(enumerate(who)))
        before = stored(s)
        report = rated.rebuild(s)
        assert report.games == 25 and report.differences == []
        assert stored(s) == before
        # a number changed behind the model's back is found, and put right with write
        with s.engine.begin() as c:
            c.execute(text("UPDATE ratings SET mu = mu + 1 WHERE player_id = 'p0'"))
        assert rated.rebuild(s).differences
        rated.rebuild(s, write=True)
        assert stored(s) == before
    finally:
        s.close()
