"""Determinized worlds agree with everything the seat can see (FT-5, FT-10, FA-3, FA-7)."""

from __future__ import annotations

import random

import pytest
from helpers_bots import VARIANTS, round_at
from hypothesis import given, settings
from hypothesis import strategies as st

from parlour import cards
from parlour.bots.determinize import replay, sample_hands, temper
from parlour.game import PASS
from parlour.games.fantan.determinize import FanTanDeterminizer, evidence
from parlour.games.fantan.rules import UNLOCKS
from parlour.games.fanti.determinize import FantiDeterminizer, starting_table


def determinizer(game):
    return FanTanDeterminizer() if game == "fantan" else FantiDeterminizer()


@settings(max_examples=60, deadline=None)
@given(variant=st.sampled_from(VARIANTS), seed=st.integers(0, 10**6),
       moves=st.integers(0, 60), sample=st.integers(0, 10**6))
def test_worlds_replay_to_the_same_view(variant, seed, moves, sample):
    """Hand sizes, cards played or collected, table and history all match."""
    game, players, rules = variant
    r = round_at(game, players, rules, seed, moves)
    if r.is_over:
        return
    me = r.current_player
    view = r.view(me)
    world = determinizer(game).deal(view, random.Random(sample))
    replay(world, view.history, me, None)  # raises IllegalMove if inconsistent
    assert world.view(me) == view
    assert world.hand(me) == r.hand(me)
    for s in range(players):
        assert world.hand(s).bit_count() == r.hand(s).bit_count()


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10**6), moves=st.integers(20, 70), sample=st.integers(0, 10**6),
       players=st.sampled_from([3, 4, 6]))
def test_fantan_worlds_respect_pass_voids(seed, moves, sample, players):
    """FT-5 under strict: a seat that passed holds none of the cards then playable."""
    r = round_at("fantan", players, {}, seed, moves)
    if r.is_over:
        return
    me = r.current_player
    view = r.view(me)
    world = FanTanDeterminizer().deal(view, random.Random(sample))
    replay(world, view.history, me, None)
    # rebuild, pass by pass, what was playable, and check the world's hands then
    table, playable = 0, cards.mask_of(cards.card(6, s) for s in range(4))
    unlock = UNLOCKS[False]
    start = FanTanDeterminizer().deal(view, random.Random(sample))
    hands = [start.hand(s) for s in range(players)]
    for seat, move in view.history:
        if move == PASS:
            assert hands[seat] & playable == 0
        else:
            hands[seat] &= ~(1 << move)
            table |= 1 << move
            playable = (playable ^ (1 << move)) | unlock[move]
    assert hands == [world.hand(s) for s in range(players)]


def test_fantan_evidence_finds_voids_only_when_strict():
    """FT-5: under strict: false a pass proves nothing."""
    r = round_at("fantan", 4, {}, 5, 60)
    view = r.view(r.current_player)
    assert any(m == PASS for _, m in view.history)
    assert any(evidence(view).voids)
    loose = round_at("fantan", 4, {"strict": False}, 5, 60)
    assert not any(evidence(loose.view(loose.current_player)).voids)


def test_sample_hands_respects_sizes_and_voids_many_times():
    rng = random.Random(0)
    unseen = list(range(20))
    voids = [cards.mask_of(range(0, 8)), cards.mask_of(range(6, 14)), 0]
    seen_first = set()
    for _ in range(300):
        hands = sample_hands(unseen, [0, 1, 2], [6, 7, 7], voids, rng)
        assert [h.bit_count() for h in hands] == [6, 7, 7]
        assert hands[0] | hands[1] | hands[2] == cards.mask_of(unseen)
        for h, v in zip(hands, voids, strict=True):
            assert h & v == 0
        seen_first.add(hands[0])
    assert len(seen_first) > 50  # not stuck on one deal


def test_sample_hands_detects_impossible_constraints():
    with pytest.raises(ValueError):
        sample_hands([0, 1, 2], [0, 1], [2, 1], [0b111, 0], random.Random(0))


def test_fanti_starting_table_is_the_first_four_cards():
    """FA-3: the first four deck cards go face up to the table."""
    r = round_at("fanti", 3, {}, 9, 17)
    view = r.view(r.current_player)
    assert starting_table(view) == cards.mask_of(r.deck[:4])


def test_temper_keeps_the_sample_from_collapsing():
    logliks = [0.0] * 10 + [-50.0] * 90
    weights, beta = temper(logliks, min_ess=0.5)
    ess = 1 / sum(w * w for w in weights)
    assert ess >= 0.5 * len(logliks) - 1e-6
    assert beta < 1
    flat, beta1 = temper([0.0] * 10, 0.5)
    assert beta1 == 1 and flat == [0.1] * 10


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10**6), moves=st.integers(10, 70), sample=st.integers(0, 10**6),
       players=st.sampled_from([3, 4, 5]), strict=st.booleans())
def test_fantan_posterior_worlds_stay_consistent(seed, moves, sample, players, strict):
    """The opponent-model chain only visits worlds the history allows (FT-5)."""
    r = round_at("fantan", players, {"strict": strict}, seed, moves, bot="heuristic")
    if r.is_over:
        return
    me = r.current_player
    view = r.view(me)
    worlds = FanTanDeterminizer().posterior(view, 12, random.Random(sample))
    assert len(worlds) == 12
    for w in worlds:
        replay(w, view.history, me, None)  # legality checked move by move
        assert w.view(me) == view
