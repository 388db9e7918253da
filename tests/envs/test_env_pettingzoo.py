"""PettingZoo AEC environments ``fantan_v0`` and ``fanti_v0``."""

from __future__ import annotations

import random

import numpy as np
import pytest
from env_helpers import no_unexpected_warnings
from pettingzoo.test import api_test, seed_test

from parlour import record
from parlour.envs import fantan_v0, fanti_v0
from parlour.envs.session import game_result

CONFIGS = [
    (fantan_v0, {"players": 3}),
    (fantan_v0, {"players": 4, "rounds": 2}),
    (fantan_v0, {"players": 6, "strict": False, "opening": "any-seven", "ace": "high",
                 "stakes": "chips", "rounds": 1}),
    (fantan_v0, {"players": 8, "episode": "round"}),
    (fanti_v0, {"players": 2, "rounds": 2}),
    (fanti_v0, {"players": 3, "ties": "shared", "rounds": 1}),
    (fanti_v0, {"players": 4, "guardian_takes_guardians": False, "reward": "score",
                "episode": "round"}),
]


def _ids(config: tuple) -> str:
    return f"{config[0].__name__.split('.')[-1]}-{config[1]}"


@pytest.mark.parametrize("config", CONFIGS, ids=_ids)
def test_pettingzoo_api_test_passes(config):
    mod, kwargs = config
    with no_unexpected_warnings():
        api_test(mod.env(**kwargs), num_cycles=200)
        api_test(mod.raw_env(**kwargs), num_cycles=200)


@pytest.mark.parametrize("config", CONFIGS[:2] + CONFIGS[4:6], ids=_ids)
def test_pettingzoo_seed_test_passes(config):
    mod, kwargs = config
    seed_test(lambda: mod.env(**kwargs), num_cycles=50)


def _play(env, seed: int, choose=None) -> dict[str, float]:
    """Play a whole episode with seeded random legal actions; the summed rewards."""
    rng = random.Random(seed)
    env.reset(seed=seed)
    total = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        obs, reward, term, trunc, _info = env.last()
        total[agent] += reward
        if term or trunc:
            env.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"]).tolist()
        env.step(choose(legal) if choose else rng.choice(legal))
    return total


@pytest.mark.parametrize("mod,players", [(fantan_v0, 4), (fanti_v0, 3)])
def test_same_seed_same_game_and_other_seed_another(mod, players):
    a, b = mod.raw_env(players=players), mod.raw_env(players=players)
    _play(a, 5)
    _play(b, 5)
    assert record.dump(a.match) == record.dump(b.match)
    _play(b, 6)
    assert record.dump(a.match)["rounds"][0]["deck"] != record.dump(b.match)["rounds"][0]["deck"]


def test_reset_seeds_only_its_own_generator():
    random.seed(99)
    np.random.seed(99)
    before = (random.getstate(), np.random.get_state()[1].copy())
    env = fantan_v0.raw_env(players=4)
    _play(env, 3)
    after = (random.getstate(), np.random.get_state()[1])
    assert before[0] == after[0]
    assert np.array_equal(before[1], after[1])


def test_reset_without_seed_continues_the_shuffler():
    env = fantan_v0.raw_env(players=4, rounds=1)
    env.reset(seed=1)
    first = env.match.rounds[0].deck
    env.reset()
    second = env.match.rounds[0].deck
    env.reset(seed=1)
    assert env.match.rounds[0].deck == first
    env.reset()
    assert env.match.rounds[0].deck == second != first


@pytest.mark.parametrize("mod,players,rules", [
    (fantan_v0, 4, {}), (fantan_v0, 3, {"stakes": "chips", "strict": False}),
    (fanti_v0, 2, {}), (fanti_v0, 4, {"ties": "shared"}),
])
def test_result_reward_is_the_zero_sum_game_result(mod, players, rules):
    env = mod.raw_env(players=players, rounds=2, **rules)
    total = _play(env, 11)
    expected = game_result(env.match)
    assert [total[a] for a in env.possible_agents] == pytest.approx(expected)
    assert sum(expected) == pytest.approx(0.0)
    winners = env.match.winners
    assert all(total[f"player_{w}"] == max(total.values()) for w in winners)


