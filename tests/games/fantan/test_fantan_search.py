"""The compiled Fan Tan search (bots/fast_fantan*.py) against the Python reference.

The kernels must reproduce the Python pieces exactly: the heuristic's card, the
opponent model's log-likelihood, heuristic playouts with FT-7/FT-8 scoring (passes
and withholding fines so far included) and the late best-response search. Sampled
worlds must respect the public constraints, and the engine must be reproducible,
budgeted and blind to hidden cards.
"""

from __future__ import annotations

import math
import random

import numpy as np
import pytest
from helpers_bots import round_at
from hypothesis import given, settings
from hypothesis import strategies as st

from option_variants import option_variants
from parlour import cards
from parlour.bots import make_bot
from parlour.bots.budget import Budget
from parlour.bots.determinize import world_pool
from parlour.bots.models import model_for, outcomes, rewards, win_shares
from parlour.bots.pimc import Pimc
from parlour.bots.solver import solve
from parlour.game import PASS
from parlour.games import get_game
from parlour.games.fantan import search_kernel as K
from parlour.games.fantan.determinize import evidence
from parlour.games.fantan.heuristic import best_card, round_policy
from parlour.games.fantan.infer import Likelihood, decision_arrays
from parlour.games.fantan.kernel import UNLOCKS_U
from parlour.games.fantan.search import _TABLES, FastFanTan, _setup

VARIANTS = list(zip((4, 3, 5, 8, 6, 4, 7), option_variants("fantan", limit=7), strict=False))
"""(players, rules): every value of every option, and seeded combinations."""


def a_view_round(players, rules, seed, bot="random"):
    """A round in progress (random length) with a real choice for the seat to move."""
    r = round_at("fantan", players, rules, seed, random.Random(seed).randrange(4, 60), bot)
    while not r.is_over and len(r.legal_moves()) < 2:
        r.apply(r.legal_moves()[0])
    return r


@settings(max_examples=400, deadline=None)
@given(st.integers(0, cards.FULL_DECK), st.integers(1, cards.FULL_DECK), st.booleans())
def test_kernel_best_card_is_the_heuristics(hand, legal, ace_high):
    hand |= legal  # playable cards are in the hand
    got = K.best_card(np.uint64(hand), np.uint64(legal), int(ace_high), *_TABLES)
    assert got == best_card(hand, legal, ace_high)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10_000), st.sampled_from(VARIANTS), st.sampled_from(["random",
                                                                            "heuristic"]))
def test_kernel_likelihood_is_the_opponent_models(seed, variant, bot):
    players, rules = variant
    r = a_view_round(players, rules, seed, bot)
    if r.is_over:
        return
    view = r.view(r.current_player)
    like, d = Likelihood(view, 0.1), decision_arrays(view)
    logmiss = np.array([math.log(0.1 / (k - 1)) if k >= 2 else 0.0 for k in range(53)])
    rng = random.Random(seed)
    for s in range(players):
        if s == view.seat:
            continue
        for hand in (r.hands[s], rng.getrandbits(52) & ~r.table):
            got = K.seat_loglik(np.uint64(hand), d.lo[s], d.hi[s], d.playable, d.chosen,
                                d.later, int(rules.get("ace") == "high"),
                                np.full(53, math.log(0.9)), math.log(0.1), logmiss,
                                *_TABLES)
            assert got == pytest.approx(like.seat(s, hand), abs=1e-9)


