"""The compiled vector environments against the single environments (the contract).

Same deals (the stream's game ``k * num_envs + i`` in env ``i``, dealt to the single
environment by ``StreamShuffler``), same actions: the same observations (both
encodings), masks and rewards, step by step, across game ends and autoresets, in every
rule variant of both games (FT-1 .. FT-9 and FA-3 .. FA-10 through the kernels' helpers).
"""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest

import parlour.envs  # noqa: F401  (registers the ids)
from option_variants import option_variants
from parlour.batch import StreamShuffler
from parlour.envs.gym_env import ParlourGymEnv
from parlour.envs.session import Session
from parlour.envs.vector import ParlourVectorEnv

VARIANTS = option_variants("fantan", limit=6)  # every value, and a seeded combination
FANTI_VARIANTS = option_variants("fanti", limit=3)
CASES = ([("fantan", p, r) for p in (3, 4, 6) for r in VARIANTS]
         + [("fanti", p, r) for p in (2, 3, 4) for r in FANTI_VARIANTS])


def _pick(rng: np.random.Generator, mask: np.ndarray) -> np.ndarray:
    return (rng.random(mask.shape) * mask).argmax(axis=1)


@pytest.mark.parametrize("observation", ["vector", "infostate"])
@pytest.mark.parametrize(("game", "players", "rules"), CASES, ids=str)
def test_self_play_matches_the_session_step_by_step(game: str, players: int, rules: dict,
                                                    observation: str) -> None:
    n_envs, seed = 5, 1234 + players
    venv = ParlourVectorEnv(game, n_envs, players, opponents="self",
                            observation=observation, rounds=2, **rules)
    obs, info = venv.reset(seed=np.int64(seed))
    games = list(range(n_envs))
    sessions = []
    for b in range(n_envs):
        s = Session(game, players, {**rules, "rounds": 2}, observation=observation)
        s.reset(StreamShuffler(seed, b))
        sessions.append(s)
    rng = np.random.default_rng(players)
    ended = 0
    for _ in range(700):
        for b, s in enumerate(sessions):
            seat = s.current_seat
            assert info["seat"][b] == seat
            np.testing.assert_array_equal(obs[b], s.observe(seat))
            np.testing.assert_array_equal(info["action_mask"][b], s.action_mask(seat) == 1)
        actions = _pick(rng, info["action_mask"])
        obs, reward, term, trunc, info = venv.step(actions)
        assert not trunc.any()
        for b, s in enumerate(sessions):
            actor = s.current_seat
            rewards = s.step(int(actions[b]))
            np.testing.assert_allclose(info["rewards"][b], rewards)
            assert reward[b] == pytest.approx(rewards[actor])
            assert term[b] == s.is_over
            if s.is_over:
                np.testing.assert_array_equal(info["final_obs"][b], s.observe(actor))
                games[b] += n_envs
                s.reset(StreamShuffler(seed, games[b]))
                ended += 1
    assert ended >= n_envs  # every env went through at least one autoreset


@pytest.mark.parametrize(("game", "opponents", "rules"),
                         [("fantan", o, r) for o in ("greedy", "heuristic") for r in VARIANTS[:3]]
                         + [("fanti", o, r) for o in ("greedy", "heuristic")
                            for r in FANTI_VARIANTS], ids=str)
