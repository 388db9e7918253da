"""The Fan Tan compiled kernel: the rules as numba functions on uint64 masks, and whole games.

The one compiled copy of :class:`parlour.games.fantan.rules.FanTanRound` (FT-1 .. FT-8,
FT-11): the deal (:func:`deal`), the legal plays and the right to pass
(:func:`legal_options`), the move transition (:func:`play_card`; :func:`pass_turn` with
its :func:`pass_charge` and the blocked round, a round's winner then being
:data:`BLOCKED`), the withholding fines (:func:`withhold`) and the score
(:func:`round_score`). The whole games below, the lock-step batch (:mod:`.lockstep`),
the vector environment (:mod:`.vector`) and the compiled search (:mod:`.search_kernel`)
move by these and keep no copy; the differential tests (``tests/batch``,
``tests/games/fantan``, ``tests/envs``) hold them to the engine.
:func:`fantan_games` plays whole games with the choices of :mod:`parlour.batch.stream`;
:data:`BATCH` is the game's batch-engine part (:class:`parlour.batch.engine.BatchKernel`).
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
from parlour.game import PASS
from parlour.games.fantan.rules import (
    SEVEN_OF_DIAMONDS,
    SEVEN_OF_DIAMONDS_BIT,
    SEVENS,
    UNLOCKS,
    max_round_moves,
)

B7D = np.uint64(SEVEN_OF_DIAMONDS_BIT)
SEVENS_U = np.uint64(SEVENS)
UNLOCKS_U = {ace_high: np.array(UNLOCKS[ace_high], dtype=np.uint64) for ace_high in (False, True)}
"""The rules' :data:`~parlour.games.fantan.rules.UNLOCKS` as arrays, by ``ace_high``."""
OPEN = -1
"""A round's winner while it is in play."""
BLOCKED = -2
"""A round's winner when it ended blocked, with nobody out (FT-11)."""


# --- the move transition, written once ------------------------------------------------
# Small inlined functions on scalars: every compiled engine (the whole games below, the
# lock-step batch, the vector environment, the search kernels) keeps its own storage and
# stores what these return, so after inlining each runs the same code as a hand-written
# copy, with no array handed in (numba would incref it). A house rule about a move is a
# change here and in rules.py's FanTanRound._apply; the differential tests hold every
# engine to it.


@njit(inline="always", cache=True)
def pass_charge(streak):
    """FT-7: what a pass costs (1 penalty point, or 1 chip into the pot), made after
    ``streak`` passes in a row. Engines add it to the seat's ``passes``, which the score
    charges (:func:`round_score`)."""
    return 1


@njit(inline="always", cache=True)
def pass_turn(streak, n):
    """A pass (FT-5) made after ``streak`` passes in a row: returns ``(charge, streak,
    blocked)`` -- its :func:`pass_charge`, the passes in a row after it, and whether they
    end the round blocked (FT-11, :func:`parlour.games.fantan.rules.block_after`: two
    circles of passes). A pass that held a playable card is also fined (:func:`withhold`,
    FT-8)."""
    charge = pass_charge(streak)
    streak += 1
    return charge, streak, streak >= 2 * n


@njit(inline="always", cache=True)
def play_card(card, opens, hand, table, playable):
    """``card`` leaves ``hand`` for its row and ``opens`` (``unlock[card]``) becomes
    playable (FT-3); the passes in a row start again (FT-11). Returns ``(hand, table,
    playable, streak, out)``: ``out`` when that was the seat's last card (FT-6)."""
    cb = bit(card)
    hand ^= cb
    return hand, table | cb, (playable ^ cb) | opens, 0, hand == U0


@njit(inline="always", cache=True)
def holder(hands, n, c):
    """The seat holding card ``c`` (-1 if none)."""
    b = bit(c)
    for s in range(n):
        if hands[s] & b:
            return s
    return -1