def kernel_values(r, exact, eps=None, solved_out=None):
    """The kernel's (reward, win share) of every legal move in the true world, no noise
    (or each seat's chance of a random move ``eps``)."""
    view = r.view(r.current_player)
    su = _setup(view, "constraints")
    rules = view.rules
    moves = np.array(view.legal, np.int64)
    out_r, out_w = np.empty((1, len(moves))), np.empty((1, len(moves)))
    solved = np.zeros(1, np.bool_)
    K.evaluate(np.array([r.hands], np.uint64), np.zeros(1, np.int64), moves, su.n,
               su.table, su.playable, su.me, su.passes, su.dealer, np.zeros(1, np.uint64),
               np.zeros((1, su.n)) if eps is None else np.array([eps], np.float64),
               exact, 52 if exact else 0, 10**6, solved, UNLOCKS_U[bool(su.af)],
               rules["opening"] == "any-seven", rules["strict"], rules["stakes"] == "chips",
               su.pseat, su.pplay, su.plater, su.af, *_TABLES, out_r, out_w, su.streak)
    if solved_out is not None:
        solved_out.append(bool(solved[0]))
        return []
    assert bool(solved[0]) == exact
    return list(zip(out_r[0], out_w[0], strict=True))


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10_000), st.sampled_from(VARIANTS))
def test_kernel_playouts_score_as_the_engine(seed, variant):
    """Heuristic playouts (noise off) from the true state, past passes and
    withholding fines included, score as FanTanRound.score and models.rewards."""
    players, rules = variant
    r = a_view_round(players, rules, seed)
    if r.is_over:
        return
    me = r.current_player
    for move, got in zip(r.legal_moves(), kernel_values(r, exact=False), strict=True):
        w = r.copy()
        w.advance(move)
        while not w.is_over:
            w.advance(round_policy(w))
        assert got == pytest.approx((rewards(w)[me], win_shares(w)[me]), abs=1e-12)


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10_000), st.sampled_from(VARIANTS))
def test_kernel_late_search_is_the_best_response(seed, variant):
    players, rules = variant
    r = round_at("fantan", players, rules, seed, 200, "random")
    # Rewind: a state where the seat to move has at most 5 cards, from random play.
    r = round_at("fantan", players, rules, seed, max(0, len(r.history) - 3 * players))
    while not r.is_over and (len(r.legal_moves()) < 2 or r.hands[r.turn].bit_count() > 5):
        r.apply(r.legal_moves()[0])
    if r.is_over:
        return
    me, m = r.current_player, model_for("fantan")
    for move, got in zip(r.legal_moves(), kernel_values(r, exact=True), strict=True):
        w = r.copy()
        w.advance(move)
        want = solve(w, outcomes, m.key, m.policy, {}, budget=10**6, moves=m.moves, me=me,
                     opponents=m.policy)[me]
        assert got == pytest.approx(want, abs=1e-12)


def test_late_search_only_where_no_seat_is_drawn_as_random():
    """The late exact search answers every other seat as the heuristic: a world where a
    seat is drawn as a random player (its reply chance 1) is played out instead."""
    r = round_at("fantan", 4, {}, 11, 200, "random")
    r = round_at("fantan", 4, {}, 11, max(0, len(r.history) - 12))
    while not r.is_over and (len(r.legal_moves()) < 2 or r.hands[r.turn].bit_count() > 5):
        r.apply(r.legal_moves()[0])
    assert not r.is_over
    me = r.current_player
    other = (me + 1) % 4
    got = []
    for eps in ([0.1] * 4, [1.0 if s == other else 0.1 for s in range(4)]):
        kernel_values(r, True, eps, got)
    assert got == [True, False]


def test_replies_draw_each_seat_from_its_posterior(monkeypatch):
    """Posterior sampling: per world, a seat plays at random (reply chance 1) with its
    posterior weight of ``random``, else as the heuristic with the engine's noise; my
    seat never. The mixture gives every world every seat's mixed chance."""
    from parlour.games.fantan import search

    engine = FastFanTan(Budget(iterations=1))
    prand = np.array([0.0, 0.3, 0.7, 0.05])
    mixed = engine._replies(3, prand, 0, random.Random(2))
    assert mixed[:, 1:] == pytest.approx(np.tile(1 - 0.9 * (1 - prand[1:]), (3, 1)))
    assert (mixed[:, 0] == engine.epsilon).all()
    monkeypatch.setattr(search, "REPLIES", "sample")
    eps = engine._replies(4000, prand, 0, random.Random(2))
    assert set(np.unique(eps)) <= {1.0, engine.epsilon}
    assert (eps[:, 0] == engine.epsilon).all()
    drawn = (eps == 1.0).mean(axis=0)
    assert drawn[1:] == pytest.approx(prand[1:], abs=0.03)
    assert (engine._replies(50, prand, 0, random.Random(2)) ==
            engine._replies(50, prand, 0, random.Random(2))).all()


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 10_000), st.sampled_from(VARIANTS),
       st.sampled_from(["full", "constraints", "none"]))
def test_sampled_worlds_respect_the_view(seed, variant, mode):
    players, rules = variant
    r = a_view_round(players, rules, seed)
    if r.is_over:
        return
    view = r.view(r.current_player)
    engine = FastFanTan(Budget(iterations=1), inference=mode)
    su = _setup(view, mode)
    d = decision_arrays(view) if mode == "full" else None
    pool = engine._pool(su, d, random.Random(seed))
    voids = evidence(view).voids
    unseen = cards.FULL_DECK & ~(view.hand | view.table)
    for world in pool:
        hands = [int(h) for h in world]
        assert hands[view.seat] == view.hand
        assert [h.bit_count() for h in hands] == list(view.hand_counts)
        union = 0
        for s, h in enumerate(hands):
            assert union & h == 0
            union |= h
            if s != view.seat and mode != "none":
                assert h & voids[s] == 0  # strict pass voids (empty when not strict)
        assert union == unseen | view.hand


