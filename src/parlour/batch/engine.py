"""Run one chunk of games through a kernel: rules to kernel arguments, buffers, outputs.

A chunk is ``count`` consecutive games ``game0 ..`` of a run; its buffers are sized by
the chunk alone, so memory per game is the same for any batch size.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from parlour.batch.stream import M64
from parlour.games.fantan.kernel import fantan_games
from parlour.games.fantan.rules import UNLOCKS
from parlour.games.fanti.kernel import fanti_games

FANTI_MOVES = 48
"""Every Fanti round has 48 moves: 48 cards are dealt to the hands and each is played."""

_UNLOCK = {ace_high: np.array(UNLOCKS[ace_high], dtype=np.uint64) for ace_high in (False, True)}
_EMPTY8 = np.zeros((0, 0, 0), np.uint8)
_EMPTY64 = np.zeros((0, 0, 0), np.uint64)


def fantan_cap(players: int) -> int:
    """Moves recorded per Fan Tan round before a game is replayed with a bigger buffer.

    With ``strict: true`` a round has at most 52 plays and fewer than ``players``
    passes between two plays (someone always holds a playable card), so ``52 * players``
    always fits; with ``strict: false`` a random round can, rarely, be longer.
    """
    return 52 * players


@dataclass
class Chunk:
    """What a kernel wrote for ``len(first)`` games; the ``rec_*`` arrays only when recording."""

    first: np.ndarray  # (B,) first dealer
    scores: np.ndarray  # (B, R, P) round scores
    nmoves: np.ndarray  # (B, R) moves per round
    won: np.ndarray  # (B, R) Fan Tan: the seat that went out (FT-6); Fanti: -1
    rec_deck: np.ndarray | None = None  # (B, R, 52) deck order
    rec_seat: np.ndarray | None = None  # (B, R, cap) seat of each move
    rec_move: np.ndarray | None = None  # (B, R, cap) card played, 52 = pass
    rec_take: np.ndarray | None = None  # (B, R, 48) Fanti take masks

    @property
    def nbytes(self) -> int:
        return sum(a.nbytes for a in (self.first, self.scores, self.nmoves, self.won, self.rec_deck,
                                      self.rec_seat, self.rec_move, self.rec_take)
                   if a is not None)


def alloc(game: str, count: int, players: int, rounds: int, record: bool,
          cap: int | None = None) -> Chunk:
    """Output buffers for ``count`` games."""
    ch = Chunk(np.zeros(count, np.int64), np.zeros((count, rounds, players), np.int32),
               np.zeros((count, rounds), np.int32), np.full((count, rounds), -1, np.int8))
    if record:
        cap = cap or (FANTI_MOVES if game == "fanti" else fantan_cap(players))
        ch.rec_deck = np.zeros((count, rounds, 52), np.uint8)
        ch.rec_seat = np.zeros((count, rounds, cap), np.uint8)
        ch.rec_move = np.zeros((count, rounds, cap), np.uint8)
        if game == "fanti":
            ch.rec_take = np.zeros((count, rounds, cap), np.uint64)
    return ch


def run(game: str, players: int, rules: dict[str, Any], seed: int, game0: int,
        out: Chunk) -> Chunk:
    """Play games ``game0 .. game0 + len(out.first) - 1`` into ``out`` (full rules given)."""
    s = np.uint64(seed & M64)
    rounds = out.scores.shape[1]
    rec = out.rec_move is not None
    deck = out.rec_deck if rec else _EMPTY8
    seat = out.rec_seat if rec else _EMPTY8
    move = out.rec_move if rec else _EMPTY8
    if game == "fantan":
        fantan_games(s, int(game0), int(players), int(rounds),
                     rules["opening"] == "any-seven", bool(rules["strict"]),
                     rules["stakes"] == "chips", _UNLOCK[rules["ace"] == "high"],
                     out.first, out.scores, out.nmoves, out.won, deck, seat, move)
    elif game == "fanti":
        take = out.rec_take if rec else _EMPTY64
        fanti_games(s, int(game0), int(players), int(rounds),
                    bool(rules["guardian_takes_guardians"]), rules["ties"] == "shared",
                    out.first, out.scores, out.nmoves, deck, seat, move, take)
    else:
        raise ValueError(f"no batch kernel for game {game!r}")
    return out