@njit(inline="always", cache=True)
def deal(deck, hands, n, dealer, any_seven):
    """FT-1 and FT-4 as :func:`~parlour.games.fantan.rules.deal` and ``leader``: fills
    ``hands[:n]`` from the deck and returns the seat to lead."""
    for s in range(n):
        hands[s] = U0
    s = dealer + 1 if dealer + 1 < n else 0
    for i in range(52):
        hands[s] |= bit(deck[i])
        s = s + 1 if s + 1 < n else 0
    if any_seven:
        return dealer + 1 if dealer + 1 < n else 0
    return holder(hands, n, SEVEN_OF_DIAMONDS)


@njit(inline="always", cache=True)
def legal_options(hand, table, playable, any_seven, strict):
    """The playable cards of ``hand`` (FT-3, FT-4) and whether it may pass (FT-5)."""
    opening = table == U0 and not any_seven
    legal = hand & B7D if opening else hand & playable
    return legal, legal == U0 or not (opening or strict)


@njit(inline="always", cache=True)
def withhold(seat, legal, hands, n, chips, fines, paid5):
    """FT-8: a pass holding ``legal`` cards is fined (holding none, nothing happens); each
    withheld 7 pays its 6 and 8. No early exit: the arrays' last use is after the loop,
    so a caller may hand them in on every path at no reference-counting cost
    (``tests/batch/test_batch_step.py``)."""
    fines[seat] += 1 if legal != U0 else 0
    sev = legal & SEVENS_U if chips else U0
    while sev != U0:
        c7 = lowest(sev)
        sev &= sev - np.uint64(1)
        for nb in (c7 - 1, c7 + 1):
            h = holder(hands, n, nb)
            if h != seat:
                paid5[seat] -= 5
                paid5[h] += 5


@njit(cache=True)
def fantan_games(seed, game0, n, rounds, any_seven, strict, chips, unlock,
                 first, scores, nmoves, won, rec_deck, rec_seat, rec_move):
    """Play games ``game0 .. game0 + len(first) - 1`` of the run seeded ``seed``.

    Writes each game's first dealer to ``first[b]``, round scores to
    ``scores[b, r, :n]``, move counts to ``nmoves[b, r]`` and the seat that went out
    (FT-6) to ``won[b, r]``. When ``rec_move`` is not empty it also records each
    round's deck and its first ``rec_move.shape[2]`` moves (card, or 52 for a pass)
    with the seat that made them; a round longer than that keeps playing and its full
    length still goes to ``nmoves``.
    """
    record = rec_move.shape[0] > 0
    cap = rec_move.shape[2]
    deck = np.empty(52, np.int64)
    hands = np.zeros(8, np.uint64)
    passes = np.zeros(8, np.int64)
    fines = np.zeros(8, np.int64)
    paid5 = np.zeros(8, np.int64)  # net chips moved by withheld 7s (FT-8)
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
            for s in range(n):
                passes[s] = 0
                fines[s] = 0
                paid5[s] = 0
            turn = deal(deck, hands, n, dealer, any_seven)
            table = U0
            playable = SEVENS_U
            m = 0
            streak = 0
            winner = OPEN
            while winner == OPEN:
                hand = hands[turn]
                legal, may_pass = legal_options(hand, table, playable, any_seven, strict)
                cnt = count(legal)
                n_legal = cnt + (1 if may_pass else 0)
                k = 0 if n_legal == 1 else bounded(draw(rkey, MOVE_BASE + m), n_legal)
                seat = turn
                if k == cnt:  # pass (FT-5)
                    move = PASS
                    charge, streak, blocked = pass_turn(streak, n)
                    passes[seat] += charge
                    if legal != U0:
                        withhold(seat, legal, hands, n, chips, fines, paid5)
                    if blocked:
                        winner = BLOCKED
                else:
                    move = kth_card(legal, k)
                    hand, table, playable, streak, out = play_card(move, unlock[move], hand,
                                                                   table, playable)
                    hands[seat] = hand
                    if out:
                        winner = seat
                turn = seat + 1 if seat + 1 < n else 0
                if record and m < cap:
                    rec_seat[b, r, m] = seat
                    rec_move[b, r, m] = move
                m += 1
            nmoves[b, r] = m
            won[b, r] = winner
            round_score(scores[b, r], n, dealer, winner, chips, hands, passes, fines, paid5)
            dealer = dealer + 1 if dealer + 1 < n else 0


