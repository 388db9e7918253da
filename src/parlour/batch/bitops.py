"""Numba building blocks shared by the kernels: bit tricks and the random stream.

These mirror :mod:`parlour.batch.stream` exactly, in uint64 arithmetic (numba wraps
modulo 2**64 as C does). Every constant is a ``np.uint64``: numba turns
``uint64 op int64`` into float64, which would silently lose bits.
"""

from __future__ import annotations

import numpy as np
from numba import njit
from numba.core import types
from numba.cpython.unsafe.numbers import trailing_zeros
from numba.extending import intrinsic

from parlour.batch import stream

U0 = np.uint64(0)
U1 = np.uint64(1)
GAMMA = np.uint64(stream.GAMMA)
MIX1 = np.uint64(stream.MIX1)
MIX2 = np.uint64(stream.MIX2)
S27 = np.uint64(27)
S30 = np.uint64(30)
S31 = np.uint64(31)
S32 = np.uint64(32)


@intrinsic
def popcount(typingctx, x):
    """Number of set bits, as one ``popcnt`` instruction (LLVM ``ctpop``)."""
    if not isinstance(x, types.Integer):
        return None

    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])

    return x(x), codegen


@njit(inline="always", cache=True)
def count(m):
    """Number of cards in mask ``m``, as int64 (so arithmetic stays integer)."""
    return np.int64(popcount(m))


@njit(inline="always", cache=True)
def bit(c):
    """The mask of card ``c`` (any integer type) as uint64."""
    return U1 << np.uint64(c)


@njit(inline="always", cache=True)
def lowest(m):
    """The lowest card of a non-empty mask."""
    return np.int64(trailing_zeros(m))


@njit(inline="always", cache=True)
def kth_card(m, k):
    """The ``k``-th lowest card (from 0) of mask ``m``."""
    for _ in range(k):
        m &= m - U1
    return np.int64(trailing_zeros(m))


@njit(inline="always", cache=True)
def mix64(z):
    z = (z ^ (z >> S30)) * MIX1
    z = (z ^ (z >> S27)) * MIX2
    return z ^ (z >> S31)


@njit(inline="always", cache=True)
def draw(key, i):
    return mix64(key + np.uint64(i + 1) * GAMMA)


@njit(inline="always", cache=True)
def bounded(x, n):
    return np.int64(((x >> S32) * np.uint64(n)) >> S32)


@njit(inline="always", cache=True)
def game_key(seed, game):
    return mix64((mix64(seed + GAMMA) ^ np.uint64(game)) + GAMMA)


@njit(inline="always", cache=True)
def round_key(gkey, rnd):
    return mix64((gkey ^ np.uint64(rnd + 1)) + GAMMA)


@njit(inline="always", cache=True)
def shuffle(key, deck):
    """Fill ``deck`` (52 slots) with the round's order: forward Fisher-Yates."""
    for i in range(52):
        deck[i] = i
    for i in range(51):
        j = i + bounded(draw(key, i), 52 - i)
        t = deck[i]
        deck[i] = deck[j]
        deck[j] = t
