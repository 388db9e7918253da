"""The ``heuristic`` bot's move, compiled: :func:`.heuristic.best_move` on the rules kernel.

The one compiled copy of :mod:`.heuristic` -- value of the cards, gift risk, the
Guardian's keep, follow-up, last collector (that module's docstring) -- with the same
floating-point operations in the same order, so the same move to the last bit. Two
users: the searches of ``hard`` and ``expert`` ask it what every other seat would play
in every world (:func:`.search.heuristic_choice`; at four players that was two thirds
of a decision in Python), and the vector environment plays its ``heuristic`` opponents
with it (:mod:`.vector`). The moves and collections come from the one compiled copy
of the rules (:mod:`.kernel`: :func:`.kernel.ways` / :func:`.kernel.kth_take`, the
engine's order). The Python module stays the reference; the differential tests
(tests/games/fanti/test_fanti_heuristic_kernel.py, tests/envs/test_env_vector.py)
hold this one to it on random positions and whole seeded games.
"""

from __future__ import annotations

from math import comb

import numpy as np
from numba import njit

from parlour.batch.bitops import U0, bit, count, lowest
from parlour.cards import FULL_DECK, JACK
from parlour.game import Move
from parlour.games.fanti.heuristic import (
    CARD,
    FOLLOW_UP,
    GUARDIAN_KEEP,
    LEAF,
    RANK_MASKS,
    SPECIAL,
    SPECIALS,
)
from parlour.games.fanti.kernel import (
    LEAVES_U,
    MAX_TARGET,
    VALUED_U,
    count_table,
    kth_take,
    table_after,
    ways,
)

SPECIALS_U = np.uint64(SPECIALS)
FULL_U = np.uint64(FULL_DECK)
RANKS_U = np.array(RANK_MASKS, np.uint64)
COMB = np.array([[comb(n, h) for h in range(53)] for n in range(53)], np.float64)
"""``comb(n, h)`` as floats: every one is below 2**53, so exact, and the quotient of
two of them rounds as Python's ``int / int`` does."""
NO_TAKE = -1.0
"""A rank's best collection value when it collects nothing."""


@njit(inline="always", cache=True)
def value(got):
    """:func:`.heuristic.value`."""
    return CARD * count(got) + LEAF * count(got & LEAVES_U) + SPECIAL * count(got & SPECIALS_U)


@njit(inline="always", cache=True)
def p_holds(k, unseen, hand):
    """:func:`.heuristic.p_holds`."""
    if k <= 0 or hand <= 0 or unseen <= 0:
        return 0.0
    if unseen - k < hand:
        return 1.0
    return 1.0 - COMB[unseen - k, hand] / COMB[unseen, hand]


@njit(inline="always", cache=True)
def best_collection(c, table, gtg, cards, cnt, nv, extra):
    """The most a card of ``c``'s rank collects from ``table`` (with ``extra`` counted
    in the value, as in ``value(t | extra)``); :data:`NO_TAKE` when it collects nothing."""
    best = NO_TAKE
    for k in range(ways(c, table, gtg, cnt, nv)):
        t = kth_take(c, k, table, gtg, cards, cnt, nv)
        if t != U0:
            v = value(t | extra)
            if v > best:
                best = v
    return best


@njit(cache=True)
def gift_risk(table, out, hand, gtg, cards, cnt, nv, best, ks):
    """:func:`.heuristic.gift_risk` (``cards``/``cnt``/``nv``: ``table``'s count table;
    ``best``, ``ks``: scratch of 13)."""
    if hand <= 0 or table == U0:
        return 0.0
    n_out = count(out)
    for r in range(13):
        b = best_collection(r, table, gtg, cards, cnt, nv, U0)
        best[r] = b + CARD if b != NO_TAKE else NO_TAKE
    risk, none_yet = 0.0, 1.0
    while True:  # the ranks grouped by their best collection, most first
        top = NO_TAKE
        for r in range(13):
            if best[r] > top:
                top = best[r]
        if top == NO_TAKE:
            return risk
        n = 0
        for r in range(13):
            if best[r] == top:
                best[r] = NO_TAKE
                k = count(out & RANKS_U[r])
                i = n  # insertion: the group's cards out, most first
                while i > 0 and ks[i - 1] < k:
                    ks[i] = ks[i - 1]
                    i -= 1
                ks[i] = k
                n += 1
        for i in range(n):
            k = ks[i]
            if k == 0:
                continue
            p = p_holds(k, n_out, hand)
            risk += none_yet * p * top
            none_yet *= 1.0 - p


