"""Engine benchmarks: how fast rounds play out through the :class:`~parlour.game.Round` interface.

:func:`random_playouts` measures whole rounds of uniformly random legal moves, made the
way every bot and tool drives a game -- ``new_round``, ``legal_moves``, ``apply`` (which
checks legality) -- in one process. Decks are shuffled before the clock starts, so the
figure is the engine's, not the shuffler's.

>>> from parlour.bench import random_playouts
>>> r = random_playouts("fantan", players=4, seconds=0.2)
>>> r.rounds > 0 and r.moves > r.rounds
True
"""

from __future__ import annotations

import platform
import random
import time
from dataclasses import asdict, dataclass
from typing import Any

from .games import get_game

DECK_POOL = 256
"""Distinct decks prepared before timing, dealt in turn."""


@dataclass(frozen=True)
class BenchResult:
    """One measurement. ``seconds`` is the time actually measured (at least the target)."""

    game: str
    players: int
    seconds: float
    rounds: int
    moves: int
    rounds_per_s: float
    moves_per_s: float
    python: str

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def python_version() -> str:
    return f"{platform.python_implementation()} {platform.python_version()}"


def random_playouts(game: str, players: int, seconds: float = 2.0, seed: int = 0,
                    rules: dict[str, Any] | None = None) -> BenchResult:
    """Play random rounds for about ``seconds`` (whole rounds only, at least one)."""
    g = get_game(game)
    full = g.rules(players, rules)
    rng = random.Random(seed)
    decks = []
    for _ in range(DECK_POOL):
        d = list(range(52))
        rng.shuffle(d)
        decks.append(d)
    choose = rng.randrange
    new_round = g.new_round
    rounds = moves = 0
    clock = time.perf_counter
    start = clock()
    deadline = start + seconds
    while True:
        r = new_round(full, players, rounds % players, decks[rounds % DECK_POOL])
        while not r.is_over:
            legal = r.legal_moves()
            r.apply(legal[choose(len(legal))])
            moves += 1
        rounds += 1
        now = clock()
        if now >= deadline:
            break
    elapsed = now - start
    return BenchResult(
        game=g.name, players=players, seconds=round(elapsed, 3), rounds=rounds, moves=moves,
        rounds_per_s=round(rounds / elapsed, 1), moves_per_s=round(moves / elapsed, 1),
        python=python_version(),
    )
