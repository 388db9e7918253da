"""Run one chunk of games through a game's batch kernel: buffers in, results out.

A game joins the batch engine with a :class:`BatchKernel` as ``BATCH`` in its
``kernel`` part (:mod:`parlour.kit`). A chunk is ``count`` consecutive games
``game0 ..`` of a run; its buffers are sized by the chunk alone, so memory per game is
the same for any batch size.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from parlour.batch.stream import M64
from parlour.games import get_kit

_EMPTY8 = np.zeros((0, 0, 0), np.uint8)
_EMPTY64 = np.zeros((0, 0, 0), np.uint64)


@dataclass
class Chunk:
    """What a kernel wrote for ``len(first)`` games; the ``rec_*`` arrays only when recording."""

    first: np.ndarray  # (B,) first dealer
    scores: np.ndarray  # (B, R, P) round scores
    nmoves: np.ndarray  # (B, R) moves per round
    won: np.ndarray  # (B, R) the seat that won the round outright (Fan Tan FT-6), else -1 (-2: blocked, FT-11)
    rec_deck: np.ndarray | None = None  # (B, R, 52) deck order
    rec_seat: np.ndarray | None = None  # (B, R, cap) seat of each move
    rec_move: np.ndarray | None = None  # (B, R, cap) card played, 52 = pass
    rec_take: np.ndarray | None = None  # (B, R, cap) take masks (games whose moves collect)

    @property
    def nbytes(self) -> int:
        return sum(a.nbytes for a in (self.first, self.scores, self.nmoves, self.won, self.rec_deck,
                                      self.rec_seat, self.rec_move, self.rec_take)
                   if a is not None)


class BatchKernel:
    """One game's compiled random play, as the batch engine calls it."""

    takes: bool = False
    """Whether a move also carries a take mask (recorded in ``Chunk.rec_take``)."""

    def moves_cap(self, players: int) -> int:
        """Moves recorded per round; a longer round is replayed alone with a bigger buffer."""
        raise NotImplementedError

    def run(self, seed: np.uint64, game0: int, players: int, rounds: int,
            rules: dict[str, Any], out: Chunk, deck: np.ndarray, seat: np.ndarray,
            move: np.ndarray, take: np.ndarray) -> None:
        """Play games ``game0 ..`` into ``out``; the recording arrays are empty when off."""
        raise NotImplementedError

    def winners(self, rules: dict[str, Any], totals: np.ndarray, won: np.ndarray,
                lower_wins: bool) -> np.ndarray:
        """(games, players) bool: each game's winning seats (several on a tie): the best
        total, the lowest when ``lower_wins`` (:meth:`parlour.game.Game.lower_wins`)."""
        best = totals.min(axis=1) if lower_wins else totals.max(axis=1)
        return totals == best[:, None]


def kernel_for(game: str) -> BatchKernel:
    """The batch kernel of a game, or a ValueError naming the game that has none."""
    kernel: BatchKernel = get_kit(game).need("kernel", "BATCH", "the batch engine")
    return kernel


def alloc(game: str, count: int, players: int, rounds: int, record: bool,
          cap: int | None = None) -> Chunk:
    """Output buffers for ``count`` games."""
    kernel = kernel_for(game)
    ch = Chunk(np.zeros(count, np.int64), np.zeros((count, rounds, players), np.int32),
               np.zeros((count, rounds), np.int32), np.full((count, rounds), -1, np.int8))
    if record:
        cap = cap or kernel.moves_cap(players)
        ch.rec_deck = np.zeros((count, rounds, 52), np.uint8)
        ch.rec_seat = np.zeros((count, rounds, cap), np.uint8)
        ch.rec_move = np.zeros((count, rounds, cap), np.uint8)
        if kernel.takes:
            ch.rec_take = np.zeros((count, rounds, cap), np.uint64)
    return ch


def run(game: str, players: int, rules: dict[str, Any], seed: int, game0: int,
        out: Chunk) -> Chunk:
    """Play games ``game0 .. game0 + len(out.first) - 1`` into ``out`` (full rules given)."""
    rec = out.rec_move is not None
    if refusal := get_kit(game).game.options.compiled_refusal(rules):
        raise ValueError(f"the batch engine is compiled: {refusal}")
    kernel_for(game).run(
        np.uint64(int(seed) & M64), int(game0), int(players), int(out.scores.shape[1]), rules,
        out, out.rec_deck if rec else _EMPTY8, out.rec_seat if rec else _EMPTY8,
        out.rec_move if rec else _EMPTY8,
        out.rec_take if rec and out.rec_take is not None else _EMPTY64)
    return out
