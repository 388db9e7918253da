"""The Fanti compiled kernel: the rules as numba functions on uint64 masks, and whole games.

The one compiled copy of :class:`parlour.games.fanti.rules.FantiRound` (FA-3 .. FA-9) (the
deal, the collections, the score), held to it by the differential tests; whole games
follow the choices of :mod:`parlour.batch.stream`, and :data:`BATCH` is the game's
batch-engine part (:class:`parlour.batch.engine.BatchKernel`). The legal moves are never listed: per hand card the
kernel *counts* its collections (a subset-sum count table over the valued table
cards, one per turn), picks the move number the stream asks for, and then builds only
that one collection, the k-th smallest take mask, by walking the count table from the
highest card down (every set without the highest card is a smaller mask than every set
with it). The order is the step engine's: card ascending, then take mask ascending.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from parlour.batch.bitops import (
    U0,
    bit,
    bounded,
    count,
    draw,
    game_key,
    kth_card,
    lowest,
    round_key,
    shuffle,
)
from parlour.batch.engine import BatchKernel, Chunk
from parlour.batch.stream import MOVE_BASE
from parlour.cards import ACE, JACK, KING, QUEEN
from parlour.games.fanti.rules import (
    ACES,
    HAND_SIZE,
    JACKS,
    KINGS,
    LEAVES,
    QUEENS,
    TABLE_START,
    TEN_OF_DIAMONDS,
    TWO_OF_CLUBS,
    VALUED,
)

KINGS_U, QUEENS_U, JACKS_U, ACES_U = (np.uint64(m) for m in (KINGS, QUEENS, JACKS, ACES))
VALUED_U = np.uint64(VALUED)
LEAVES_U = np.uint64(LEAVES)
MAX_TARGET = 10  # an Ace needs 10 from the table; a 2 needs 9; a 10 needs 1


@njit(inline="always", cache=True)
def count_table(valued, cards, cnt):
    """Fill ``cnt[i, t]``: subsets of the ``i`` lowest cards of ``valued`` summing to ``t``.

    Also lists those cards in ``cards``; returns how many there are.
    """
    for t in range(MAX_TARGET + 1):
        cnt[0, t] = 0
    cnt[0, 0] = 1
    m = 0
    v_mask = valued
    while v_mask != U0:
        c = lowest(v_mask)
        v_mask &= v_mask - np.uint64(1)
        v = c % 13 + 1
        cards[m] = c
        for t in range(MAX_TARGET + 1):
            cnt[m + 1, t] = cnt[m, t] + (cnt[m, t - v] if t >= v else 0)
        m += 1
    return m


@njit(inline="always", cache=True)
def kth_sum_set(cards, cnt, m, target, k):
    """The ``k``-th smallest mask among subsets of ``cards[:m]`` with values summing to ``target``."""
    take = U0
    t = target
    i = m
    while t > 0:
        i -= 1
        without = cnt[i, t]
        if k >= without:
            k -= without
            take |= bit(cards[i])
            t -= cards[i] % 13 + 1
    return take


@njit(inline="always", cache=True)
def sweep(table, gtg):
    """What a Guardian collects (FA-5)."""
    swept = table & ~(KINGS_U | QUEENS_U)
    if not gtg:
        swept &= ~JACKS_U
    return swept


@njit(inline="always", cache=True)
def ways(c, table, gtg, cnt, m):
    """How many legal moves card ``c`` has: its collections, or 1 (the discard)."""
    rank = c % 13
    if rank == JACK:
        return 1
    if rank == KING:
        w = count(table & KINGS_U)
    elif rank == QUEEN:
        w = count(table & QUEENS_U)
    elif rank == ACE:
        w = cnt[m, MAX_TARGET] + count(table & ACES_U)
    else:
        w = cnt[m, 10 - rank]
    return w if w > 0 else 1


@njit(inline="always", cache=True)
def kth_take(c, k, table, gtg, cards, cnt, m):
    """The take mask of the ``k``-th legal move of card ``c`` (0: a discard)."""
    rank = c % 13
    if rank == JACK:
        return sweep(table, gtg)
    if rank in (KING, QUEEN):
        same = table & (KINGS_U if rank == KING else QUEENS_U)
        return U0 if same == U0 else bit(kth_card(same, k))
    if rank != ACE:
        target = 10 - rank
        return U0 if cnt[m, target] == 0 else kth_sum_set(cards, cnt, m, target, k)
    # An Ace: sets making 10 and single Aces, merged in mask order. A single Ace ``a``
    # comes right after the sets made only of cards below it (cnt[i, 10], i = its index).
    aces = table & ACES_U
    j = 0
    while aces != U0:
        a = lowest(aces)
        aces &= aces - np.uint64(1)
        i = 0
        while i < m and cards[i] < a:
            i += 1
        pos = cnt[i, MAX_TARGET] + j
        if k == pos:
            return bit(a)
        if k < pos:
            break
        j += 1
    if cnt[m, MAX_TARGET] == 0:
        return U0
    return kth_sum_set(cards, cnt, m, MAX_TARGET, k - j)


@njit(inline="always", cache=True)
def legal_count(hand, table, gtg, cnt, nv):
    """How many legal moves ``hand`` has (``cnt``/``nv`` from :func:`count_table`)."""
    n_legal = 0
    h = hand
    while h != U0:
        c = lowest(h)
        h &= h - np.uint64(1)
        n_legal += ways(c, table, gtg, cnt, nv)
    return n_legal


@njit(inline="always", cache=True)
def kth_move(hand, k, table, gtg, cards, cnt, nv):
    """The ``k``-th legal move of ``hand`` in the engine's order, as (card, take mask)."""
    h = hand
    c = lowest(h)
    while True:  # find the card of move k, and k among that card's moves
        c = lowest(h)
        h &= h - np.uint64(1)
        w = ways(c, table, gtg, cnt, nv)
        if k < w:
            break
        k -= w
    return c, kth_take(c, k, table, gtg, cards, cnt, nv)


