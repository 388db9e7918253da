"""The one compiled Fanti transition (kernel.start_round / play / end_round) stays cheap to
call: inlined into a consumer's loop it leaves no reference counting behind (numba's
NRT incref/decref pairs on the state arrays cost the batch loop ~10% when the step had
several exits). Its rules are held to the engine by the differential tests
(tests/batch, tests/envs/test_env_vector.py); here only its shape and a whole round."""

from __future__ import annotations

import re

import numpy as np
from numba import njit

from parlour.batch.bitops import U0
from parlour.games.fanti import kernel
from parlour.games.fanti.rules import FantiRound, hand_moves


@njit
def _consumer(deck, masks, ints, n, cards, takes):
    """A consumer's loop: play ``cards``/``takes`` until the round ends (FA-8)."""
    got = U0
    for i in range(cards.shape[0]):
        if kernel.play(deck, masks, ints, n, cards[i], takes[i]):
            got |= kernel.end_round(masks, ints, n)
    return got


def _native_body(ir: str) -> str:
    """The LLVM IR of the compiled function itself (not its Python or C wrappers)."""
    for body in re.split(r"\ndefine ", ir):
        name = re.search(r"@\"?([\w.]+)", body.split("\n", 1)[0])
        if name and "_consumer" in name.group(1) and name.group(1).startswith("_ZN") \
                and "cpython" not in name.group(1):
            return body
    raise AssertionError("no compiled body found")


def test_the_step_inlined_in_a_loop_keeps_no_reference_counts() -> None:
    deck = np.arange(52, dtype=np.int64)
    masks = np.zeros(5, np.uint64)
    ints = np.zeros(kernel.STATE_INTS, np.int64)
    _consumer(deck, masks, ints, 2, np.zeros(1, np.int64), np.zeros(1, np.uint64))
    (ir,) = _consumer.inspect_llvm().values()
    body = _native_body(ir)
    assert "NRT_incref" not in body
    assert "NRT_decref" not in body


@njit
def _start(deck, masks, ints, n, dealer):
    kernel.start_round(deck, masks, ints, n, dealer)


def test_a_round_through_the_step_is_the_engines_round() -> None:
    """FA-3 .. FA-8 on one seeded deal: the same hands, table, piles and last
    collector as :class:`FantiRound` after every move, the leftovers to the last
    collector at the end."""
    rng = np.random.default_rng(7)
    for players in (2, 3, 4):
        order = [int(c) for c in rng.permutation(52)]
        dealer = players - 1
        r = FantiRound({"rounds": 1, "ties": "none", "guardian_takes_guardians": True,
                        "pack": "full"}, players, dealer, order)
        deck = np.array(order, np.int64)
        masks = np.zeros(2 * players + 1, np.uint64)
        ints = np.zeros(kernel.STATE_INTS, np.int64)
        _start(deck, masks, ints, players, dealer)
        while not r.is_over:
            assert int(ints[kernel.TURN]) == r.current_player
            assert [int(x) for x in masks[:players]] == r.hands
            assert int(masks[2 * players]) == r.table
            moves = hand_moves(r.hands[r.current_player], r.table)
            m = moves[int(rng.integers(len(moves)))]
            r.apply(m)
            got = _consumer(deck, masks, ints, players, np.array([m & 63], np.int64),
                            np.array([m >> 6], np.uint64))
            assert [int(x) for x in masks[players:2 * players]] == r.piles
            assert int(ints[kernel.LAST]) == r.last_collector
        assert int(got) == (r.leftovers() if r.last_collector >= 0 else 0)
        assert int(masks[2 * players]) == r.table
