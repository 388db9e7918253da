"""No observation leaks hidden cards (FT-10, FA-7).

For a seat ``p`` in a game in play, another world is made that differs only in what
``p`` cannot see: the cards in the other hands are shuffled among those hands (same
counts), the undealt Fanti deck with them, and the deck positions of the other seats
are shuffled too. Every observation of ``p`` -- the shared vector used by PettingZoo
and Gymnasium, PettingZoo's ``observe``, and OpenSpiel's observation and
information-state tensors and strings -- must be identical in both worlds.
"""

from __future__ import annotations

import random

import numpy as np
import pyspiel
import pytest

import parlour.envs.openspiel  # noqa: F401  (registers the games)
from parlour import cards
from parlour.envs import fantan_v0, fanti_v0
from parlour.envs.resample import deal_seat
from parlour.game import Round


def other_world(rnd: Round, seat: int, rng: random.Random) -> Round:
    """A copy of ``rnd`` with everything hidden from ``seat`` shuffled."""
    new = rnd.copy()
    n = rnd.players
    others = [s for s in range(n) if s != seat]
    dealt = rnd.dealt if rnd.game.name == "fanti" else 52
    pool = [c for s in others for c in cards.iter_cards(rnd.hand(s))]
    pool += list(rnd.deck[dealt:])
    rng.shuffle(pool)
    hands = list(new.hands)
    for s in others:
        k = rnd.hand(s).bit_count()
        hands[s] = cards.mask_of(pool[:k])
        pool = pool[k:]
    new.hands = hands
    deck = list(rnd.deck)
    deck[dealt:] = pool
    hidden = [i for i in range(dealt)
              if deal_seat(rnd.game.name, n, rnd.dealer, i) not in (seat, -1)]
    moved = [deck[i] for i in hidden]
    rng.shuffle(moved)
    for i, c in zip(hidden, moved, strict=True):
        deck[i] = c
    new.deck = tuple(deck)
    changed = any(new.hands[s] != rnd.hands[s] for s in others) or new.deck != rnd.deck
    assert changed or len(pool) <= 1
    return new


CASES = [
    (fantan_v0, "python_fantan", {"players": 4, "rounds": 2}),
    (fantan_v0, "python_fantan", {"players": 3, "rounds": 1, "strict": False,
                                  "opening": "any-seven"}),
    (fanti_v0, "python_fanti", {"players": 3, "rounds": 2}),
    (fanti_v0, "python_fanti", {"players": 2, "rounds": 1}),
]


@pytest.mark.parametrize("mod,_name,params", CASES)
def test_pettingzoo_and_gymnasium_observations_do_not_leak(mod, _name, params):
    env = mod.raw_env(**params)
    rng = random.Random(1)
    env.reset(seed=4)
    for step in range(60):
        if env.session.is_over:
            break
        if step % 6 == 0:
            match = env.match
            real = match.rounds[-1]
            for seat, agent in enumerate(env.possible_agents):
                before = env.observe(agent)
                shared = env.session.observe(seat)  # the Gymnasium learner's vector
                match.rounds[-1] = other_world(real, seat, rng)
                after = env.observe(agent)
                assert np.array_equal(after["observation"], before["observation"])
                assert np.array_equal(after["action_mask"], before["action_mask"])
                assert np.array_equal(env.session.observe(seat), shared)
                match.rounds[-1] = real
        mask = env.observe(env.agent_selection)["action_mask"]
        env.step(rng.choice(np.flatnonzero(mask).tolist()))


@pytest.mark.parametrize("env_id", ["parlour/FanTan-v0", "parlour/Fanti-v0"])
def test_gymnasium_observation_does_not_leak(env_id):
    import gymnasium as gym

    import parlour.envs  # noqa: F401  (registers the ids)

    env = gym.make(env_id, players=3, seat=1, opponents="greedy", rounds=1)
    inner = env.unwrapped
    rng = random.Random(3)
    obs, info = env.reset(seed=5)
    for _ in range(8):
        real = inner.match.rounds[-1]
        assert np.array_equal(inner.session.observe(1), obs)  # what step/reset return
        inner.match.rounds[-1] = other_world(real, 1, rng)
        assert np.array_equal(inner.session.observe(1), obs)
        assert np.array_equal(inner.session.action_mask(1), info["action_mask"])
        inner.match.rounds[-1] = real
        obs, _r, term, _t, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
        if term:
            break


@pytest.mark.parametrize("_mod,name,params", CASES)
def test_openspiel_observers_do_not_leak(_mod, name, params):
    game = pyspiel.load_game(name, params)
    state = game.new_initial_state()
    rng = random.Random(2)
    decisions = 0
    while decisions < 50 and not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
            continue
        if decisions % 5 == 0:
            for p in range(game.num_players()):
                twin = state.clone()
                m = twin.core.match
                m.rounds[-1] = other_world(m.rounds[-1], p, rng)
                assert twin.observation_tensor(p) == state.observation_tensor(p)
                assert twin.information_state_tensor(p) == state.information_state_tensor(p)
                assert twin.observation_string(p) == state.observation_string(p)
                assert twin.information_state_string(p) == state.information_state_string(p)
        state.apply_action(rng.choice(state.legal_actions()))
        decisions += 1


def test_the_leak_check_would_notice_a_leak():
    """The other world really differs in a way a leaking observation would show."""
    env = fantan_v0.raw_env(players=4)
    env.reset(seed=0)
    real = env.match.rounds[-1]
    twin = other_world(real, 0, random.Random(0))
    assert twin.hand(0) == real.hand(0)
    assert [twin.hand(s) for s in (1, 2, 3)] != [real.hand(s) for s in (1, 2, 3)]
