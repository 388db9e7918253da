"""Fan Tan rounds stepping together: one move per round per call, chosen by the caller.

The playout kernel (:mod:`parlour.games.fantan.kernel`) plays whole games with the
stream's choices; this is the same rules code (its helpers are shared) with the state
kept in arrays between calls, for callers that choose the moves themselves: arena
bots, RL policies, search. Actions are the research environments' Fan Tan ids: the
card played (0..51) or 52 for a pass.
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
    round_key,
    shuffle,
)
from parlour.batch.stream import M64, MOVE_BASE
from parlour.game import PASS
from parlour.games.fantan.kernel import (
    BLOCKED,
    OPEN,
    SEVENS_U,
    UNLOCKS_U,
    deal,
    legal_options,
    pass_turn,
    play_card,
    round_score,
    withhold,
)
from parlour.games.fantan.rules import FANTAN


@njit(cache=True)
def _reset(seed, game0, rnd, n, any_seven, hands, table, playable, turn, winner, dealer,
           nmoves, passes, fines, paid5, streak):
    deck = np.empty(52, np.int64)
    for b in range(table.shape[0]):
        gkey = game_key(seed, game0 + b)
        d = (bounded(draw(gkey, 0), n) + rnd) % n
        dealer[b] = d
        shuffle(round_key(gkey, rnd), deck)
        turn[b] = deal(deck, hands[b], n, d, any_seven)
        table[b] = U0
        playable[b] = SEVENS_U
        winner[b] = OPEN
        nmoves[b] = 0
        streak[b] = 0
        for s in range(n):
            passes[b, s] = 0
            fines[b, s] = 0
            paid5[b, s] = 0


@njit(cache=True)
def _legal_mask(any_seven, strict, hands, table, playable, turn, winner, out):
    for b in range(table.shape[0]):
        for a in range(53):
            out[b, a] = False
        if winner[b] != OPEN:
            continue
        legal, may_pass = legal_options(hands[b, turn[b]], table[b], playable[b], any_seven, strict)
        while legal != U0:
            c = kth_card(legal, 0)
            legal &= legal - np.uint64(1)
            out[b, c] = True
        out[b, PASS] = may_pass


@njit(cache=True)
def _first_illegal(any_seven, strict, moves, hands, table, playable, turn, winner):
    for b in range(table.shape[0]):
        if winner[b] != OPEN:
            continue
        legal, may_pass = legal_options(hands[b, turn[b]], table[b], playable[b], any_seven, strict)
        mv = moves[b]
        if mv == PASS:
            if not may_pass:
                return b
        elif mv < 0 or mv > PASS or legal & bit(mv) == U0:
            return b
    return -1


@njit(cache=True)
def _step(n, any_seven, strict, chips, unlock, moves, hands, table, playable, turn, winner,
          nmoves, passes, fines, paid5, streak):
    for b in range(table.shape[0]):
        if winner[b] != OPEN:
            continue
        seat = turn[b]
        mv = moves[b]
        if mv == PASS:
            charge, streak[b], blocked = pass_turn(streak[b], n)
            passes[b, seat] += charge
            legal, _ = legal_options(hands[b, seat], table[b], playable[b], any_seven, strict)
            if legal != U0:
                withhold(seat, legal, hands[b], n, chips, fines[b], paid5[b])
            if blocked:
                winner[b] = BLOCKED
        else:
            hands[b, seat], table[b], playable[b], streak[b], out = play_card(
                mv, unlock[mv], hands[b, seat], table[b], playable[b])
            if out:
                winner[b] = seat
        turn[b] = seat + 1 if seat + 1 < n else 0
        nmoves[b] += 1


@njit(cache=True)
def _stream_moves(seed, game0, rnd, any_seven, strict, hands, table, playable, turn, winner,
                  nmoves, out):
    for b in range(table.shape[0]):
        if winner[b] != OPEN:
            out[b] = PASS
            continue
        legal, may_pass = legal_options(hands[b, turn[b]], table[b], playable[b], any_seven, strict)
        cnt = count(legal)
        n_legal = cnt + (1 if may_pass else 0)
        k = 0
        if n_legal > 1:
            key = round_key(game_key(seed, game0 + b), rnd)
            k = bounded(draw(key, MOVE_BASE + nmoves[b]), n_legal)
        out[b] = PASS if k == cnt else kth_card(legal, k)


@njit(cache=True)
def _scores(n, chips, dealer, winner, hands, passes, fines, paid5, out):
    for b in range(out.shape[0]):
        if winner[b] != OPEN:
            round_score(out[b], n, dealer[b], winner[b], chips, hands[b], passes[b], fines[b],
                   paid5[b])


class FanTanBatch:
    """``batch`` Fan Tan rounds in arrays, each stepped by one move per :meth:`step`.

    ``reset(seed, first_game, rnd)`` deals round ``rnd`` of games ``first_game ..`` of
    the run ``seed`` (the same deals as :func:`parlour.batch.runner`). ``winner[b]`` is
    -1 while round ``b`` is in play, then the seat that went out, or -2 when it ended
    blocked (FT-11).
    """

    def __init__(self, players: int, rules: dict[str, Any] | None = None,
                 batch: int = 1024) -> None:
        self.rules = FANTAN.rules(players, rules)
        self.players = players
        self.batch = batch
        self._any_seven = self.rules["opening"] == "any-seven"
        self._strict = bool(self.rules["strict"])
        self._chips = self.rules["stakes"] == "chips"
        self._unlock = UNLOCKS_U[self.rules["ace"] == "high"]
        self.hands = np.zeros((batch, players), np.uint64)
        self.table = np.zeros(batch, np.uint64)
        self.playable = np.zeros(batch, np.uint64)
        self.turn = np.zeros(batch, np.int64)
        self.winner = np.full(batch, -1, np.int64)
        self.dealer = np.zeros(batch, np.int64)
        self.nmoves = np.zeros(batch, np.int64)
        self.passes = np.zeros((batch, players), np.int64)
        self.fines = np.zeros((batch, players), np.int64)
        self.paid5 = np.zeros((batch, players), np.int64)
        self.streak = np.zeros(batch, np.int64)  # passes in a row (FT-11)
        self._mask = np.zeros((batch, 53), np.bool_)
        self._seed = np.uint64(0)
        self._game0 = 0
        self._rnd = 0

    def reset(self, seed: int, first_game: int = 0, rnd: int = 0) -> FanTanBatch:
        """Deal a fresh round in every slot (any integer seed, numpy integers too)."""
        self._seed, self._game0, self._rnd = np.uint64(int(seed) & M64), int(first_game), int(rnd)
        _reset(self._seed, self._game0, self._rnd, self.players, self._any_seven, self.hands,
               self.table, self.playable, self.turn, self.winner, self.dealer, self.nmoves,
               self.passes, self.fines, self.paid5, self.streak)
        return self

    @property
    def done(self) -> np.ndarray:
        """(batch,) bool: rounds that are over."""
        return self.winner != OPEN

    @property
    def current_player(self) -> np.ndarray:
        """(batch,) seat to move, -1 where the round is over."""
        return np.where(self.done, -1, self.turn)

    def legal_mask(self) -> np.ndarray:
        """(batch, 53) bool: legal cards, and column 52 for a pass. All False when over.

        The array is reused by the next call: copy it to keep it.
        """
        _legal_mask(self._any_seven, self._strict, self.hands, self.table, self.playable,
                    self.turn, self.winner, self._mask)
        return self._mask

    def step(self, moves: np.ndarray) -> None:
        """Play ``moves[b]`` in every unfinished round (ignored where over).

        Raises ValueError, changing nothing, if any of them is illegal.
        """
        mv = np.ascontiguousarray(moves, dtype=np.int64)
        if mv.shape != (self.batch,):
            raise ValueError(f"need one move per round: shape ({self.batch},), not {mv.shape}")
        bad = _first_illegal(self._any_seven, self._strict, mv, self.hands, self.table,
                             self.playable, self.turn, self.winner)
        if bad >= 0:
            raise ValueError(f"round {bad}: move {int(mv[bad])} is illegal for seat "
                             f"{int(self.turn[bad])}")
        _step(self.players, self._any_seven, self._strict, self._chips, self._unlock, mv,
              self.hands, self.table, self.playable, self.turn, self.winner, self.nmoves,
              self.passes, self.fines, self.paid5, self.streak)

    def stream_moves(self) -> np.ndarray:
        """(batch,) the moves :mod:`parlour.batch.stream` picks now (PASS where over)."""
        out = np.empty(self.batch, np.int64)
        _stream_moves(self._seed, self._game0, self._rnd, self._any_seven, self._strict,
                      self.hands, self.table, self.playable, self.turn, self.winner,
                      self.nmoves, out)
        return out

    def scores(self) -> np.ndarray:
        """(batch, players) round scores (FT-7, FT-8); zeros where not over yet."""
        out = np.zeros((self.batch, self.players), np.int64)
        _scores(self.players, self._chips, self.dealer, self.winner, self.hands, self.passes,
                self.fines, self.paid5, out)
        return out
