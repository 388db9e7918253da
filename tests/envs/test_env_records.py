"""A game played through each interface is an ordinary parlour game (C-2, C-3).

Its record (``parlour.record.dump`` of the match underneath) is accepted by
``parlour.record.load`` and equals the record the engine itself makes from the same
seed (PettingZoo, Gymnasium: ``Shuffler(seed)``) or the same chance outcomes
(OpenSpiel) and the same moves.
"""

from __future__ import annotations

import random
import subprocess
import sys

import gymnasium as gym
import numpy as np
import pyspiel
import pytest
from env_helpers import engine_replay

import parlour.envs  # noqa: F401  (registers the Gymnasium ids)
import parlour.envs.openspiel  # noqa: F401  (registers the OpenSpiel games)
from parlour import record
from parlour.envs import fantan_v0, fanti_v0
from parlour.games import get_game
from parlour.match import Match


@pytest.mark.parametrize("mod,kwargs", [
    (fantan_v0, {"players": 4, "rounds": 2}),
    (fantan_v0, {"players": 5, "rounds": 1, "strict": False, "stakes": "chips"}),
    (fanti_v0, {"players": 3, "rounds": 2}),
])
def test_pettingzoo_game_record_equals_the_engines(mod, kwargs):
    env = mod.raw_env(**kwargs)
    rng = random.Random(0)
    env.reset(seed=21)
    for _agent in env.agent_iter():
        obs, _r, term, trunc, _i = env.last()
        env.step(None if term or trunc
                 else rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
    data = record.dump(env.match)
    assert record.load(data) == env.match
    assert record.dump(engine_replay(env.match, 21)) == data


@pytest.mark.parametrize("env_id,kwargs", [
    ("parlour/FanTan-v0", {"players": 3, "rounds": 2, "opponents": "greedy"}),
    ("parlour/Fanti-v0", {"players": 4, "rounds": 1, "seat": 3}),
])
def test_gymnasium_game_record_equals_the_engines(env_id, kwargs):
    env = gym.make(env_id, **kwargs)
    rng = random.Random(1)
    _obs, info = env.reset(seed=33)
    done = False
    while not done:
        _obs, _r, term, trunc, info = env.step(
            rng.choice(np.flatnonzero(info["action_mask"]).tolist()))
        done = term or trunc
    match = env.unwrapped.match
    data = record.dump(match)
    assert record.load(data) == match
    assert record.dump(engine_replay(match, 33)) == data


@pytest.mark.parametrize("name,params", [
    ("python_fantan", {"players": 4, "rounds": 2}),
    ("python_fanti", {"players": 2, "rounds": 2}),
])
def test_openspiel_game_record_equals_the_engines(name, params):
    game = pyspiel.load_game(name, params)
    state = game.new_initial_state()
    rng = random.Random(2)
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    match = state.core.match
    data = record.dump(match)
    assert record.load(data) == match
    # The engine's own game from the same chance outcomes and moves.
    history = state.history()
    engine = Match(get_game(game.spec.game.name), game.spec.rules, match.seats, history[0])
    at = 1
    for rnd in match.rounds:
        deck = history[at:at + 52]
        assert list(rnd.deck) == deck  # one chance outcome per dealt card, in order
        engine.deal(deck)
        for _seat, move in rnd.history:
            engine.apply(move)
        at = _next_round_start(history, at + 52, rnd, game)
    assert record.dump(engine) == data


def _next_round_start(history: list[int], at: int, rnd, game) -> int:
    """Skip the round's player actions (a Fanti move may take several) in ``history``."""
    codec = game.spec.codec
    replay = rnd.game.new_round(rnd.rules, rnd.players, rnd.dealer, rnd.deck)
    for _seat, move in rnd.history:
        at += len(codec.encode(replay, move))
        replay.apply(move)
    return at


def test_core_package_does_not_import_the_research_libraries():
    code = ("import sys, parlour, parlour.bots, parlour.record, parlour.match\n"
            "bad = [m for m in ('gymnasium', 'pettingzoo', 'pyspiel', 'parlour.envs') "
            "if m in sys.modules]\n"
            "print(bad)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == "[]"