@njit(inline="always", cache=True)
def deal(deck, dealt, hands, n, dealer):
    """FA-3: one card at a time from the seat after the dealer until each has 4."""
    s = dealer + 1 if dealer + 1 < n else 0
    for i in range(HAND_SIZE * n):
        hands[s] |= bit(deck[dealt + i])
        s = s + 1 if s + 1 < n else 0
    return dealt + HAND_SIZE * n


# The transition (FA-3 .. FA-8), written once here and called by every compiled
# consumer: this batch loop and the vector environment (:mod:`.vector`); the heuristic
# (:mod:`.heuristic_kernel`) looks ahead with :func:`table_after`. A round's state is two
# arrays the consumer owns: ``masks`` (uint64) holds the hands (0 .. n-1), the piles
# (n .. 2n-1) and the table (2n); ``ints`` (int64) the fields below. The steps mutate
# them in place and return scalars only: inlined into a loop, numba then keeps no
# reference counts on them (tests/games/fanti/test_fanti_kernel_step.py reads the IR).
TURN, LAST, DEALT, DEALER = range(4)
STATE_INTS = 4
"""How many of ``ints`` the steps use; a consumer keeps its own fields after them."""


@njit(inline="always", cache=True)
def start_round(deck, masks, ints, n, dealer):
    """FA-3, FA-4: four cards face up on the table, four to each seat from the seat
    after ``dealer``, who leads; nobody has collected yet."""
    table = U0
    for i in range(TABLE_START):
        table |= bit(deck[i])
    for s in range(2 * n):
        masks[s] = U0
    masks[2 * n] = table
    ints[DEALER] = dealer
    ints[DEALT] = deal(deck, TABLE_START, masks, n, dealer)
    ints[TURN] = dealer + 1 if dealer + 1 < n else 0
    ints[LAST] = -1


@njit(inline="always", cache=True)
def table_after(table, c, take):
    """FA-5, FA-6: the table once card ``c`` has collected ``take`` (or, collecting
    nothing, is left there)."""
    return table ^ take if take != U0 else table | bit(c)


@njit(inline="always", cache=True)
def play(deck, masks, ints, n, c, take):
    """The seat to move plays card ``c`` collecting ``take`` (FA-5 .. FA-7: the card and
    its collection to its pile, or the card to the table); the turn passes on, and
    four more cards each are dealt when the hands are empty (FA-3). Returns whether
    the round is played out (then call :func:`end_round`)."""
    seat = ints[TURN]
    masks[seat] ^= bit(c)
    masks[2 * n] = table_after(masks[2 * n], c, take)
    if take != U0:  # FA-7
        masks[n + seat] |= take | bit(c)
        ints[LAST] = seat
    turn = seat + 1 if seat + 1 < n else 0
    ints[TURN] = turn
    if masks[turn] == U0 and ints[DEALT] < deck.shape[0]:
        ints[DEALT] = deal(deck, ints[DEALT], masks, n, ints[DEALER])
    # every array read once more at the one exit: numba then drops its reference counts
    return (masks[turn] == U0) & (ints[DEALT] == deck.shape[0])


@njit(inline="always", cache=True)
def end_round(masks, ints, n):
    """FA-8: the cards left on the table go to the last collector (they stay if nobody
    collected). Returns the cards that moved to a pile."""
    last = ints[LAST]
    got = masks[2 * n] if last >= 0 else U0
    masks[n + max(last, 0)] |= got  # no branch: numba keeps no reference counts
    masks[2 * n] ^= got
    return got


