"""FT-11: a round nobody will finish ends blocked after two circles of passes.

Under ``strict: false`` a pass is always legal, so without FT-11 a round could go on
for ever. The engine is the reference; the compiled copies (the batch kernel, the
lock-step batch) are held to it here on rounds that reach the block.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from deal_helpers import worded
from parlour import record
from parlour.batch import simulate, stream, stream_match
from parlour.game import PASS, IllegalMove
from parlour.games.fantan.lockstep import FanTanBatch
from parlour.games.fantan.rules import FANTAN, block_after, max_round_moves
from parlour.match import Match


def _round(players: int, **given):
    rules = FANTAN.rules(players, {"strict": False, **given})
    return FANTAN.new_round(rules, players, 0, stream.deck(7, 0, 0))


def _pass_round(r) -> list[int]:
    """Every seat passes whenever it may; returns how often each withheld (FT-8)."""
    withheld = [0] * r.players
    while not r.is_over:
        moves = r.legal_moves()
        if PASS in moves:
            withheld[r.current_player] += len(moves) > 1
            r.apply(PASS)
        else:
            r.apply(moves[0])
    return withheld


@pytest.mark.parametrize("players", range(3, 9))
def test_ft11_two_circles_of_passes_end_the_round_blocked(players):
    """FT-11: 2n passes in a row with no card played end the round with no winner;
    one pass fewer does not, and any card played starts the count again."""
    r = _round(players)
    r.apply(r.legal_moves()[0])  # 7D opens (FT-4): never a pass
    for _ in range(block_after(players) - 1):
        r.apply(PASS)
    assert not r.is_over and r.streak == 2 * players - 1
    r = _round(players)
    r.apply(r.legal_moves()[0])
    while r.streak < players - 1 or r.legal_moves() == [PASS]:
        r.apply(PASS)  # a circle of passes, then on to a seat that holds a card
    assert not r.is_over
    r.apply(r.legal_moves()[0])
    assert r.streak == 0
    for _ in range(block_after(players) - 1):
        r.apply(PASS)
    assert not r.is_over
    r.apply(PASS)
    assert r.is_over and r.blocked and r.winner == -1 and r.current_player == -1
    assert r.legal_moves() == []
    with pytest.raises(IllegalMove, match=r"FT-11"):
        r.apply(PASS)


@pytest.mark.parametrize("players", [3, 4, 8])
def test_ft11_blocked_points_everyone_scores_as_a_loser(players):
    """FT-11, points: passes + cards left + 3 a withheld pass, for every seat."""
    r = _round(players)
    withheld = _pass_round(r)
    assert r.blocked
    assert sum(withheld) >= 2  # someone always holds a playable card: a stall is chosen
    left = [h.bit_count() for h in r.hands]
    assert r.score() == [r.passes[s] + left[s] + 3 * withheld[s] for s in range(players)]
    detail = worded(r)
    assert [e["total"] for e in detail["seats"]] == r.score()
    assert detail["notes"][0]["rule"] == "FT-11"


@pytest.mark.parametrize("players", [3, 4, 5, 8])
def test_ft11_blocked_chips_pot_shared_by_those_who_held_nothing_back(players):
    """FT-11, chips: antes, passes and fines go in; nobody pays for cards; the pot is
    shared by the seats that never withheld, odd chips from the dealer's left; 0-sum."""
    r = _round(players, stakes="chips")
    withheld = _pass_round(r)
    assert r.blocked
    n = players
    dealt = [len(range((s - 1) % n, 52, n)) for s in range(n)]  # dealer 0 (FT-1)
    paid = [1 + (dealt[s] < max(dealt)) + r.passes[s] + 3 * withheld[s] for s in range(n)]
    sharers = [s for s in range(n) if not withheld[s]] or list(range(n))
    pot = sum(paid)
    share = {s: pot // len(sharers) for s in sharers}
    for s in [s for s in list(range(1, n)) + [0] if s in share][:pot % len(sharers)]:
        share[s] += 1
    sevens = [0] * n
    for wh in r.withholdings:
        for _seven, h6, h8 in wh.sevens:
            for h in (h6, h8):
                if h != wh.seat:
                    sevens[wh.seat] -= 5
                    sevens[h] += 5
    expect = [share.get(s, 0) - paid[s] + sevens[s] for s in range(n)]
    assert r.score() == expect and sum(expect) == 0
    detail = worded(r)
    assert [e["total"] for e in detail["seats"]] == expect


def test_ft11_strict_rounds_never_see_a_circle_of_passes():
    """With ``strict: true`` someone always holds a playable card (FT-5), so at most
    n - 1 passes come in a row: FT-11 can never apply."""
    res = simulate("fantan", 4, {"strict": True}, games=300, seed=3)
    assert (res.round_winner >= 0).all()
    rules = FANTAN.rules(5, {"strict": True, "opening": "any-seven"})
    for g in range(40):
        r = FANTAN.new_round(rules, 5, g % 5, stream.deck(4, g, 0))
        rng = np.random.default_rng(g)
        while not r.is_over:
            moves = r.legal_moves()
            r.apply(moves[rng.integers(len(moves))])
            assert r.streak < 5
        assert not r.blocked


@settings(max_examples=60, deadline=None)
@given(players=st.integers(3, 8), seed=st.integers(0, 2**32), bias=st.floats(0, 1))
def test_ft11_bounds_every_round_at_max_round_moves(players, seed, bias):
    """FT-11: whatever anybody plays, a round ends within 2n(53 - n) moves, with fewer
    than 2n passes before each card."""
    rules = FANTAN.rules(players, {"strict": False})
    r = FANTAN.new_round(rules, players, seed % players, stream.deck(seed, 0, 0))
    rng = np.random.default_rng(seed)
    while not r.is_over:
        moves = r.legal_moves()
        r.apply(PASS if PASS in moves and rng.random() < bias else
                moves[rng.integers(len(moves))])
        assert r.streak < block_after(players) or r.blocked
    assert len(r.history) <= max_round_moves(players)


def test_ft11_record_of_a_blocked_round_loads_and_moves_past_it_are_refused():
    """A record's check applies FT-11: the blocked round is finished and scored; one
    more move is refused, naming the ruling."""
    m = Match(FANTAN, FANTAN.rules(3, {"strict": False, "rounds": 1}), ["A", "B", "C"], 0)
    _pass_round(m.deal(stream.deck(7, 0, 0)))
    assert m.is_over and m.current is None
    data = record.dump(m)
    assert record.load(data) == m
    rd = data["rounds"][0]
    assert len(rd["moves"]) <= max_round_moves(3)
    rd["moves"].append({"seat": 0, "pass": True})
    with pytest.raises(record.RecordError, match=r"move after the round ended: it was "
                       r"blocked after 6 passes in a row .*\(FT-11\)"):
        record.load(data)
    # a one-round game blocked: nobody went out, so the best total wins (FT-9, FT-11)
    best = min(m.totals)
    assert m.winners == [s for s in range(3) if m.totals[s] == best]


@pytest.mark.parametrize("rules", [{"strict": False}, {"strict": False, "stakes": "chips",
                                                        "opening": "any-seven"}])
def test_ft11_lockstep_batch_blocks_as_the_engine_does(rules):
    """Differential: every seat passing whenever it may blocks every round; the
    lock-step batch ends them where the engine does, with the same scores."""
    players, batch, seed = 4, 10, 11
    full = FANTAN.rules(players, rules)
    fb = FanTanBatch(players, rules, batch).reset(seed, 0, 0)
    rounds = [FANTAN.new_round(full, players, int(fb.dealer[b]), stream.deck(seed, b, 0))
              for b in range(batch)]
    while not fb.done.all():
        mask = fb.legal_mask()
        moves = np.full(batch, PASS)
        for b, r in enumerate(rounds):
            assert fb.current_player[b] == r.current_player
            if not r.is_over:
                legal = r.legal_moves()
                assert np.flatnonzero(mask[b]).tolist() == legal
                moves[b] = PASS if PASS in legal else legal[0]
                r.apply(int(moves[b]))
        fb.step(moves)
    assert all(r.blocked for r in rounds) and (fb.winner == -2).all()
    assert fb.nmoves.tolist() == [len(r.history) for r in rounds]
    assert fb.scores().tolist() == [r.score() for r in rounds]


@pytest.mark.parametrize("players", [3, 6])
def test_ft11_batch_kernel_records_of_blocked_rounds_equal_the_engine(players):
    """Differential: the playout kernel's random games that reach the block (FT-11)
    give the very records the step engine gives."""
    rules = {"strict": False, "stakes": "chips", "rounds": 2}
    res = simulate("fantan", players, rules, games=40, seed=5, batch=7, records=True)
    assert res.records is not None
    blocked = sorted({int(g) for g in np.flatnonzero((res.round_winner == -2).any(axis=1))})
    assert blocked
    for g in blocked:
        assert res.records[g] == record.dump(stream_match("fantan", players, rules, 5, g))
    assert res.moves.max() <= max_round_moves(players)


def test_fanti_rounds_cannot_loop():
    """FA-3, FA-4: Fanti has no pass; every move plays one of the 48 dealt cards, so every
    round is exactly 48 moves (what its ``max_round_moves`` says)."""
    from parlour.games.fanti.rules import FANTI

    for players in (2, 3, 4):
        res = simulate("fanti", players, {"rounds": 2}, games=30, seed=players)
        assert (res.moves == 48).all()
        assert FANTI.max_round_moves(players) == 48


@pytest.mark.parametrize("stakes", ["points", "chips"])
@pytest.mark.parametrize("exact", [False, True])
def test_ft11_compiled_search_weighs_a_blocking_pass_as_the_engine_scores_it(stakes, exact):
    """The compiled search (:func:`search_kernel.evaluate`) carries the table's passes in
    a row: with 2n - 1 of them, my pass blocks the round there, worth exactly what the
    engine scores (FT-11); without them it would be weighed as a round going on."""
    from parlour.bots.models import outcomes
    from parlour.games.fantan import search as S
    from parlour.games.fantan import search_kernel as K
    from parlour.games.fantan.kernel import UNLOCKS_U

    players = 3
    r = _round(players, stakes=stakes)
    r.apply(r.legal_moves()[0])
    while r.streak < block_after(players) - 1 or r.legal_moves() == [PASS]:
        if r.streak == block_after(players) - 1:  # a seat that must pass would block it
            r.apply(r.legal_moves()[0])
        r.apply(PASS)
    assert not r.is_over and len(r.legal_moves()) > 1
    me = r.current_player
    su = S._setup(r.view(me), "full")
    assert su.streak == block_after(players) - 1
    worlds = np.array([r.hands], np.uint64)
    rules = r.rules

    def weigh(streak: int) -> float:
        out_r, out_w = np.zeros((1, 1)), np.zeros((1, 1))
        K.evaluate(worlds, np.array([0], np.int64), np.array([PASS], np.int64), players,
                   su.table, su.playable, me, su.passes, su.dealer,
                   np.array([7], np.uint64), np.zeros((1, players)), exact, 52, 10**6,
                   np.zeros(1, np.bool_), UNLOCKS_U[rules["ace"] == "high"],
                   rules["opening"] == "any-seven", False, stakes == "chips", su.pseat,
                   su.pplay, su.plater, su.af, *S._TABLES, out_r, out_w, streak)
        return float(out_r[0, 0])

    blocked = r.copy()
    blocked.apply(PASS)
    assert blocked.blocked
    assert weigh(su.streak) == pytest.approx(outcomes(blocked)[me][0], abs=1e-12)
    if stakes == "points":  # (with chips this deal's reward happens to be the same)
        assert weigh(0) != pytest.approx(outcomes(blocked)[me][0], abs=1e-12)