def test_learner_against_compiled_bots_matches_the_gymnasium_env(game: str, opponents: str,
                                                                 rules: dict) -> None:
    """The compiled greedy and heuristic opponents make the parlour bots' moves."""
    n_envs, seed, players = 4, 99, 4 if game == "fantan" else 3
    venv = ParlourVectorEnv(game, n_envs, players, seat=1, opponents=opponents, **rules)
    obs, info = venv.reset(seed=seed)
    games = list(range(n_envs))
    singles = []
    for b in range(n_envs):
        e = ParlourGymEnv(game, players, seat=1, opponents=opponents, **rules)
        e._shuffler = StreamShuffler(seed, b)
        o, i = e.reset()
        singles.append([e, o, i])
    rng = np.random.default_rng(5)
    for _ in range(400):
        for b, (_e, o, i) in enumerate(singles):
            np.testing.assert_array_equal(obs[b], o)
            np.testing.assert_array_equal(info["action_mask"][b], i["action_mask"] == 1)
        actions = _pick(rng, info["action_mask"])
        obs, reward, term, _trunc, info = venv.step(actions)
        for b, row in enumerate(singles):
            e = row[0]
            o, r, t, _tr, i = e.step(int(actions[b]))
            assert reward[b] == pytest.approx(r)
            assert term[b] == t
            if t:
                np.testing.assert_array_equal(info["final_obs"][b], o)
                games[b] += n_envs
                e._shuffler = StreamShuffler(seed, games[b])
                o, i = e.reset()
            row[1], row[2] = o, i


@pytest.mark.parametrize(("game", "players", "bot", "rules"),
                         [("fantan", 4, "heuristic", {}), ("fantan", 5, "greedy", {"strict": False}),
                          ("fanti", 2, "heuristic", {}), ("fanti", 3, "greedy", {}),
                          ("fanti", 3, "heuristic", {"guardian_takes_guardians": False}),
                          ("fanti", 4, "heuristic", {"ties": "shared"})], ids=str)
def test_bot_actions_are_the_python_bots_moves(game: str, players: int, bot: str,
                                               rules: dict) -> None:
    """``bot_actions``: at every position the compiled bot's next action id is the next id
    of the Python bot's move (FT-3 .. FT-5; FA-5 .. FA-8 through its scoring), also in
    positions reached by random play, and a Fanti collection is completed id by id."""
    from parlour.bots import make_bot

    n_envs, seed = 6, 77
    venv = ParlourVectorEnv(game, n_envs, players, opponents="self", **rules)
    obs, info = venv.reset(seed=seed)
    games = list(range(n_envs))
    sessions = []
    for b in range(n_envs):
        s = Session(game, players, rules)
        s.reset(StreamShuffler(seed, b))
        sessions.append(s)
    py = make_bot(bot, game, 0)
    plans: list[list[int] | None] = [[] for _ in range(n_envs)]
    rng = np.random.default_rng(3)
    checked = 0
    for _ in range(500):
        labels = venv.bot_actions(bot)
        actions = _pick(rng, info["action_mask"])
        for b, s in enumerate(sessions):
            if s.pending is None:
                move = py.choose(s.round.view(s.current_seat))
                plans[b] = list(s.codec.encode(s.round, move))
            plan = plans[b]
            if plan is not None:
                assert labels[b] == plan[0]
                checked += 1
                if rng.random() < 0.7:  # follow the bot, else leave its plan
                    actions[b] = plan.pop(0)
                elif actions[b] != plan[0]:
                    plans[b] = None
                else:
                    plan.pop(0)
        obs, _reward, term, _trunc, info = venv.step(actions)
        for b, s in enumerate(sessions):
            s.step(int(actions[b]))
            if s.is_over:
                games[b] += n_envs
                s.reset(StreamShuffler(seed, games[b]))
                plans[b] = []
    assert checked > 2000
    with pytest.raises(ValueError, match="not compiled"):
        venv.bot_actions("pimc")


