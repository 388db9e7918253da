"""The solvable variants: ``pack: small`` (FT-12, FA-11) in every engine, env and record.

The rule texts are in docs/rules.md; the NashConv table in docs/research.md."""

from __future__ import annotations

import json
import random

import gymnasium as gym
import pyspiel
import pytest
from env_helpers import no_unexpected_warnings
from gymnasium.utils.env_checker import check_env
from open_spiel.python.algorithms import cfr, exploitability
from open_spiel.python.policy import UniformRandomPolicy
from pettingzoo.test import api_test, parallel_api_test

import parlour.envs  # noqa: F401  (registers the ids)
import parlour.envs.openspiel  # noqa: F401  (registers the games)
from parlour import cards, record
from parlour.envs import fantan_v0, fanti_v0
from parlour.games import get_game
from parlour.match import Match, Shuffler
from parlour.options import OptionError
from parlour.simulate import choose_engine

SMALL = {"pack": "small", "rounds": 1}
VARIANTS = [("fantan", 3), ("fanti", 2)]


class _Random:
    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def choose(self, view):
        return self.rng.choice(view.legal)


def _played(game: str, players: int, seed: int, rounds: int = 1) -> Match:
    g = get_game(game)
    m = Match.new(g, players, {**SMALL, "rounds": rounds}, shuffler=Shuffler(seed))
    return m.play_out([_Random(seed)] * players, Shuffler(seed))


def test_ft12_the_small_pack_deals_the_6s_7s_and_8s_of_clubs_and_diamonds():
    """FT-12: six cards, two a seat at three players, the 7D holder leads (FT-4)."""
    g = get_game("fantan")
    rules = g.rules(3, SMALL)
    deck = list(range(52))
    random.Random(1).shuffle(deck)
    r = g.new_round(rules, 3, 0, deck)
    assert set(cards.codes(r.hands[0] | r.hands[1] | r.hands[2])) == {
        "6C", "7C", "8C", "6D", "7D", "8D"}
    assert [h.bit_count() for h in r.hands] == [2, 2, 2]
    assert r.hands[r.current_player] >> cards.from_code("7D") & 1
    assert r.legal_moves() == [cards.from_code("7D")]
    # the pack's cards in deck order, one at a time from the dealer's left (FT-1)
    order = [c for c in deck if cards.code(c)[-1] in "CD" and cards.code(c)[:-1] in "678"]
    assert r.hands[1] >> order[0] & 1 and r.hands[2] >> order[1] & 1


def test_fa11_the_small_pack_lays_two_and_deals_two_each():
    """FA-11: Leaf and Star A, 10, Guardian; 2 to the table, 2 a hand, two players only."""
    g = get_game("fanti")
    rules = g.rules(2, SMALL)
    deck = list(range(52))
    random.Random(2).shuffle(deck)
    r = g.new_round(rules, 2, 0, deck)
    pack = cards.mask_from_codes(["AC", "10C", "JC", "AD", "10D", "JD"])
    assert r.table.bit_count() == 2 and [h.bit_count() for h in r.hands] == [2, 2]
    assert r.table | r.hands[0] | r.hands[1] == pack
    assert r.view(0).deck_left == 0
    with pytest.raises(OptionError, match="FA-11"):
        g.rules(3, SMALL)


@pytest.mark.parametrize(("game", "players"), VARIANTS)
def test_small_pack_records_check_and_replay(game, players):
    """FT-12 / FA-11: the record carries ``pack`` and replays; a full-deck record is
    written without it, as before, and a record without it reads as the full deck."""
    m = _played(game, players, 7, rounds=2)
    data = json.loads(json.dumps(record.dump(m)))
    assert data["rules"]["pack"] == "small" and len(data["rounds"][0]["deck"]) == 52
    again = record.load(data)
    assert again.totals == m.totals and again.rules["pack"] == "small"
    full = record.dump(Match.new(get_game(game), players, {"rounds": 1}))
    assert "pack" not in full["rules"]
    assert record.load(full).rules["pack"] == "full"
    bad = dict(data, rules=dict(data["rules"], pack="tiny"))
    with pytest.raises(record.RecordError, match="pack"):
        record.load(bad)


def test_compiled_engines_refuse_the_small_pack_in_words():
    """The kernels deal 52 cards: auto plays the small pack on the step engine; batch
    and the vector env refuse it, naming the option."""
    rules = get_game("fantan").rules(3, SMALL)
    assert choose_engine("auto", ["random"] * 3, "fantan", rules) == "step"
    with pytest.raises(ValueError, match='pack="small"'):
        choose_engine("batch", ["random"] * 3, "fantan", rules)
    with pytest.raises(ValueError, match="step engine"):
        gym.make_vec("parlour/Fanti-v0", num_envs=2, vectorization_mode="vector_entry_point",
                     pack="small", rounds=1)


@pytest.mark.parametrize(("module", "players"), [(fantan_v0, 3), (fanti_v0, 2)])
def test_small_pack_pettingzoo_api_and_parallel_api(module, players):
    with no_unexpected_warnings():
        api_test(module.env(players=players, **SMALL), num_cycles=100)
    parallel_api_test(module.parallel_env(players=players, **SMALL), num_cycles=200)


@pytest.mark.parametrize(("env_id", "players"), [("parlour/FanTan-v0", 3),
                                                 ("parlour/Fanti-v0", 2)])
def test_small_pack_gymnasium_check_env(env_id, players):
    env = gym.make(env_id, players=players, opponents="greedy", **SMALL)
    with no_unexpected_warnings():
        check_env(env.unwrapped)


@pytest.mark.parametrize(("game", "players"), VARIANTS)
def test_small_pack_openspiel_random_sim_test(game, players):
    g = pyspiel.load_game(f"python_{game}", {"players": players, **SMALL})
    pyspiel.random_sim_test(g, num_sims=5, serialize=True, verbose=False)


def test_small_pack_chance_counts_deals_not_orders():
    """One chance node a seat's hand: 6 cards to 3 seats, 2 each, is 90 deals."""
    g = pyspiel.load_game("python_fantan", {"players": 3, **SMALL})
    s = g.new_initial_state()
    s.apply_action(0)  # the first dealer
    deals = 1
    while s.is_chance_node():
        outcomes = s.chance_outcomes()
        assert abs(sum(p for _a, p in outcomes) - 1) < 1e-9
        deals *= len(outcomes)
        s.apply_action(outcomes[-1][0])
    assert deals == 90


def test_cfr_nash_conv_decreases_on_fantan_small():
    """CFR's average policy on FT-12's small pack: NashConv falls with iterations."""
    g = pyspiel.load_game("python_fantan", {"players": 3, **SMALL})
    solver = cfr.CFRSolver(g)
    values, done = [], 0
    for iterations in (1, 2, 4):
        for _ in range(iterations - done):
            solver.evaluate_and_update_policy()
        done = iterations
        values.append(exploitability.nash_conv(g, solver.average_policy()))
    uniform = exploitability.nash_conv(g, UniformRandomPolicy(g))
    # one iteration's average policy is the uniform one; then NashConv falls (about 1/T)
    assert values[0] == pytest.approx(uniform)
    assert values[2] < values[1] < values[0]
