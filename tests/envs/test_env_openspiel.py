"""OpenSpiel games ``python_fantan`` and ``python_fanti``, the resampler and ISMCTS."""

from __future__ import annotations

import random

import numpy as np
import pyspiel
import pytest
from env_helpers import played_round
from open_spiel.python.algorithms.evaluate_bots import evaluate_bots

import parlour.envs.openspiel  # noqa: F401  (registers the games)
from parlour import cards
from parlour.envs.resample import resample_deck
from parlour.envs.spiel_bots import ParlourBot, ismcts_bot, resample
from parlour.games.fantan.env import voids as fantan_voids


@pytest.mark.parametrize("name,params,serialize", [
    ("python_fantan", {"players": 3, "rounds": 2}, True),
    ("python_fantan", {"players": 4}, False),
    ("python_fantan", {"players": 7, "rounds": 1, "strict": False, "opening": "any-seven",
                       "ace": "high", "stakes": "chips"}, False),
    ("python_fanti", {"players": 2, "rounds": 2}, True),
    ("python_fanti", {"players": 4, "rounds": 1, "ties": "shared",
                      "guardian_takes_guardians": False}, False),
])
def test_openspiel_random_sim_test_passes(name, params, serialize):
    game = pyspiel.load_game(name, params)
    pyspiel.random_sim_test(game, num_sims=3, serialize=serialize, verbose=False)


def test_parameters_reach_the_rules():
    game = pyspiel.load_game("python_fantan", {"players": 5, "ace": "high"})
    assert game.num_players() == 5
    assert game.spec.rules["rounds"] == 5           # FT-9: default = number of players
    assert game.spec.rules["ace"] == "high"          # FT-2
    assert game.num_distinct_actions() == 53
    fanti = pyspiel.load_game("python_fanti")
    assert fanti.num_players() == 2 and fanti.spec.rules["rounds"] == 5  # FA-10
    assert fanti.num_distinct_actions() == 105
    with pytest.raises(Exception, match="players"):
        pyspiel.load_game("python_fanti", {"players": 5})  # FA-2


def test_deal_is_explicit_chance_one_card_at_a_time():
    game = pyspiel.load_game("python_fantan", {"players": 4, "rounds": 1})
    state = game.new_initial_state()
    assert state.is_chance_node() and len(state.chance_outcomes()) == 4  # first dealer
    state.apply_action(2)
    for k in range(52):
        outcomes = state.chance_outcomes()
        assert len(outcomes) == 52 - k
        assert sum(p for _, p in outcomes) == pytest.approx(1.0)
        state.apply_action(outcomes[-1][0])
    assert not state.is_chance_node()
    assert state.core.match.rounds[0].deck == tuple(range(51, -1, -1))
    assert state.core.match.rounds[0].dealer == 2


def _pass_whenever_allowed(game):
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(state.chance_outcomes()[0][0])
        else:
            state.apply_action(state.legal_actions()[-1])  # pass whenever allowed (FT-5)
    return state


def test_turn_limit_ends_a_withholding_game_with_no_result():
    game = pyspiel.load_game("python_fantan", {"players": 3, "rounds": 1, "strict": False,
                                              "turn_limit": 5})
    state = _pass_whenever_allowed(game)
    assert state.core.truncated and state.returns() == [0.0, 0.0, 0.0]
    assert game.max_game_length() == 5


def test_a_withholding_game_ends_blocked_within_its_length():
    """FT-11: 7D, then six passes in a row block the round; the game has a result, and
    max_game_length is the ruling's bound, 2n(53 - n) = 300 at three players."""
    game = pyspiel.load_game("python_fantan", {"players": 3, "rounds": 1, "strict": False})
    state = _pass_whenever_allowed(game)
    assert not state.core.truncated and state.core.match.rounds[0].blocked
    assert sum(state.returns()) == pytest.approx(0.0) and state.returns() != [0.0] * 3
    assert game.max_game_length() == 300


