"""Fanti fast search (parlour.games.fanti.search): differential tests against the engine."""

from __future__ import annotations

import random

import pytest
from helpers_bots import round_at
from hypothesis import given, settings
from hypothesis import strategies as st

from parlour.bots.budget import Budget
from parlour.bots.models import outcomes
from parlour.bots.pimc import Pimc
from parlour.cards import FULL_DECK
from parlour.games.fanti import search as fanti_search
from parlour.games.fanti.rules import LEAVES, hand_moves
from parlour.games.fanti.search import Solver, deal_hands, final_outcome, leaf_2p


def _solver_for(r, shared=False):
    return Solver(r.players, r.turn, r._gtg, shared, r.dealt >= 52)


@pytest.mark.parametrize("players,rules", [(2, {}), (3, {"guardian_takes_guardians": False}),
                                           (4, {"ties": "shared"})])
def test_play_and_final_outcome_match_the_engine(players, rules):
    """Random rounds played move by move with both: same hands, table, piles, turn,
    last collector, deal end; and the same outcome as the engine at the end."""
    for seed in range(12):
        r = round_at("fanti", players, rules, seed, 0)
        s = _solver_for(r, rules.get("ties") == "shared")
        rng = random.Random(seed)
        while not r.is_over:
            m = rng.choice(r.legal_moves())
            before = r.dealt
            h, t, p, nxt, lc, done = s._play(list(r.hands), r.table, list(r.piles),
                                             r.turn, r.last_collector, m)
            if r.dealt >= 52 and done:  # the last move of the round
                want = final_outcome(p, t, lc, rules.get("ties") == "shared")
                r.advance(m)
                assert list(want) == outcomes(r)
                break
            r.advance(m)
            assert done == (r.dealt != before)
            if not done:
                assert (h, t, p, nxt, lc) == (r.hands, r.table, r.piles, r.turn,
                                              r.last_collector)
            else:
                assert (t, p, nxt, lc) == (r.table, r.piles, r.turn, r.last_collector)
        assert r.is_over


def _minimax(s, hands, table, piles, turn, last, stage=0):
    """Plain 2-player minimax of seat 0's win share: the reference for alpha-beta
    (on into the next deal when the solver has its hands)."""
    vals = []
    for m in hand_moves(hands[turn], table, s.gtg):
        h, t, p, nxt, lc, done = s._play(hands, table, piles, turn, last, m)
        if done and stage == 0 and s.next_hands:
            vals.append(_minimax(s, list(s.next_hands), t, p, nxt, lc, 1))
        else:
            vals.append(s._leaf2(p, t, lc, stage) if done
                        else _minimax(s, h, t, p, nxt, lc, stage))
    return max(vals) if turn == 0 else min(vals)


@pytest.mark.parametrize("moves", [0, 8, 40])
def test_alpha_beta_equals_plain_minimax(moves):
    """2 players: the pruned search gives every root move its exact minimax value,
    both mid-round (horizon leaf) and in the last deal (true result)."""
    for seed in range(6):
        r = round_at("fanti", 2, {}, 30 + seed, moves)
        view = r.view(r.turn)
        hands = deal_hands(view, random.Random(seed))
        s = _solver_for(r)
        got = s.root(hands, r.table, list(r.piles), r.turn, r.last_collector,
                     list(view.legal))
        for m, (reward, share) in zip(view.legal, got, strict=True):
            ref = _solver_for(r)
            h, t, p, nxt, lc, done = ref._play(hands, r.table, list(r.piles), r.turn,
                                               r.last_collector, m)
            v = ref._leaf2(p, t, lc) if done else _minimax(ref, h, t, p, nxt, lc)
            mine = v if r.turn == 0 else 1.0 - v
            assert share == pytest.approx(mine, abs=1e-12)
            assert reward == share


@pytest.mark.parametrize("moves", [3, 37])
def test_two_deal_search_equals_plain_minimax_into_the_next_deal(moves):
    """``expert``'s horizon (2 players): with the next deal's hands the pruned search
    runs on to the end of that deal (or of the round, FA-8, when it is the last) and
    gives every root move the minimax value of the two deals."""
    changed = False
    for seed in range(4):
        r = round_at("fanti", 2, {}, 50 + seed, moves)
        view = r.view(r.turn)
        rng = random.Random(seed)
        hands = deal_hands(view, rng)
        nxt_hands = fanti_search.next_deal(view, hands, rng)
        assert len(nxt_hands) == 2 and all(h.bit_count() == 4 for h in nxt_hands)
        seen = view.table | view.piles[0] | view.piles[1] | hands[0] | hands[1]
        assert not (nxt_hands[0] | nxt_hands[1]) & seen
        got = fanti_search.solve_moves(view, hands + nxt_hands, list(view.legal))
        ref = Solver(2, r.turn, r._gtg, False, False, False, view.deck_left, nxt_hands)
        for m, (_reward, share) in zip(view.legal, got, strict=True):
            h, t, p, nxt, lc, done = ref._play(hands, r.table, list(r.piles), r.turn,
                                               r.last_collector, m)
            v = (_minimax(ref, list(nxt_hands), t, p, nxt, lc, 1) if done
                 else _minimax(ref, h, t, p, nxt, lc))
            assert share == pytest.approx(v if r.turn == 0 else 1.0 - v, abs=1e-12)
        changed |= fanti_search.solve_moves(view, hands, list(view.legal)) != got
    assert changed  # the farther horizon changes the values


