"""The libraries' own conventions (docs/research.md, "Conventions"): Gymnasium vector
seeds, final_info and illegal actions; PettingZoo's parallel API; OpenSpiel's public and
all-players observers; one default player count per game everywhere."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.vector import AutoresetMode
from pettingzoo.test import parallel_api_test

import parlour.envs  # noqa: F401  (registers the ids)
from parlour.envs import fantan_v0, fanti_v0
from parlour.envs.vector import ILLEGAL
from parlour.games import get_game

IDS = {"fantan": "parlour/FanTan-v0", "fanti": "parlour/Fanti-v0"}


def _vec(game: str, **kw):
    return gym.make_vec(IDS[game], num_envs=kw.pop("num_envs", 6),
                        vectorization_mode="vector_entry_point", **kw)


def _random(rng, mask):
    return (rng.random(mask.shape) * mask).argmax(1)


@pytest.mark.parametrize("game", ["fantan", "fanti"])
def test_vector_reset_takes_a_seed_per_env(game) -> None:
    env = _vec(game, episode="round")
    a, _ = env.reset(seed=[1, 2, 3, 4, 5, 6])
    b, _ = env.reset(seed=np.arange(1, 7).tolist())
    c, _ = env.reset(seed=[1, 2, 3, 4, 5, 7])
    assert (a == b).all() and not (a == c).all()
    env.reset(seed=[None] * 6)
    with pytest.raises(ValueError, match="one seed per env"):
        env.reset(seed=[1, 2])
    with pytest.raises(ValueError, match="or none of them"):
        env.reset(seed=[1, None, 3, 4, 5, 6])


@pytest.mark.parametrize("game", ["fantan", "fanti"])
def test_final_info_as_gymnasiums_own_vector_env_gives_it(game) -> None:
    ours = _vec(game, num_envs=4, episode="round", players=3)
    theirs = gym.make_vec(IDS[game], num_envs=4, vectorization_mode="sync", episode="round",
                          players=3, vector_kwargs={"autoreset_mode": AutoresetMode.SAME_STEP})
    assert ours.metadata["autoreset_mode"] == theirs.metadata["autoreset_mode"]
    for env in (ours, theirs):
        rng = np.random.default_rng(1)
        _obs, info = env.reset(seed=3)
        ended = 0
        for _ in range(400):
            _obs, reward, term, trunc, info = env.step(_random(rng, info["action_mask"]))
            done = term | trunc
            if done.any():
                ended += 1
                assert (info["_final_info"] == done).all() and (info["_final_obs"] == done).all()
                fi = info["final_info"]
                assert isinstance(fi, dict) and (fi["_seat"] == done).all()
                for i in np.flatnonzero(done):
                    assert info["final_obs"][i].shape == env.single_observation_space.shape
                    if env is ours:
                        assert fi["rewards"][i][fi["seat"][i]] == reward[i]
            else:
                assert "final_info" not in info
        assert ended > 5


@pytest.mark.parametrize("game", ["fantan", "fanti"])
def test_vector_illegal_action_has_the_single_envs_choices(game) -> None:
    from parlour.envs.gym_env import ParlourGymEnv

    assert set(ILLEGAL) == {"raise", "terminate"}
    with pytest.raises(ValueError):
        ParlourGymEnv(game, illegal_action="ignore")
    with pytest.raises(ValueError, match="illegal_action must be one of"):
        _vec(game, illegal_action="ignore")
    # raise (the default): the whole step is refused and nothing changes
    env = _vec(game, episode="round")
    obs, info = env.reset(seed=5)
    bad = _random(np.random.default_rng(0), info["action_mask"])
    bad[2] = int(np.flatnonzero(~info["action_mask"][2])[0])
    with pytest.raises(ValueError, match="env 2"):
        env.step(bad)
    twin = _vec(game, episode="round")
    twin.reset(seed=5)
    good = _random(np.random.default_rng(1), info["action_mask"])
    assert (env.step(good)[0] == twin.step(good)[0]).all()
    # terminate: that game ends at -1 for the learner, its next one starts, others go on
    env = _vec(game, episode="round", illegal_action="terminate", illegal_reward=-1.0)
    obs, info = env.reset(seed=5)
    twin = _vec(game, episode="round")
    twin.reset(seed=5)
    acts = _random(np.random.default_rng(2), info["action_mask"])
    wrong = acts.copy()
    wrong[2] = 999
    o1, r1, t1, _tr, i1 = env.step(wrong)
    o2, r2, _t2, _tr2, _i2 = twin.step(acts)
    assert t1[2] and r1[2] == -1.0 and i1["illegal_action"][2] and i1["_final_info"][2]
    assert (i1["final_obs"][2] == obs[2]).all()
    assert i1["final_info"]["illegal_action"][2]
    assert i1["action_mask"][2].any()  # the next game is ready
    others = [0, 1, 3, 4, 5]
    assert (o1[others] == o2[others]).all() and (r1[others] == r2[others]).all()


@pytest.mark.parametrize(("module", "kw"), [
    (fantan_v0, {}), (fanti_v0, {}), (fantan_v0, {"players": 5, "strict": False, "rounds": 1}),
    (fanti_v0, {"players": 3, "episode": "round", "observation": "infostate"})])
def test_pettingzoo_parallel_api(module, kw) -> None:
    env = module.parallel_env(**kw)
    parallel_api_test(env, num_cycles=2000)


def test_parallel_plays_the_aec_game() -> None:
    par = fanti_v0.parallel_env(players=3, episode="round")
    aec = fanti_v0.raw_env(players=3, episode="round")
    obs, infos = par.reset(seed=11)
    aec.reset(seed=11)
    rng = np.random.default_rng(0)
    total = dict.fromkeys(par.possible_agents, 0.0)
    while par.agents:
        acting = [a for a in par.agents if infos[a]["to_act"]]
        assert acting == [aec.agent_selection]
        mask = obs[acting[0]]["action_mask"]
        action = int(rng.choice(np.flatnonzero(mask)))
        obs, rewards, _t, _tr, infos = par.step(dict.fromkeys(par.agents, 0) | {acting[0]: action})
        aec.step(action)
        for a, r in rewards.items():
            total[a] += r
    assert par.match.rounds[-1].history == aec.match.rounds[-1].history
    assert sum(total.values()) == pytest.approx(0.0) and max(total.values()) > 0


@pytest.mark.parametrize("game", ["python_fantan", "python_fanti"])
def test_openspiel_public_and_all_players_observers(game) -> None:
    import pyspiel
    from open_spiel.python.observation import make_observation

    import parlour.envs.openspiel  # noqa: F401

    g = pyspiel.load_game(game, {"players": 3, "rounds": 1})
    kinds = {k: pyspiel.IIGObservationType(perfect_recall=pr, public_info=True, private_info=k2)
             for k, (pr, k2) in {
                 "public": (False, pyspiel.PrivateInfoType.NONE),
                 "public_recall": (True, pyspiel.PrivateInfoType.NONE),
                 "all": (False, pyspiel.PrivateInfoType.ALL_PLAYERS),
                 "mine": (False, pyspiel.PrivateInfoType.SINGLE_PLAYER)}.items()}
    obs = {k: make_observation(g, t) for k, t in kinds.items()}
    rng = np.random.default_rng(4)
    st = g.new_initial_state()
    seen = 0
    while not st.is_terminal():
        if st.is_chance_node():
            outcomes = st.chance_outcomes()
            st.apply_action(outcomes[rng.integers(len(outcomes))][0])
            continue
        for k in ("public", "public_recall"):
            o = obs[k]
            o.set_from(st, 0)
            first, text = o.tensor.copy(), o.string_from(st, 0)
            for p in (1, 2):  # the same for every player: nothing private in it
                o.set_from(st, p)
                assert (o.tensor == first).all() and o.string_from(st, p) == text
            assert not o.dict["hand"].any() and "dealt me" not in text
        mine, every = obs["mine"], obs["all"]
        every.set_from(st, 1)
        size = mine.tensor.size
        for p in range(3):
            mine.set_from(st, p)
            assert (every.tensor[p * size:(p + 1) * size] == mine.tensor).all()
            assert mine.string_from(st, p) in every.string_from(st, 0)
        seen += 1
        st.apply_action(int(rng.choice(st.legal_actions())))
    assert seen > 10


@pytest.mark.parametrize("game", ["fantan", "fanti"])
def test_one_default_player_count_everywhere(game) -> None:
    import pyspiel

    import parlour.envs.openspiel  # noqa: F401
    from parlour.cli.common import resolve_players
    from parlour.envs.learned import shipped

    n = get_game(game).usual_players
    assert n == {"fantan": 4, "fanti": 2}[game]
    assert n in shipped(game)  # the learned bot plays the usual table
    module = {"fantan": fantan_v0, "fanti": fanti_v0}[game]
    assert len(module.env().possible_agents) == n
    assert len(module.parallel_env().possible_agents) == n
    assert gym.make(IDS[game]).unwrapped.players == n
    assert _vec(game).unwrapped.players == n
    assert pyspiel.load_game(f"python_{game}").num_players() == n
    assert resolve_players(get_game(game), None) == n
