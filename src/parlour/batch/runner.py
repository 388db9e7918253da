"""``simulate``: many whole games of random play, in chunks of ``batch`` games."""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

import numpy as np

from parlour.batch import engine
from parlour.batch.outcome import winners_mask
from parlour.batch.records import chunk_record, game_record
from parlour.games import get_game


@dataclass
class BatchResult:
    """Per-game results of a batch run: game ``i`` here is game ``first_game + i`` of the run.

    ``scores[i, r, s]`` is seat ``s``'s score in round ``r``; ``moves[i, r]`` the number
    of moves (passes included) of that round; ``round_winner[i, r]`` the Fan Tan seat
    that went out (-2 when nobody did: the round ended blocked, FT-11; -1 in Fanti); ``first_dealer[i]`` the first dealer
    (round ``r`` is dealt by ``(first_dealer + r) % players``). ``records`` holds the
    ``parlour-record/1`` dicts when asked for.
    """

    game: str
    players: int
    rules: dict[str, Any]
    seed: int
    first_game: int
    first_dealer: np.ndarray
    scores: np.ndarray
    moves: np.ndarray
    round_winner: np.ndarray
    seconds: float
    records: list[dict[str, Any]] | None = None

    @property
    def games(self) -> int:
        return len(self.first_dealer)

    @property
    def totals(self) -> np.ndarray:
        """(games, players) game totals."""
        return self.scores.sum(axis=1, dtype=np.int64)

    @property
    def winners(self) -> np.ndarray:
        """(games, players) bool: the seats with the best total (several on a tie)."""
        return winners_mask(self.game, self.rules, self.totals, self.round_winner)

    def winner_lists(self) -> list[list[int]]:
        """Each game's winning seats, ascending, as a record's ``winners``."""
        return [np.flatnonzero(w).tolist() for w in self.winners]

    def summary(self) -> dict[str, Any]:
        """Means per seat and speed, ready for JSON."""
        rounds = self.scores.shape[0] * self.scores.shape[1]
        return {
            "game": self.game,
            "players": self.players,
            "rules": self.rules,
            "seed": self.seed,
            "games": self.games,
            "rounds": rounds,
            "mean_total": self.totals.mean(axis=0).round(4).tolist(),
            "win_share": self.winners.mean(axis=0).round(4).tolist(),
            "mean_moves_per_round": round(float(self.moves.mean()), 3),
            "seconds": round(self.seconds, 4),
            "rounds_per_s": round(rounds / self.seconds) if self.seconds > 0 else None,
        }


def simulate(game_name: str, players: int, rules: dict[str, Any] | None = None,
             games: int = 1000, seed: int = 0, batch: int = 4096, records: bool = False,
             first_game: int = 0) -> BatchResult:
    """Play ``games`` whole random games (games ``first_game ..`` of the run ``seed``).

    Every game is a function of ``(seed, game index)`` alone (:mod:`parlour.batch.stream`),
    so ``batch`` changes speed and memory, never results. With ``records`` the result
    also carries each game's record, identical to what the step engine writes for the
    same game (:func:`parlour.batch.agent.stream_match`). Numbers may be numpy integers.
    """
    g = get_game(game_name)
    full = g.rules(players, rules)
    seed, games, batch, first_game = int(seed), int(games), int(batch), int(first_game)
    if games < 0 or batch < 1:
        raise ValueError("games must be >= 0 and batch >= 1")
    name = g.name
    first = np.zeros(games, np.int64)
    scores = np.zeros((games, full["rounds"], players), np.int32)
    moves = np.zeros((games, full["rounds"]), np.int32)
    won = np.full((games, full["rounds"]), -1, np.int8)
    recs: list[dict[str, Any]] | None = [] if records else None
    buf = engine.alloc(name, min(batch, max(games, 1)), players, full["rounds"], records)
    t0 = time.perf_counter()
    for lo in range(0, games, batch):
        k = min(batch, games - lo)
        ch = buf if k == len(buf.first) else engine.alloc(name, k, players, full["rounds"],
                                                         records)
        engine.run(name, players, full, seed, first_game + lo, ch)
        first[lo:lo + k] = ch.first
        scores[lo:lo + k] = ch.scores
        moves[lo:lo + k] = ch.nmoves
        won[lo:lo + k] = ch.won
        if recs is not None:
            assert ch.rec_move is not None
            cap = ch.rec_move.shape[2]
            for b in range(k):
                if int(ch.nmoves[b].max()) > cap:
                    recs.append(game_record(name, players, full, seed, first_game + lo + b))
                else:
                    recs.append(chunk_record(name, players, full, ch, b))
    return BatchResult(name, players, full, seed, first_game, first, scores, moves, won,
                       time.perf_counter() - t0, recs)
