"""Gymnasium environments ``parlour/FanTan-v0`` and ``parlour/Fanti-v0``."""

from __future__ import annotations

import random

import gymnasium as gym
import numpy as np
import pytest
from env_helpers import no_unexpected_warnings
from gymnasium.utils.env_checker import check_env

import parlour.envs  # noqa: F401  (registers the ids)
from parlour.envs.session import game_result

CONFIGS = [
    ("parlour/FanTan-v0", {}),
    ("parlour/FanTan-v0", {"players": 5, "seat": None, "opponents": "greedy",
                           "strict": False, "stakes": "chips", "rounds": 2}),
    ("parlour/Fanti-v0", {}),
    ("parlour/Fanti-v0", {"players": 3, "seat": 2, "opponents": ["greedy", "random"],
                          "reward": "score", "episode": "round"}),
]


@pytest.mark.parametrize("env_id,kwargs", CONFIGS)
def test_gymnasium_check_env_passes(env_id, kwargs):
    env = gym.make(env_id, **kwargs)
    with no_unexpected_warnings():
        check_env(env.unwrapped)


def _episode(env, seed: int) -> tuple[float, dict]:
    rng = random.Random(seed)
    _obs, info = env.reset(seed=seed)
    total, done = 0.0, False
    while not done:
        action = rng.choice(np.flatnonzero(info["action_mask"]).tolist())
        _obs, reward, term, trunc, info = env.step(action)
        total += reward
        done = term or trunc
    return total, info


@pytest.mark.parametrize("env_id", ["parlour/FanTan-v0", "parlour/Fanti-v0"])
def test_reward_is_the_learners_game_result(env_id):
    env = gym.make(env_id, players=3, seat=1, rounds=2)
    total, info = _episode(env, 5)
    match = env.unwrapped.match
    assert match.is_over and info["seat"] == 1
    assert total == pytest.approx(game_result(match)[1])


def test_score_reward_sums_to_the_learners_signed_total():
    env = gym.make("parlour/FanTan-v0", players=4, seat=3, reward="score", rounds=2)
    total, _ = _episode(env, 9)
    assert total == -env.unwrapped.match.totals[3]  # FT-7: penalty points, lower is better


def test_learner_acts_only_on_its_turn_and_mask_is_its_legal_actions():
    env = gym.make("parlour/Fanti-v0", players=4, seat=2)
    _obs, info = env.reset(seed=1)
    inner = env.unwrapped
    for _ in range(20):
        assert inner.session.current_seat == 2
        assert np.flatnonzero(info["action_mask"]).tolist() == inner.session.legal_actions()
        _obs, _r, term, _t, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
        if term:
            break


def test_seat_none_draws_the_learner_seat_reproducibly():
    env = gym.make("parlour/FanTan-v0", players=6, seat=None)
    seats = [env.reset(seed=s)[1]["seat"] for s in range(12)]
    assert len(set(seats)) > 1
    assert seats == [env.reset(seed=s)[1]["seat"] for s in range(12)]


def test_illegal_action_terminates_with_penalty_or_raises():
    env = gym.make("parlour/FanTan-v0")
    _obs, info = env.reset(seed=0)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    _obs, reward, term, trunc, info = env.step(illegal)
    assert (reward, term, trunc, info["illegal_action"]) == (-1.0, True, False, True)
    strict = gym.make("parlour/FanTan-v0", illegal_action="raise")
    _obs, info = strict.reset(seed=0)
    with pytest.raises(ValueError):
        strict.step(illegal)


def test_an_action_is_a_whole_number_in_any_usual_type():
    """numpy integers, one-element arrays and 3.0 name an action; 3.5, "x" and None are
    the caller's mistake (TypeError, the game unchanged), never truncated to a move."""
    env = gym.make("parlour/FanTan-v0")
    _obs, info = env.reset(seed=0)
    legal = int(np.flatnonzero(info["action_mask"])[0])
    for same in (legal, np.int64(legal), np.array([legal]), float(legal)):
        env.reset(seed=0)
        _obs, _r, term, _t, info = env.step(same)
        assert not term and "illegal_action" not in info
    for wrong in (legal + 0.5, "x", None, [legal, legal]):
        env.reset(seed=0)
        with pytest.raises(TypeError, match="an action is a whole number"):
            env.step(wrong)
        _obs, _r, term, _t, info = env.step(legal)  # still the first move of the game
        assert not term and "illegal_action" not in info


def test_bad_parameters_are_refused():
    with pytest.raises(ValueError):
        gym.make("parlour/FanTan-v0", opponents="no-such-bot")
    with pytest.raises(ValueError):
        gym.make("parlour/Fanti-v0", players=3, opponents=["random"])
    with pytest.raises(ValueError):
        gym.make("parlour/Fanti-v0", players=2, seat=2)
