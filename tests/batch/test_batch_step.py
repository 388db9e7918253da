"""Fan Tan's move transition, written once in :mod:`parlour.games.fantan.kernel`
(``play_card``, ``pass_turn`` with ``pass_charge``, ``withhold``), costs the engines that
call it nothing once inlined.

Every compiled engine moves by these (the batch loop, the lock-step batch, the vector
environment, the search kernels), so their cost is the engines'. numba increfs an array
handed to an inlined function and decrefs it after its last use; unless that last use is
in a block every path goes through, the pair stays, and every move pays two atomic
operations per array. The card and pass helpers take and return scalars for that reason;
the loops below call them the way the engines do, and may refcount nothing but their
own array arguments (once at entry, once at exit). The differential tests of
``tests/batch`` hold what the transition does; this holds what it costs.
"""

from __future__ import annotations

import re

import numpy as np
from numba import njit

from parlour.game import PASS
from parlour.games.fantan.kernel import (
    BLOCKED,
    OPEN,
    SEVENS_U,
    UNLOCKS_U,
    pass_turn,
    play_card,
    withhold,
)
from parlour.games.fantan.search_kernel import _mine


def _engine_loop(moves, legal, hands, n, chips, unlock, passes, fines, paid5):
    """Every move of ``moves`` as the batch loop makes it (kernel.fantan_games)."""
    table = np.uint64(0)
    playable = SEVENS_U
    streak = 0
    winner = OPEN
    for i in range(moves.shape[0]):
        seat = i % n
        move = moves[i]
        if move == PASS:
            charge, streak, blocked = pass_turn(streak, n)
            passes[seat] += charge
            if legal != np.uint64(0):
                withhold(seat, legal, hands, n, chips, fines, paid5)
            if blocked:
                winner = BLOCKED
        else:
            hand, table, playable, streak, out = play_card(move, unlock[move], hands[seat],
                                                           table, playable)
            hands[seat] = hand
            if out:
                winner = seat
    return table ^ playable, streak + winner


def _search_loop(moves, legal, hands, n, chips, unlock, passes, fines, paid5):
    """Every move of ``moves`` as the search kernels' own move (search_kernel._mine)."""
    table = np.uint64(0)
    playable = SEVENS_U
    streak = 0
    w = -1
    for i in range(moves.shape[0]):
        table, playable, w, streak = _mine(hands, passes, fines, paid5, n, moves[i], i % n,
                                           table, playable, unlock, False, False, chips,
                                           streak)
    return table ^ playable, streak + w + int(legal)


def _refcounts(fn, *args) -> int:
    compiled = njit(fn)  # a fresh dispatcher: numba's cache keeps no IR to inspect
    compiled(*args)
    ir = compiled.inspect_llvm(compiled.signatures[0])
    body = ir[:ir.index("define", ir.index("define") + 1)]  # the function, not its wrappers
    return len(re.findall(r"call void @NRT_(?:incref|decref)", body))


def _args():
    n = 4
    hands = np.array([1 << c for c in (6, 19, 32, 45)], np.uint64)
    return (np.array([PASS, 6, PASS, 19], np.int64), np.uint64(1 << 6), hands, n, True,
            UNLOCKS_U[False], np.zeros(n, np.int64), np.zeros(n, np.int64),
            np.zeros(n, np.int64))


def test_the_engines_moves_add_no_reference_counting_to_their_loops():
    args = _args()
    arrays = sum(isinstance(a, np.ndarray) for a in args)
    # one incref at entry and one decref at exit per array argument, and nothing else
    assert _refcounts(_engine_loop, *args) == 2 * arrays


def test_the_search_kernels_move_adds_no_reference_counting_to_their_loops():
    args = _args()
    arrays = sum(isinstance(a, np.ndarray) for a in args)
    assert _refcounts(_search_loop, *args) == 2 * arrays
