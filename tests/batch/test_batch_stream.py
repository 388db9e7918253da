"""The random stream (parlour.batch.stream): known values, ranges, decks, independence."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from parlour.batch import simulate, stream


def test_draw_is_splitmix64() -> None:
    # reference outputs of splitmix64 seeded with 0 and with 1234567
    assert [stream.draw(0, i) for i in range(3)] == [
        0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4, 0x06C45D188009454F]
    assert stream.draw(1234567, 0) == 6457827717110365317


@given(st.integers(0, 2**64 - 1), st.integers(1, 1000))
def test_bounded_is_floor_of_u_times_n(x: int, n: int) -> None:
    u = (x >> 32) / 2**32
    assert stream.bounded(x, n) == int(u * n)
    assert 0 <= stream.bounded(x, n) < n


@given(st.integers(-(2**70), 2**70), st.integers(0, 10**6), st.integers(0, 20))
@settings(max_examples=50)
def test_every_deck_is_a_permutation(seed: int, game: int, rnd: int) -> None:
    assert sorted(stream.deck(seed, game, rnd)) == list(range(52))


def test_decks_differ_by_seed_game_and_round() -> None:
    decks = {tuple(stream.deck(s, g, r)) for s in range(3) for g in range(3) for r in range(3)}
    assert len(decks) == 27


def test_first_card_is_uniform_enough() -> None:
    firsts = np.bincount([stream.deck(7, g, 0)[0] for g in range(5200)], minlength=52)
    assert firsts.min() > 50 and firsts.max() < 150  # expected 100 each


def test_results_do_not_depend_on_the_batch_size() -> None:
    for game, players in (("fantan", 6), ("fanti", 2)):
        a = simulate(game, players, games=50, seed=11, batch=1)
        b = simulate(game, players, games=50, seed=11, batch=17)
        c = simulate(game, players, games=20, seed=11, batch=64, first_game=30)
        assert (a.scores == b.scores).all() and (a.moves == b.moves).all()
        assert (a.first_dealer == b.first_dealer).all()
        assert (a.scores[30:] == c.scores).all()


def test_seeds_give_different_games() -> None:
    a = simulate("fantan", 4, games=30, seed=1)
    b = simulate("fantan", 4, games=30, seed=2)
    assert (a.scores != b.scores).any()