@njit(cache=True)
def fanti_games(seed, game0, n, rounds, gtg, shared_ties,
                first, scores, nmoves, rec_deck, rec_seat, rec_move, rec_take):
    """Play games ``game0 .. game0 + len(first) - 1`` of the run seeded ``seed``.

    Outputs as :func:`parlour.games.fantan.kernel.fantan_games`; a Fanti round always
    has 48 moves, recorded (when ``rec_move`` is not empty) as card, take mask and seat.
    """
    record = rec_move.shape[0] > 0
    deck = np.empty(52, np.int64)
    masks = np.zeros(2 * n + 1, np.uint64)
    ints = np.zeros(STATE_INTS, np.int64)
    cards = np.zeros(52, np.int64)
    cnt = np.zeros((53, MAX_TARGET + 1), np.int64)
    for b in range(first.shape[0]):
        gkey = game_key(seed, game0 + b)
        dealer = bounded(draw(gkey, 0), n)
        first[b] = dealer
        for r in range(rounds):
            rkey = round_key(gkey, r)
            shuffle(rkey, deck)
            if record:
                for i in range(52):
                    rec_deck[b, r, i] = deck[i]
            start_round(deck, masks, ints, n, dealer)
            m = 0
            while True:
                seat = ints[TURN]
                hand = masks[seat]
                table = masks[2 * n]
                nv = count_table(table & VALUED_U, cards, cnt)
                n_legal = legal_count(hand, table, gtg, cnt, nv)
                k = 0 if n_legal == 1 else bounded(draw(rkey, MOVE_BASE + m), n_legal)
                c, take = kth_move(hand, k, table, gtg, cards, cnt, nv)
                if record:
                    rec_seat[b, r, m] = seat
                    rec_move[b, r, m] = c
                    rec_take[b, r, m] = take
                m += 1
                if play(deck, masks, ints, n, c, take):
                    end_round(masks, ints, n)
                    break
            nmoves[b, r] = m
            round_score(scores[b, r], n, masks[n:2 * n], shared_ties)
            dealer = dealer + 1 if dealer + 1 < n else 0


@njit(inline="always", cache=True)
def round_score(out, n, piles, shared_ties):
    """FA-9, as :func:`parlour.games.fanti.rules.score_piles`."""
    for s in range(n):
        out[s] = 0
    for which in range(2):
        best = -1
        leaders = 0
        for s in range(n):
            v = count(piles[s]) if which == 0 else count(piles[s] & LEAVES_U)
            if v > best:
                best = v
                leaders = 1
            elif v == best:
                leaders += 1
        if leaders == 1 or shared_ties:
            bonus = 2 if which == 0 else 1
            for s in range(n):
                v = count(piles[s]) if which == 0 else count(piles[s] & LEAVES_U)
                if v == best:
                    out[s] += bonus
    for s in range(n):
        if piles[s] & bit(TWO_OF_CLUBS):
            out[s] += 1
        if piles[s] & bit(TEN_OF_DIAMONDS):
            out[s] += 1


@njit(cache=True)
def legal_moves(hand, table, gtg, out_card, out_take):
    """List the legal moves of ``hand`` on ``table`` in the step engine's order.

    Writes cards to ``out_card`` and take masks to ``out_take`` (as many as fit) and
    returns how many moves there are. For tests and for callers that need the list,
    such as a policy over legal moves; the playout kernel never builds it.
    """
    cards = np.zeros(52, np.int64)
    cnt = np.zeros((53, MAX_TARGET + 1), np.int64)
    nv = count_table(table & VALUED_U, cards, cnt)
    n = 0
    h = hand
    while h != U0:
        c = lowest(h)
        h &= h - np.uint64(1)
        for k in range(ways(c, table, gtg, cnt, nv)):
            if n < out_card.shape[0]:
                out_card[n] = c
                out_take[n] = kth_take(c, k, table, gtg, cards, cnt, nv)
            n += 1
    return n


ROUND_MOVES = 48
"""Every Fanti round has 48 moves: 48 cards are dealt to the hands and each is played."""


class FantiKernel(BatchKernel):
    """Fanti's part of the batch engine: moves carry take masks."""

    takes = True

    def moves_cap(self, players: int) -> int:
        return ROUND_MOVES

    def run(self, seed: np.uint64, game0: int, players: int, rounds: int,
            rules: dict[str, Any], out: Chunk, deck: np.ndarray, seat: np.ndarray,
            move: np.ndarray, take: np.ndarray) -> None:
        fanti_games(seed, game0, players, rounds, bool(rules["guardian_takes_guardians"]),
                    rules["ties"] == "shared", out.first, out.scores, out.nmoves, deck, seat,
                    move, take)


BATCH = FantiKernel()
