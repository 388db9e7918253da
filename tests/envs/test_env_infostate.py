"""``observation="infostate"``: perfect recall of the round's public history.

From one deal, many random playouts: at every decision of seat 0, two different public
histories (who played what, in which order, the passes between, the collections) must
never give seat 0 the same infostate vector. The plain observation does confuse some of
them (the test would catch an infostate that lost the history), and the infostate never
shows a hidden card (FT-10, FA-7): swapping two other seats' cards changes nothing.
"""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from parlour.envs import fantan_v0, fanti_v0
from parlour.envs.session import Session
from parlour.match import Shuffler

CASES = [
    ("fantan", 4, {"strict": True}),
    ("fantan", 3, {"strict": False}),
    ("fanti", 2, {}),
    ("fanti", 3, {"guardian_takes_guardians": False}),
]


def _collisions(game: str, players: int, rules: dict, observation: str, deal_seed: int,
                playouts: int) -> int:
    """Pairs of different public histories with equal seat-0 vectors (0 = none)."""
    seen: dict[bytes, tuple] = {}
    clashes = 0
    rng = random.Random(deal_seed)
    for _ in range(playouts):
        s = Session(game, players, {**rules, "rounds": 1}, observation=observation)
        s.reset(Shuffler(deal_seed))
        steps = 0
        while not s.is_over and steps < 300:
            if s.current_seat == 0:
                key = s.observe(0).tobytes()
                public = (tuple(s.round.history), s.pending)
                old = seen.setdefault(key, public)
                clashes += old != public
            s.step(rng.choice(s.legal_actions()))
            steps += 1
    return clashes


@pytest.mark.parametrize(("game", "players", "rules"), CASES)
def test_different_public_histories_never_share_an_infostate(game: str, players: int,
                                                             rules: dict) -> None:
    for deal_seed in range(3):
        assert _collisions(game, players, rules, "infostate", deal_seed, 60) == 0


def test_the_plain_observation_does_confuse_histories() -> None:
    """The reason for the infostate: the plain vector forgets who passed when (FT-5)."""
    assert sum(_collisions("fantan", 4, {"strict": True}, "vector", d, 60) for d in range(3)) > 0


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000), moves=st.integers(0, 30))
def test_infostate_holds_no_other_hand(seed: int, moves: int) -> None:
    """FT-10, FA-7: exchanging cards between two other seats leaves seat 0's vector."""
    for game, players in (("fantan", 4), ("fanti", 3)):
        s = Session(game, players, {"rounds": 1}, observation="infostate")
        s.reset(Shuffler(seed))
        rng = random.Random(seed)
        for _ in range(moves):
            if s.is_over or s.pending is not None:
                break
            s.step(rng.choice(s.legal_actions()))
        if s.is_over or s.pending is not None:
            continue
        rnd = s.round
        before = s.observe(0)
        h1, h2 = rnd.hands[1], rnd.hands[2]
        if not h1 or not h2:
            continue
        a, b = h1 & -h1, h2 & -h2
        rnd.hands[1], rnd.hands[2] = h1 ^ a | b, h2 ^ b | a
        np.testing.assert_array_equal(before, s.observe(0))


def test_pettingzoo_and_gymnasium_take_the_option() -> None:
    import gymnasium as gym

    env = fantan_v0.raw_env(players=4, observation="infostate")
    env.reset(seed=1)
    size = env.observation_space("player_0")["observation"].shape[0]
    assert size == Session("fantan", 4, observation="infostate").encoder.size > 181
    g = gym.make("parlour/Fanti-v0", players=2, observation="infostate")
    obs, _ = g.reset(seed=np.int64(2))
    assert obs.shape == g.observation_space.shape
    assert fanti_v0.raw_env(players=2, observation="infostate").observation_space(
        "player_0")["observation"].shape == obs.shape
    with pytest.raises(ValueError, match="observation"):
        Session("fantan", 4, observation="everything")