def test_worlds_keep_my_hand_and_hand_sizes_and_use_only_unseen_cards():
    r = round_at("fanti", 4, {}, 3, 9)
    view = r.view(r.turn)
    seen = view.hand | view.table
    for p in view.piles:
        seen |= p
    rng = random.Random(1)
    for _ in range(50):
        hands = deal_hands(view, rng)
        assert hands[view.seat] == view.hand
        assert [h.bit_count() for h in hands] == list(view.hand_counts)
        others = 0
        for s, h in enumerate(hands):
            if s != view.seat:
                assert h & seen == 0 and h & others == 0
                others |= h


def test_leaf_is_a_probability_and_rewards_the_lead():
    leaves = LEAVES
    empty = 0
    assert leaf_2p(empty, empty) == pytest.approx(0.5)
    ahead = leaves & ~(1 << 1)  # 12 Leaf cards, not 2C
    assert 0.8 < leaf_2p(ahead, empty) < 1.0
    assert leaf_2p(empty, ahead) == pytest.approx(1.0 - leaf_2p(ahead, empty))
    # every card taken: the exact result
    half = FULL_DECK & ~leaves
    assert leaf_2p(leaves, half) == 0.0  # 13 vs 39 cards: seat 1 has +2, seat 0 +1 +1
    assert leaf_2p(half, leaves) == 1.0


def test_pimc_fanti_fast_path_is_reproducible_and_ranks_every_move():
    r = round_at("fanti", 2, {}, 11, 20)
    while len(r.legal_moves()) < 2:
        r.apply(r.legal_moves()[0])
    view = r.view(r.turn)
    first = Pimc("fanti", Budget(iterations=80)).estimates(view, random.Random(5))
    again = Pimc("fanti", Budget(iterations=80)).estimates(view, random.Random(5))
    assert first == again
    assert sorted(e.move for e in first) == sorted(view.legal)
    assert all(0.0 <= e.value <= 1.0 for e in first)
    assert [e.reward for e in first] == sorted((e.reward for e in first), reverse=True)


def test_light_move_matches_the_playout_policy():
    from parlour.games.fanti.heuristic import light_policy

    for seed in range(20):
        r = round_at("fanti", 3, {}, seed, seed % 17)
        if r.is_over:
            continue
        assert fanti_search.light_move(r.legal_moves(), r.table) == light_policy(r)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_deal_evidence_finds_every_heuristic_play_in_the_true_world(players):
    """With heuristic opponents, the true hands explain every play of the deal (each a
    hit of the model), so rebuilding the past tables, piles and hands is right; and
    some other world explains them less well somewhere."""
    import math

    from parlour.games.fanti.search import EPSILON, DealEvidence

    worse = 0
    for seed in range(8):
        for moves in (3, 7, 13, 22):
            r = round_at("fanti", players, {}, seed, moves, bot="heuristic")
            if r.is_over:
                continue
            view = r.view(r.turn)
            ev = DealEvidence(view)
            hits = sum(1 for seat, m, table, _s, later, _c in ev.plays
                       if len(hand_moves(r.hands[seat] | later, table)) > 1)
            assert ev.loglik(r.hands) == pytest.approx(hits * math.log(1 - EPSILON))
            rng = random.Random(seed)
            if any(ev.loglik(deal_hands(view, rng)) < ev.loglik(r.hands) - 1e-9
                   for _ in range(20)):
                worse += 1
    assert worse > 0


