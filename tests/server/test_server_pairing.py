"""The pairing of a pool (server/pairing.py): properties over any set of waiting people."""

from __future__ import annotations

import math
from itertools import combinations

from hypothesis import given, settings
from hypothesis import strategies as st

from parlour.server.pairing import Bands, Waiter, blocked_by, fits, pair

BANDS = Bands(start=50.0, per_second=5.0, open_after=45.0)


@st.composite
def pools(draw):
    n = draw(st.integers(0, 30))
    players = draw(st.lists(st.sampled_from([f"p{i}" for i in range(40)]), min_size=n,
                            max_size=n))
    waiters = [Waiter(id=f"e{i}", player=p, rating=draw(st.floats(0, 3000)),
                      entered=draw(st.floats(0, 100))) for i, p in enumerate(players)]
    blocks = draw(st.lists(st.tuples(st.sampled_from(players or ["x"]),
                                     st.sampled_from(players or ["x"])), max_size=10))
    size = draw(st.integers(2, 5))
    now = draw(st.floats(100, 200))
    return waiters, blocks, size, now


@settings(max_examples=300, deadline=None)
@given(pools())
def test_nobody_twice_groups_whole_and_every_pair_fits_and_blocks_hold(case):
    waiters, blocks, size, now = case
    blocked = blocked_by(blocks)
    groups = pair(waiters, size, now, BANDS, blocked)
    seen_entries = [w.id for g in groups for w in g]
    seen_players = [w.player for g in groups for w in g]
    assert len(seen_entries) == len(set(seen_entries))  # no entry paired twice
    assert len(seen_players) == len(set(seen_players))  # no person at two tables
    for g in groups:
        assert len(g) == size
        for a, b in combinations(g, 2):
            assert (a.player, b.player) not in blocks and (b.player, a.player) not in blocks
            assert abs(a.rating - b.rating) <= max(BANDS.of(now - a.entered),
                                                   BANDS.of(now - b.entered))


@settings(max_examples=200, deadline=None)
@given(st.floats(0, 1000), st.floats(0, 1000))
def test_bands_only_widen_and_open_fully(t1, t2):
    lo, hi = sorted((t1, t2))
    assert BANDS.of(lo) <= BANDS.of(hi)
    assert BANDS.of(BANDS.open_after) == math.inf


@settings(max_examples=200, deadline=None)
@given(st.floats(0, 3000), st.floats(0, 3000))
def test_any_two_ratings_fit_once_they_have_waited_long_enough(r1, r2):
    a, b = Waiter("a", "pa", r1, 0.0), Waiter("b", "pb", r2, 0.0)
    assert fits(a, b, BANDS.open_after, BANDS)
    if abs(r1 - r2) > BANDS.start:
        assert not fits(a, b, 0.0, BANDS)  # but not at once: the band starts narrow


@settings(max_examples=200, deadline=None)
@given(st.lists(st.floats(0, 3000), max_size=40), st.integers(2, 5))
def test_nobody_left_waiting_once_bands_are_open_and_nobody_blocks(ratings, size):
    waiters = [Waiter(f"e{i}", f"p{i}", r, 0.0) for i, r in enumerate(ratings)]
    groups = pair(waiters, size, BANDS.open_after + 1, BANDS)
    assert len(waiters) - size * len(groups) < size


def test_a_block_keeps_two_apart_both_ways_even_when_alone_together():
    a, b = Waiter("1", "alice", 1500, 0), Waiter("2", "bob", 1500, 0)
    assert pair([a, b], 2, 100, BANDS, blocked_by([("alice", "bob")])) == []
    assert pair([a, b], 2, 100, BANDS, blocked_by([("bob", "alice")])) == []
    assert pair([a, b], 2, 100, BANDS) == [(a, b)]


def test_near_ratings_pair_at_once_far_ones_after_a_wait():
    a, b, c = (Waiter("1", "a", 1500, 0), Waiter("2", "b", 1900, 0),
               Waiter("3", "c", 1520, 0))
    assert pair([a, b, c], 2, 0, BANDS) == [(a, c)]
    assert pair([a, b], 2, 0, BANDS) == []
    assert pair([a, b], 2, 20, BANDS) == []  # 400 points apart; the band is 150 at 20 s
    assert pair([a, b], 2, BANDS.open_after - 1, BANDS) == []
    assert pair([a, b], 2, BANDS.open_after, BANDS) == [(a, b)]