def test_pass_voids_shape_the_worlds_only_with_inference():
    """Under strict play a seat that passed holds none of the cards then playable:
    ``constraints`` worlds never give them to it, ``none`` worlds sometimes do."""
    for seed in range(200):
        r = a_view_round(4, {}, seed)
        if r.is_over:
            continue
        view = r.view(r.current_player)
        voids = evidence(view).voids
        unseen = cards.FULL_DECK & ~(view.hand | view.table)
        if any(v & unseen for s, v in enumerate(voids) if s != view.seat):
            break
    else:
        pytest.fail("no view with a pass void on unseen cards")
    broken = {}
    for mode in ("constraints", "none"):
        su = _setup(view, mode)
        pool = FastFanTan(Budget(iterations=1), inference=mode)._pool(
            su, None, random.Random(1))
        broken[mode] = sum(bool(int(w[s]) & voids[s]) for w in pool
                           for s in range(4) if s != view.seat)
    assert broken["constraints"] == 0 and broken["none"] > 0


@pytest.mark.parametrize("players,rules", VARIANTS)
@pytest.mark.parametrize("mode", ["full", "constraints", "none"])
def test_estimates_are_reproducible_and_budgeted(players, rules, mode):
    r = a_view_round(players, rules, 5, "heuristic")
    view = r.view(r.current_player)
    engine = FastFanTan(Budget(iterations=300), inference=mode)
    first = engine.estimates(view, random.Random(9))
    assert first == engine.estimates(view, random.Random(9))
    assert sorted(e.move for e in first) == sorted(view.legal)
    assert all(0.0 <= e.value <= 1.0 and e.value <= e.reward <= e.value + 0.1 + 1e-9
               for e in first)
    assert [e.reward for e in first] == sorted((e.reward for e in first), reverse=True)
    assert first[0].samples == -(-300 // len(view.legal))  # (world, move) iterations


def test_going_out_is_valued_as_a_certain_win():
    """With one card left and it playable, playing it wins the round outright."""
    for seed in range(300):
        r = round_at("fantan", 4, {"strict": False}, seed, 200, "random")
        r = round_at("fantan", 4, {"strict": False}, seed, len(r.history) - 1)
        if r.hands[r.turn].bit_count() == 1 and len(r.legal_moves()) == 2:
            break
    else:
        pytest.fail("no final move with a withholding alternative found")
    view = r.view(r.turn)
    best = FastFanTan(Budget(iterations=50)).estimates(view, random.Random(0))
    assert best[0].move != 52 and best[0].value == 1.0
    assert best[1].value < 1.0


def test_decision_ignores_hidden_cards():
    from test_bots_nopeek import twin

    for seed, rules in ((3, {}), (4, {"strict": False, "stakes": "chips"})):
        r = round_at("fantan", 5, rules, seed, 25)
        while len(r.legal_moves()) < 2:
            r.apply(r.legal_moves()[0])
        other = twin(r, seed)
        me = r.current_player
        a = make_bot("hard:200", "fantan", 77).estimates(r.view(me))
        b = make_bot("hard:200", "fantan", 77).estimates(other.view(me))
        assert a == b


def test_levels_use_the_fast_engine_for_fan_tan_only():
    assert isinstance(make_bot("hard", "fantan", 0).engine, FastFanTan)
    assert isinstance(make_bot("expert", "fantan", 0).engine, FastFanTan)
    assert make_bot("hard:50:none", "fantan", 0).engine.inference == "none"
    assert make_bot("hard:50:constraints", "fantan", 0).engine.inference == "constraints"
    assert isinstance(make_bot("pimc:50", "fantan", 0).engine, Pimc)
    assert isinstance(make_bot("hard", "fanti", 0).engine, Pimc)
    assert isinstance(make_bot("hard:50", "fanti", 0).engine, Pimc)


def test_an_expired_time_limit_still_evaluates_every_move():
    """The first call may spend its whole time limit compiling: one chunk of worlds
    is still evaluated, so every move has a finite estimate."""
    r = a_view_round(4, {}, 8, "heuristic")
    view = r.view(r.current_player)
    out = FastFanTan(Budget(seconds=1e-9)).estimates(view, random.Random(0))
    assert sorted(e.move for e in out) == sorted(view.legal)
    assert all(e.samples >= 1 and 0.0 <= e.value <= 1.0 for e in out)


def test_warm_compiles_every_kernel_a_search_uses():
    """setup.sh and `parlour serve` call warm() so no first `hard` move waits on numba."""
    from parlour.games.fantan import search_kernel as kernel
    from parlour.games.fantan.search import warm

    assert warm() >= 0
    for fn in (kernel.evaluate, kernel.sample_pool, kernel.seeing_choices,
               kernel.info_evaluate):
        assert fn.signatures, f"{fn.__name__} not compiled by warm()"


def _reference_info_values(worlds, me, min_group):
    """``deep``'s values in Python on the engine's rounds: each move, the others
    answering as the heuristic until my next choice, then my second card chosen once
    per public position (on the mean over its worlds, or the heuristic's card in a
    position with fewer than ``min_group`` worlds), played out with the heuristic."""
    out = []
    for move in worlds[0].legal_moves():
        groups, done = {}, []
        for w in worlds:
            c = w.copy()
            c.advance(move)
            while not c.is_over and not (
                    c.turn == me and sum(1 for m in c.legal_moves() if m != PASS) >= 2):
                c.advance(round_policy(c))
            if c.is_over:
                done.append((rewards(c)[me], win_shares(c)[me]))
                continue
            key = (c.table, tuple(h.bit_count() for h in c.hands), tuple(c.passes),
                   c.hands[me])
            values = {}
            for m2 in c.legal_moves():
                if m2 == PASS:
                    continue  # the second move is a card (never a withholding pass)
                d = c.copy()
                d.advance(m2)
                while not d.is_over:
                    d.advance(round_policy(d))
                values[m2] = (rewards(d)[me], win_shares(d)[me])
            groups.setdefault(key, []).append((c, values))
        total_r = sum(r for r, _ in done)
        total_w = sum(s for _, s in done)
        for members in groups.values():
            c0, v0 = members[0]
            if len(members) >= min_group:
                best = max(sorted(v0), key=lambda m: sum(v[m][0] for _, v in members))
            else:
                best = round_policy(c0)
            total_r += sum(v[best][0] for _, v in members)
            total_w += sum(v[best][1] for _, v in members)
        out.append((total_r / len(worlds), total_w / len(worlds)))
    return out


@settings(max_examples=20, deadline=None)
@given(st.integers(0, 10_000), st.sampled_from(VARIANTS[:3]), st.sampled_from([1, 3, 100]))
def test_deep_kernel_chooses_the_second_card_per_information_set(seed, variant, min_group):
    """``info_evaluate`` (noise off) against the reference on real rounds: worlds dealt
    by the determinizer from the view, grouped by the public position two moves on."""
    players, rules = variant
    r = a_view_round(players, rules, seed)
    if r.is_over or r.hands[r.current_player].bit_count() < 3:
        return
    view = r.view(r.current_player)
    me = view.seat
    worlds = [w.round for w in world_pool(model_for("fantan").determinizer(), view, 12,
                                          random.Random(seed), inference="constraints")]
    su = _setup(view, "constraints")
    moves = np.array(view.legal, np.int64)
    out_r, out_w = np.empty(len(moves)), np.empty(len(moves))
    K.info_evaluate(np.array([w.hands for w in worlds], np.uint64), moves, su.n, su.table,
                    su.playable, me, su.passes, su.dealer, np.zeros(12, np.uint64),
                    np.zeros((12, su.n)), min_group, UNLOCKS_U[bool(su.af)],
                    view.rules["opening"] == "any-seven", view.rules["strict"],
                    view.rules["stakes"] == "chips", su.pseat, su.pplay, su.plater, su.af,
                    *_TABLES, out_r, out_w, su.streak)
    want = _reference_info_values(worlds, me, min_group)
    got = [x for pair in zip(out_r, out_w, strict=True) for x in pair]
    assert got == pytest.approx([x for pair in want for x in pair], abs=1e-12)


def test_a_repeated_withholding_pass_is_not_weighed():
    """FT-5, FT-8: withholding is allowed, but a second withholding pass with no card
    played since would repeat the position; search never weighs it (and so never
    suggests or plays it), while the first stays a choice."""
    from types import SimpleNamespace

    from parlour.games.fantan.model import root_moves

    def view(history):
        return SimpleNamespace(seat=0, legal=(3, 9, PASS), history=tuple(history))

    assert PASS in root_moves(view([(1, 20), (2, PASS), (3, PASS)]))  # first chance
    assert PASS not in root_moves(view([(0, PASS), (1, PASS), (2, PASS), (3, PASS)]))
    assert PASS in root_moves(view([(0, PASS), (1, PASS), (2, 33), (3, PASS)]))  # moved on
    assert root_moves(SimpleNamespace(seat=0, legal=(PASS,), history=((0, PASS),))) == [PASS]


@pytest.mark.parametrize("players,seed", [(4, 2), (5, 5)])
def test_search_bots_finish_rounds_where_withholding_is_allowed(players, seed):
    """Deals where `hard` once withheld forever against blocked heuristic players
    (strict: false): every round now ends."""
    g = get_game("fantan")
    deck = list(range(52))
    random.Random(seed).shuffle(deck)
    rules = g.rules(players, {"strict": False, "stakes": "chips"} if players == 5
                    else {"strict": False})
    r = g.new_round(rules, players, 0, deck)
    bots = [make_bot("hard:300" if s == 0 else "heuristic", "fantan", s)
            for s in range(players)]
    for _ in range(400):
        if r.is_over:
            break
        p = r.current_player
        r.apply(bots[p].choose(r.view(p)))
    assert r.is_over