@njit(cache=True)
def move_score(c, take, hand, table, out, next_hand, deck_left, gtg, cards, cnt, best, ks):
    """:func:`.heuristic.move_score` for the move of card ``c`` collecting ``take``."""
    gain = value(take | bit(c)) if take != U0 else 0.0
    after = table_after(table, c, take)  # the rules' own step (FA-5, FA-6)
    if c % 13 == JACK:
        gain -= GUARDIAN_KEEP
    nv = count_table(after & VALUED_U, cards, cnt)
    score = gain - gift_risk(after, out, next_hand, gtg, cards, cnt, nv, best, ks)
    follow = 0.0
    rest = hand & ~bit(c)
    while rest != U0:
        x = lowest(rest)
        rest &= rest - np.uint64(1)
        v = best_collection(x, after, gtg, cards, cnt, nv, bit(x))
        if v > follow:
            follow = v
    score += FOLLOW_UP * follow
    if take != U0 and deck_left == 0 and count(hand) <= 2:
        score += 0.5 * value(after)  # likely the last collection (FA-8)
    return score


@njit(cache=True)
def best_of(hand, table, out, next_hand, deck_left, gtg, cards, cnt, nv, only, chosen, below,
            cards2, cnt2, best, ks):
    """The heuristic's best move of ``hand`` (``out``: every card that may be in another
    hand; ``cards``/``cnt``/``nv``: ``table``'s count table; the rest scratch), as
    (card, take, number of moves considered). ``only`` >= 0 keeps the moves of that card
    whose collection holds exactly ``chosen`` among the table cards in ``below`` (the
    vector environment's half-chosen play); -1, 0, 0 keeps every legal move."""
    top_c, top_take, top_score = -1, U0, 0.0
    n = 0
    h = hand  # the moves in the engine's order, as vector.py's greedy bot walks them (a
    # numba generator shared by both would cost this hot loop a third more time)
    while h != U0:
        c = lowest(h)
        h &= h - np.uint64(1)
        if only >= 0 and c != only:
            continue
        for k in range(ways(c, table, gtg, cnt, nv)):
            take = kth_take(c, k, table, gtg, cards, cnt, nv)
            if take & below != chosen:
                continue
            s = move_score(c, take, hand, table, out, next_hand, deck_left, gtg,
                           cards2, cnt2, best, ks)
            if top_c < 0 or s > top_score:
                top_c, top_take, top_score = c, take, s
            n += 1
    return top_c, top_take, n


@njit(cache=True)
def best_move(hand, table, seen, next_hand, deck_left, gtg):
    """:func:`.heuristic.best_move` over every legal move of ``hand`` (``seen``: every
    card known not to be out). Returns the move's card, its take mask and how many
    legal moves there were."""
    hand = np.uint64(hand)
    table = np.uint64(table)
    cards = np.zeros(52, np.int64)
    cnt = np.zeros((53, MAX_TARGET + 1), np.int64)
    nv = count_table(table & VALUED_U, cards, cnt)
    return best_of(hand, table, FULL_U & ~np.uint64(seen), next_hand, deck_left, gtg, cards,
                   cnt, nv, -1, U0, U0, np.zeros(52, np.int64),
                   np.zeros((53, MAX_TARGET + 1), np.int64), np.zeros(13, np.float64),
                   np.zeros(13, np.int64))


def heuristic_move(hand: int, table: int, seen: int, next_hand: int, deck_left: int,
                   gtg: bool) -> tuple[Move, int]:
    """The heuristic's move for ``hand`` (``seen``: every card known not to be out,
    ``hand`` included), and how many legal moves ``hand`` had."""
    c, take, n = best_move(hand, table, seen, next_hand, deck_left, gtg)
    return int(c) | int(take) << 6, int(n)