@pytest.mark.parametrize("players,moves", [(2, 9), (2, 41), (3, 5), (4, 14)])
def test_respond_mode_matches_the_generic_solver_against_the_heuristic(players, moves):
    """With ``respond``, the other seats play the heuristic: every root move's value
    equals :func:`parlour.bots.solver.solve` in opponent-model mode with
    :func:`.heuristic_fanti.round_policy` and the same leaf, on the same world."""
    from parlour.bots.solver import solve
    from parlour.games.fanti.heuristic import round_policy

    for seed in range(4):
        r = round_at("fanti", players, {}, 50 + seed, moves)
        if r.is_over:
            continue
        me, dealt = r.turn, r.dealt
        s = Solver(players, me, r._gtg, False, r.dealt >= 52, True, 52 - r.dealt)

        def leaf(x, s=s, dealt=dealt):
            return None if x.dealt == dealt else _pairs(s, x)  # the end of the deal

        got = s.root(list(r.hands), r.table, list(r.piles), me, r.last_collector,
                     r.legal_moves())
        for m, (_reward, share) in zip(r.legal_moves(), got, strict=True):
            child = r.copy()
            child.advance(m)
            ref = solve(child, lambda x, s=s: _pairs(s, x), lambda x: (
                tuple(x.hands), tuple(x.piles), x.table, x.turn, x.last_collector, x.dealt),
                memo={}, budget=10**6, horizon=leaf, me=me, opponents=round_policy)
            assert share == pytest.approx(ref[me][1], abs=1e-12)


def _pairs(s, x):
    """The fast solver's leaf or final value for a generic round ``x``, per seat."""
    if s.n == 2:
        v = (final_outcome(x.piles, 0, -1, False)[0][1] if x.is_over
             else s._leaf2(x.piles, x.table, x.last_collector))
        return [(v, v), (1.0 - v, 1.0 - v)]
    if x.is_over:
        return list(final_outcome(x.piles, 0, -1, False))
    return list(s._leafn(x.piles, x.table, x.last_collector))


# --- expert's fitted deal-end leaf ----------------------------------------------------


def _split(rng: random.Random, sizes: tuple[int, ...]) -> list[int]:
    """Disjoint random card sets of the given sizes."""
    deck = list(range(52))
    rng.shuffle(deck)
    out, at = [], 0
    for n in sizes:
        out.append(sum(1 << c for c in deck[at:at + n]))
        at += n
    return out


def test_fitted_leaf_is_seat_symmetric_and_keeps_leaf_2p_order_on_a_bare_table():
    """Seen from either seat the two values add up to 1 (it was fitted on both
    seatings of every deal end), and with nothing left on the table it ranks piles
    exactly as ``leaf_2p`` does."""
    rng = random.Random(4)
    for _ in range(60):
        p0, p1, t = _split(rng, (rng.randrange(20), rng.randrange(20), rng.randrange(6)))
        last, lead0, dealt = rng.randrange(2), rng.random() < 0.5, rng.choice((12, 28, 44))
        a = fanti_search.fitted_leaf(p0, p1, t, last, lead0, dealt)
        b = fanti_search.fitted_leaf(p1, p0, t, 1 - last, not lead0, dealt)
        assert 0.0 < a < 1.0
        assert a + b == pytest.approx(1.0, abs=1e-3)
    for _ in range(60):
        q = _split(rng, (8, 8, 8, 8))
        la, lb = leaf_2p(q[0], q[1]), leaf_2p(q[2], q[3])
        fa = fanti_search.fitted_leaf(q[0], q[1], 0, 0, True, 28)
        fb = fanti_search.fitted_leaf(q[2], q[3], 0, 0, True, 28)
        assert (la > lb) == (fa > fb) or la == lb


def test_fitted_leaf_counts_the_table_for_the_seat_that_leads_next():
    """Cards left on the table at the end of a deal are worth something to whoever
    leads the next deal: it plays first and may take them (FA-5). ``leaf_2p`` cannot
    tell; the fitted leaf can."""
    two_c, ten_d = fanti_search.TWO_C, fanti_search.TEN_D
    table = two_c | ten_d | (1 << 0) | (1 << 13)  # 2C, 10D and two aces
    p0, p1 = _split(random.Random(1), (10, 10))
    p0, p1 = p0 & ~table, p1 & ~table
    for last in (0, 1):
        assert (fanti_search.fitted_leaf(p0, p1, table, last, True, 36)
                > fanti_search.fitted_leaf(p0, p1, 0, last, True, 36))
        assert (fanti_search.fitted_leaf(p0, p1, table, last, False, 36)
                < fanti_search.fitted_leaf(p0, p1, 0, last, False, 36))