@pytest.mark.parametrize("mod,players,rules,sign", [
    (fantan_v0, 4, {}, -1),                       # FT-7: penalty points, lower is better
    (fantan_v0, 3, {"stakes": "chips"}, 1),       # FT-7: chips, higher is better
    (fanti_v0, 3, {}, 1),                         # FA-9: points, higher is better
])
def test_score_reward_sums_to_the_signed_game_totals(mod, players, rules, sign):
    env = mod.raw_env(players=players, rounds=3, reward="score", **rules)
    total = _play(env, 4)
    assert [total[a] for a in env.possible_agents] == [sign * t for t in env.match.totals]


def test_episode_round_plays_one_round_and_rejects_more():
    env = fanti_v0.raw_env(players=2, episode="round")
    _play(env, 2)
    assert len(env.match.rounds) == 1 and env.match.is_over
    with pytest.raises(ValueError):
        fanti_v0.raw_env(players=2, episode="round", rounds=3)


def test_unknown_rule_or_player_count_is_refused():
    with pytest.raises(ValueError):
        fantan_v0.raw_env(players=2)        # FT-1: 3 to 8 players
    with pytest.raises(ValueError):
        fanti_v0.raw_env(players=5)         # FA-2: 2 to 4 players
    with pytest.raises(ValueError):
        fantan_v0.raw_env(players=4, colour="red")


def test_raw_env_refuses_an_illegal_action_and_keeps_the_state():
    env = fantan_v0.raw_env(players=4)
    env.reset(seed=0)
    obs = env.observe(env.agent_selection)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    before = record.dump(env.match)
    with pytest.raises(ValueError):
        env.step(illegal)
    assert record.dump(env.match) == before


def test_wrapped_env_ends_the_game_on_an_illegal_action():
    env = fantan_v0.env(players=4)
    env.reset(seed=0)
    agent = env.agent_selection
    obs, *_ = env.last()
    env.step(int(np.flatnonzero(obs["action_mask"] == 0)[0]))
    assert all(env.terminations.values())
    assert env._cumulative_rewards[agent] == -1


def test_max_cycles_truncates_every_agent():
    """PettingZoo's max_cycles_test needs a parallel API, which a turn-based game with
    Fanti's multi-step plays does not have; this is its AEC equivalent."""
    env = fantan_v0.raw_env(players=4, strict=False, max_cycles=5)
    env.reset(seed=3)
    acted = dict.fromkeys(env.possible_agents, 0)
    for agent in env.agent_iter():
        _obs, _r, term, trunc, _info = env.last()
        if term or trunc:
            assert trunc and not term
            env.step(None)
            continue
        acted[agent] += 1
        env.step(int(np.flatnonzero(env.observe(agent)["action_mask"])[-1]))  # pass often
    assert max(acted.values()) == 5
    assert not env.agents


def test_only_the_agent_to_act_has_a_mask_and_masks_match_the_engine():
    env = fanti_v0.raw_env(players=3)
    env.reset(seed=8)
    for _ in range(30):
        for agent in env.possible_agents:
            mask = env.observe(agent)["action_mask"]
            assert mask.dtype == np.int8
            if agent != env.agent_selection:
                assert not mask.any()
        mask = env.observe(env.agent_selection)["action_mask"]
        assert np.flatnonzero(mask).tolist() == env.session.legal_actions()
        env.step(int(np.flatnonzero(mask)[0]))


def test_spaces_are_cached_per_agent():
    env = fanti_v0.raw_env(players=3)
    for a in env.possible_agents:
        assert env.observation_space(a) is env.observation_space(a)
        assert env.action_space(a) is env.action_space(a)
    assert env.action_space("player_0").n == 105
    assert fantan_v0.raw_env(players=5).action_space("player_0").n == 53


def test_ansi_render_shows_only_the_hand_of_the_seat_to_move():
    env = fantan_v0.raw_env(players=4, render_mode="ansi")
    env.reset(seed=2)
    text = env.render()
    rnd = env.match.rounds[-1]
    seat = rnd.current_player
    assert f"seat {seat} to move" in text
    from parlour import cards

    for other in range(4):
        if other == seat:
            continue
        hidden = set(cards.codes(rnd.hand(other)))
        shown = set(text.split("holding:")[1].split())
        assert not hidden & shown