def test_make_vec_masks_autoreset_and_seeds() -> None:
    envs = gym.make_vec("parlour/FanTan-v0", num_envs=64, vectorization_mode="vector_entry_point",
                        opponents="random", seat=None)
    assert envs.metadata["autoreset_mode"] == gym.vector.AutoresetMode.SAME_STEP
    obs, info = envs.reset(seed=np.uint32(3))
    again, _ = envs.reset(seed=3)
    np.testing.assert_array_equal(obs, again)
    other, _ = envs.reset(seed=4)
    assert not np.array_equal(obs, other)
    obs, info = envs.reset(seed=3)
    assert info["action_mask"].shape == (64, 53)
    assert set(info["seat"]) != {0}  # drawn per game
    rng = np.random.default_rng(0)
    finished = 0
    for _ in range(300):
        obs, reward, term, trunc, info = envs.step(_pick(rng, info["action_mask"]))
        # every env can act after every step: a finished game was replaced at once
        assert info["action_mask"].any(axis=1).all()
        np.testing.assert_array_equal(envs.unwrapped.action_masks(), info["action_mask"])
        finished += int(term.sum())
        if term.any():  # Gymnasium's layout of final_obs
            np.testing.assert_array_equal(info["_final_obs"], term | trunc)
            assert all(info["final_obs"][i] is None for i in np.flatnonzero(~term))
            assert all(info["final_obs"][i].shape == obs[i].shape for i in np.flatnonzero(term))
        assert (reward[~term] == 0).all()  # "result" pays at the end only
        assert obs.min() >= 0.0 and obs.max() <= 1.0
    assert finished > 0


def test_truncation_and_bad_input() -> None:
    envs = ParlourVectorEnv("fantan", 3, 4, strict=False, max_episode_steps=5)
    _obs, info = envs.reset(seed=1)
    with pytest.raises(ValueError, match="shape"):
        envs.step(np.zeros(2, np.int64))
    illegal = np.where(info["action_mask"][:, 0], 1, 0)  # not every one is legal
    if not all(info["action_mask"][b, illegal[b]] for b in range(3)):
        before = envs.core.iv.copy()
        with pytest.raises(ValueError, match="illegal"):
            envs.step(illegal)
        np.testing.assert_array_equal(envs.core.iv, before)  # nothing changed
    for k in range(5):
        _o, _r, term, trunc, info = envs.step(np.full(3, 52))  # always pass (FT-8 allows it)
        assert trunc.all() == (k == 4) and not term.any()
    with pytest.raises(ValueError, match="not played inside"):
        ParlourVectorEnv("fantan", 2, 4, opponents="pimc")


@pytest.mark.parametrize("rules", [r for r in VARIANTS if not r["strict"]][:2], ids=str)
def test_rounds_nobody_finishes_end_blocked_as_in_the_session(rules: dict) -> None:
    """FT-11 in the compiled vector env: every seat passes whenever it may, so every
    round ends blocked after 2n passes in a row, step for step as the Python session."""
    n_envs, players, seed = 4, 4, 77
    venv = ParlourVectorEnv("fantan", n_envs, players, opponents="self", rounds=2, **rules)
    obs, info = venv.reset(seed=np.int64(seed))
    games = list(range(n_envs))
    sessions = []
    for b in range(n_envs):
        s = Session("fantan", players, {**rules, "rounds": 2})
        s.reset(StreamShuffler(seed, b))
        sessions.append(s)
    blocked = 0
    for _ in range(60):
        for b, s in enumerate(sessions):
            np.testing.assert_array_equal(obs[b], s.observe(s.current_seat))
            np.testing.assert_array_equal(info["action_mask"][b], s.action_mask(s.current_seat) == 1)
        mask = info["action_mask"]
        actions = np.where(mask[:, 52], 52, mask.argmax(axis=1))
        obs, reward, term, trunc, info = venv.step(actions)
        for b, s in enumerate(sessions):
            actor = s.current_seat
            rewards = s.step(int(actions[b]))
            np.testing.assert_allclose(info["rewards"][b], rewards)
            assert reward[b] == pytest.approx(rewards[actor])
            assert term[b] == s.is_over
            if s.is_over:
                assert s.match is not None
                blocked += sum(r.blocked for r in s.match.rounds)
                games[b] += n_envs
                s.reset(StreamShuffler(seed, games[b]))
    assert blocked >= 2 * n_envs
