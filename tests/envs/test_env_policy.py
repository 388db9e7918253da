"""Policies as players: the adapter, the ``learned`` bot, policies as Gymnasium opponents."""

from __future__ import annotations

import numpy as np
import pytest
from typer.testing import CliRunner

from parlour.bots import make_bot
from parlour.bots.registry import bot_names
from parlour.cli import commands  # noqa: F401  (registers the commands)
from parlour.cli.app import app
from parlour.envs.learned import MLPPolicy, load, shipped
from parlour.envs.policy import PolicyBot, first_legal
from parlour.games import get_game
from parlour.match import Match, Shuffler


def _play(game: str, players: int, bots: list, seed: int) -> Match:
    m = Match.new(get_game(game), players, {"rounds": 1}, shuffler=Shuffler(seed))
    r = m.rounds[-1]
    while not r.is_over:
        seat = r.current_player
        move = bots[seat].choose(r.view(seat))
        assert move in r.legal_moves()
        r.apply(move)
    return m


@pytest.mark.parametrize(("game", "players"), [("fantan", 4), ("fanti", 3), ("fanti", 2)])
def test_any_policy_plays_legal_whole_games(game: str, players: int) -> None:
    """A policy sees an observation and a mask and its moves are legal (Fanti: a
    collection chosen in several actions comes back as one engine move, FA-5, FA-6)."""
    seen = []

    def policy(obs: np.ndarray, mask: np.ndarray) -> int:
        seen.append((obs.shape, int(mask.sum())))
        legal = np.flatnonzero(mask)
        return int(legal[-1])  # the highest id: Fanti's take steps and STOP get used

    for seed in range(3):
        bots = [PolicyBot(game, policy)] + [make_bot("random", game, s) for s in range(1, players)]
        assert _play(game, players, bots, seed).is_over
    assert seen and all(k >= 1 for _shape, k in seen)


def test_a_policy_that_breaks_the_rules_is_refused() -> None:
    bot = PolicyBot("fantan", lambda obs, mask: int(np.flatnonzero(mask == 0)[0]))
    m = Match.new(get_game("fantan"), 4, {"rounds": 1}, shuffler=Shuffler(1))
    r = m.rounds[-1]
    with pytest.raises(ValueError, match="not legal"):
        bot.choose(r.view(r.current_player))


def test_learned_is_a_bot_wherever_weights_are_shipped() -> None:
    assert 4 in shipped("fantan") and 2 in shipped("fanti")
    assert "learned" in bot_names("fantan") and "learned" in bot_names("fanti")
    fanti = [make_bot("learned", "fanti", 0), make_bot("random", "fanti", 1)]
    assert _play("fanti", 2, fanti, 3).is_over  # card then collection, from the shipped net
    bot = make_bot("learned", "fantan", 0)
    assert _play("fantan", 4, [bot] + [make_bot("random", "fantan", s) for s in (1, 2, 3)],
                 5).is_over
    # deterministic: the seed changes nothing
    m1 = _play("fantan", 4, [make_bot("learned", "fantan", 1)] * 4, 9)
    m2 = _play("fantan", 4, [make_bot("learned", "fantan", 2)] * 4, 9)
    assert m1.rounds[-1].history == m2.rounds[-1].history
    # a table size without weights is refused in words, never played as another bot
    with pytest.raises(ValueError, match="4 players only, not 5"):
        load("fantan", 5)
    with pytest.raises(ValueError, match="4 players only, not 5"):
        bot.check_table(5)
    with pytest.raises(ValueError, match="4 players only, not 5"):
        _play("fantan", 5, [bot] * 5, 1)


def test_learned_where_it_has_no_weights_is_refused_by_the_arena() -> None:
    # the review: ``learned,random`` at 3 players equalled ``greedy,random`` exactly
    result = CliRunner().invoke(app, ["tournament", "fantan", "--players", "3", "--bots",
                                      "learned,random", "--games", "2", "--json"])
    assert result.exit_code == 2
    assert "learned bot has weights for Fan Tan with 4 players only, not 3" in result.output
    import gymnasium as gym

    import parlour.envs  # noqa: F401

    with pytest.raises(ValueError, match="not 3"):
        gym.make("parlour/FanTan-v0", players=3, opponents="learned")


def test_mlp_policy_takes_the_best_legal_logit() -> None:
    w = {"w1": np.eye(3, 2, dtype=np.float32), "b1": np.zeros(2), "w2": np.eye(2),
         "b2": np.zeros(2), "wp": np.array([[0.0, 1.0, 5.0], [0.0, 0.0, 0.0]]),
         "bp": np.zeros(3)}
    p = MLPPolicy(w)
    obs = np.array([1.0, 0.0, 0.0], np.float32)
    assert p(obs, np.array([1, 1, 1])) == 2
    assert p(obs, np.array([1, 1, 0])) == 1  # the best one is illegal
    with pytest.raises(ValueError, match="lack"):
        MLPPolicy({"w1": w["w1"]})
    assert load("fantan", 4).size == 181


def test_tournament_takes_the_learned_bot() -> None:
    result = CliRunner().invoke(app, ["tournament", "fantan", "--bots", "learned,random",
                                      "--games", "2", "--json"])
    assert result.exit_code == 0, result.output
    assert "learned" in result.output


def test_gymnasium_opponents_as_policies_and_bots() -> None:
    import gymnasium as gym

    import parlour.envs  # noqa: F401

    env = gym.make("parlour/FanTan-v0", players=4,
                   opponents=[first_legal, make_bot("greedy", "fantan", 3), "random"])
    obs, info = env.reset(seed=np.int32(4))
    done = False
    while not done:
        obs, _r, done, trunc, info = env.step(first_legal(obs, info["action_mask"]))
        done = done or trunc
    with pytest.raises(ValueError, match="opponent"):
        gym.make("parlour/FanTan-v0", players=4, opponents=[1, 2, 3])


def test_league_draws_opponents_from_its_pool_each_episode() -> None:
    import gymnasium as gym

    import parlour.envs  # noqa: F401
    from parlour.envs.league import League

    env = League(gym.make("parlour/FanTan-v0", players=4, episode="round"), pool=["random"])
    env.add(first_legal)
    draws = []
    # add freezes a copy: training the learner on afterwards leaves the pool's copy alone
    learner = load("fantan", 4)
    env.add(learner)
    learner.w["wp"][:] = 0
    assert env.pool[-1] is not learner and env.pool[-1].w["wp"].any()
    env.pool.pop()
    for episode in range(6):
        obs, info = env.reset(seed=episode if episode == 0 else None)
        draws.append(tuple(map(str, env.last_draw)))
        done = False
        while not done:
            obs, _r, term, trunc, info = env.step(first_legal(obs, info["action_mask"]))
            done = term or trunc
    assert len(set(draws)) > 1  # the opponents change between episodes
    env.reset(seed=0)
    assert tuple(map(str, env.last_draw)) == draws[0]  # seeded