@pytest.mark.parametrize("moves", [3, 17, 45])
def test_fitted_search_is_minimax_on_the_fitted_leaf(moves):
    """``solve_moves(fitted=True)`` (``expert``): every root move gets the exact minimax
    value with the fitted leaf at the end of the deal; values move away from
    ``leaf_2p``'s somewhere before the last deal, and not at all in it (the true
    result decides)."""
    changed = False
    for seed in range(5):
        r = round_at("fanti", 2, {}, 70 + seed, moves)
        view = r.view(r.turn)
        hands = deal_hands(view, random.Random(seed))
        got = fanti_search.solve_moves(view, hands, list(view.legal), fitted=True)
        sizes = [h.bit_count() for h in hands]
        lead0 = (r.turn == 0) == (sizes[0] == sizes[1])
        dealt = 52 - view.deck_left

        def judge(p0, p1, t, last, lead0=lead0, dealt=dealt):
            return fanti_search.fitted_leaf(p0, p1, t, last, lead0, dealt)

        ref = Solver(2, r.turn, r._gtg, False, view.deck_left == 0, False,
                     view.deck_left, None, judge)
        for m, (_reward, share) in zip(view.legal, got, strict=True):
            h, t, p, nxt, lc, done = ref._play(hands, r.table, list(r.piles), r.turn,
                                               r.last_collector, m)
            v = ref._leaf2(p, t, lc) if done else _minimax(ref, h, t, p, nxt, lc)
            assert share == pytest.approx(v if r.turn == 0 else 1.0 - v, abs=1e-12)
        plain = fanti_search.solve_moves(view, hands, list(view.legal))
        if view.deck_left == 0:
            assert plain == got
        else:
            changed |= plain != got
    if moves < 40:
        assert changed


def test_expert_judges_deal_ends_by_the_fitted_leaf_and_hard_does_not():
    """The ``expert`` level and ``expert:N`` bots (Fanti) search with the fitted leaf;
    ``hard`` keeps ``leaf_2p``; ``expert:N`` is reproducible from its seed."""
    from parlour.bots import make_bot

    assert make_bot("expert", "fanti", 1).engine.now.fitted
    assert make_bot("expert:50", "fanti", 1).engine.now.fitted
    assert not make_bot("hard", "fanti", 1).engine.now.fitted
    r = round_at("fanti", 2, {}, 12, 9)
    while len(r.legal_moves()) < 2:
        r.apply(r.legal_moves()[0])
    view = r.view(r.turn)
    first = make_bot("expert:60", "fanti", 3).choose(view)
    assert first in view.legal
    assert make_bot("expert:60", "fanti", 3).choose(view) == first


@settings(max_examples=200, deadline=None)
@given(st.sets(st.integers(0, 51), max_size=14), st.booleans())
def test_the_heuristics_takes_by_rank_are_the_rules_collections(on_table, gtg):
    """The heuristic's memo of what each rank collects (FA-5) is exactly the rules'
    ``collections`` for every card of that rank; its risk order lists every rank that
    collects once, under its best collection's worth, most first."""
    from parlour.games.fanti.heuristic import CARD, takes_by_rank, value
    from parlour.games.fanti.rules import collections

    table = sum(1 << c for c in on_table)
    takes, order = takes_by_rank(table, gtg)
    for card in range(52):
        assert list(takes[card % 13]) == collections(card, table, gtg)
    worths = [w for w, _ in order]
    assert worths == sorted(set(worths), reverse=True)
    listed = {r: w for w, ranks in order for r in ranks}
    assert listed == {r: max(value(t) for t in ts) + CARD for r, ts in enumerate(takes) if ts}


@settings(max_examples=300, deadline=None)
@given(st.sets(st.integers(0, 51), max_size=12), st.sets(st.integers(0, 51), max_size=30),
       st.integers(0, 6), st.booleans())
def test_the_heuristics_gift_risk_weighs_ranks_best_first_to_the_last_bit(on_table, out,
                                                                          hand, gtg):
    """The heuristic's gift risk from its memoised rank groups equals, bit for bit, the
    plain sum: for each rank the next player may hold, its best collection, weighed
    from the most valuable down (more cards out first among equals)."""
    from parlour.games.fanti.heuristic import CARD, RANK_MASKS, gift_risk, p_holds, value
    from parlour.games.fanti.rules import collections

    table = sum(1 << c for c in on_table)
    out_mask = sum(1 << c for c in out) & ~table
    options = []
    for r in range(13):
        k = (out_mask & RANK_MASKS[r]).bit_count()
        takes = collections(r, table, gtg)
        if k and takes:
            options.append((max(value(t) for t in takes) + CARD, k))
    options.sort(reverse=True)
    want, none_yet = 0.0, 1.0
    for best, k in options:
        p = p_holds(k, out_mask.bit_count(), hand)
        want += none_yet * p * best
        none_yet *= 1.0 - p
    if hand <= 0 or not table:
        want = 0.0
    assert gift_risk(table, out_mask, hand, gtg) == want