@njit(inline="always", cache=True)
def round_score(out, n, dealer, w, chips, hands, passes, fines, paid5):
    """FT-7 and FT-8, as :meth:`parlour.games.fantan.rules.FanTanRound.score`; a blocked
    round (``w`` :data:`BLOCKED`, FT-11) as its ``_blocked_score``."""
    if not chips:
        for s in range(n):
            out[s] = 0 if s == w else passes[s] + count(hands[s]) + 3 * fines[s]
        return
    if w < 0:
        _blocked_chips(out, n, dealer, passes, fines, paid5)
        return
    most = (52 + n - 1) // n
    pot = 0
    for s in range(n):
        out[s] = paid5[s]
    for s in range(n):
        off = (s - dealer - 1) % n
        dealt = (52 - off + n - 1) // n
        paid = 1 + (1 if dealt < most else 0) + passes[s] + 3 * fines[s]
        out[s] -= paid
        pot += paid
        if s != w:
            left = count(hands[s])
            out[s] -= left
            out[w] += left
    out[w] += pot


@njit(inline="always", cache=True)
def _blocked_chips(out, n, dealer, passes, fines, paid5):
    """FT-11, chips: antes, passes and fines into the pot, the 7s' payments, and the pot
    shared as :func:`parlour.games.fantan.rules.pot_shares` (no cards paid for)."""
    most = (52 + n - 1) // n
    pot = 0
    sharers = 0
    for s in range(n):
        off = (s - dealer - 1) % n
        dealt = (52 - off + n - 1) // n
        paid = 1 + (1 if dealt < most else 0) + passes[s] + 3 * fines[s]
        out[s] = paid5[s] - paid
        pot += paid
        if fines[s] == 0:
            sharers += 1
    everyone = sharers == 0
    if everyone:
        sharers = n
    each = pot // sharers
    odd = pot - each * sharers
    for i in range(n):  # from the seat after the dealer, clockwise
        s = (dealer + 1 + i) % n
        if everyone or fines[s] == 0:
            out[s] += each + (1 if odd > 0 else 0)
            odd -= 1


def moves_cap(players: int) -> int:
    """Moves recorded per Fan Tan round: every round fits (FT-11,
    :func:`parlour.games.fantan.rules.max_round_moves`)."""
    return max_round_moves(players)


class FanTanKernel(BatchKernel):
    """Fan Tan's part of the batch engine."""

    takes = False

    def moves_cap(self, players: int) -> int:
        return moves_cap(players)

    def run(self, seed: np.uint64, game0: int, players: int, rounds: int,
            rules: dict[str, Any], out: Chunk, deck: np.ndarray, seat: np.ndarray,
            move: np.ndarray, take: np.ndarray) -> None:
        fantan_games(seed, game0, players, rounds, rules["opening"] == "any-seven",
                     bool(rules["strict"]), rules["stakes"] == "chips",
                     UNLOCKS_U[rules["ace"] == "high"], out.first, out.scores, out.nmoves,
                     out.won, deck, seat, move)

    def winners(self, rules: dict[str, Any], totals: np.ndarray, won: np.ndarray,
                lower_wins: bool) -> np.ndarray:
        """FT-9: a game of one round is won by that round's winner, whatever the chips say
        (the totals decide when it ended blocked, FT-11)."""
        best = super().winners(rules, totals, won, lower_wins)
        if rules["rounds"] == 1:
            wins = np.arange(totals.shape[1])[None, :] == won[:, :1]
            return np.where(won[:, :1] >= 0, wins, best)
        return best


BATCH = FanTanKernel()
BATCH_API = ("parlour.games.fantan.lockstep",)
"""Modules whose public names :mod:`parlour.batch` offers (``FanTanBatch``)."""