def _mid_game(name: str, params: dict, seed: int, decisions: int):
    game = pyspiel.load_game(name, params)
    state = game.new_initial_state()
    rng = random.Random(seed)
    done = 0
    while done < decisions or state.is_chance_node():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
            done += 1
        if state.is_terminal():
            break
    return game, state


@pytest.mark.parametrize("name,params", [
    ("python_fantan", {"players": 4, "rounds": 2}),
    ("python_fantan", {"players": 3, "rounds": 1, "strict": False}),
    ("python_fanti", {"players": 3, "rounds": 2}),
])
def test_resampled_state_keeps_the_players_information_state(name, params):
    for seed in range(6):
        _game, state = _mid_game(name, params, seed, 25 + 7 * seed)
        if state.is_terminal():
            continue
        p = state.current_player()
        new = resample(state, p, random.Random(seed))
        assert new.information_state_string(p) == state.information_state_string(p)
        assert new.information_state_tensor(p) == state.information_state_tensor(p)
        assert new.observation_tensor(p) == state.observation_tensor(p)
        assert new.legal_actions() == state.legal_actions()
        old_r, new_r = state.core.match.rounds[-1], new.core.match.rounds[-1]
        for s in range(state.num_players()):
            assert new_r.hand(s).bit_count() == old_r.hand(s).bit_count()


def test_resampler_respects_fan_tan_pass_voids():
    """FT-5 (strict): a seat that passed held nothing that fitted, so a resampled deal
    never gives it such a card."""
    checked = 0
    for seed in range(40):
        rnd = played_round("fantan", 4, seed, 30)
        if rnd.is_over:
            continue
        voids = fantan_voids(4, rnd.rules, rnd.history)
        if not any(voids):
            continue
        seat = rnd.current_player
        for k in range(5):
            deck = resample_deck(rnd, seat, random.Random(k))
            assert sorted(deck) == list(range(52))
            replay = rnd.game.new_round(rnd.rules, 4, rnd.dealer, deck)
            for _s, m in rnd.history:
                replay.apply(m)  # legal move for move, passes included
            for s in range(4):
                if s != seat:
                    assert replay.hand(s) & voids[s] == 0
            assert replay.hand(seat) == rnd.hand(seat)
            checked += 1
    assert checked > 20


def test_resampler_changes_hidden_cards_fanti_undealt_included():
    rnd = played_round("fanti", 2, 3, 10)
    seat = rnd.current_player
    decks = {tuple(resample_deck(rnd, seat, random.Random(k))) for k in range(10)}
    assert len(decks) == 10
    for deck in decks:
        replay = rnd.game.new_round(rnd.rules, 2, rnd.dealer, deck)
        for _s, m in rnd.history:
            replay.apply(m)
        assert replay.hand(seat) == rnd.hand(seat)
        assert replay.table == rnd.table and replay.piles == rnd.piles


@pytest.mark.parametrize("name,params", [
    ("python_fantan", {"players": 3, "rounds": 1}),
    ("python_fanti", {"players": 2, "rounds": 1}),
])
def test_python_ismcts_plays_a_whole_game_against_parlour_bots(name, params):
    game = pyspiel.load_game(name, params)
    n = game.num_players()
    bots = [ismcts_bot(game, seed=1, simulations=8)]
    bots += [ParlourBot(game, "greedy", s, seed=s) for s in range(1, n)]
    returns = evaluate_bots(game.new_initial_state(), bots, np.random.RandomState(0))
    assert sum(returns) == pytest.approx(0.0)
    assert max(returns) > 0


def test_observation_strings_show_own_hand_only():
    _game, state = _mid_game("python_fantan", {"players": 4, "rounds": 1}, 2, 5)
    rnd = state.core.match.rounds[-1]
    for p in range(4):
        text = state.observation_string(p)
        hand_line = next(x for x in text.splitlines() if x.startswith("hand "))
        assert hand_line == "hand " + " ".join(cards.codes(rnd.hand(p)))
