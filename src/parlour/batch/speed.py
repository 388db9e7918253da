"""``bench``: rounds and moves per second of the batch engine on random play."""

from __future__ import annotations

import time
from typing import Any

from parlour.batch import engine
from parlour.games import get_game


def bench(game_name: str, players: int, seconds: float = 2.0, batch: int = 4096,
          rules: dict[str, Any] | None = None, seed: int = 0) -> dict[str, Any]:
    """Run chunks of ``batch`` random games for about ``seconds``; report the speed.

    The first call of a process compiles the kernel, or loads it from numba's cache;
    that time is reported apart as ``warmup_s`` and not counted. ``bytes_per_game`` is
    the kernel's output buffers over the batch size: it does not grow with the batch.
    """
    g = get_game(game_name)
    full = g.rules(players, rules)
    name = g.name
    buf = engine.alloc(name, batch, players, full["rounds"], record=False)
    t0 = time.perf_counter()
    engine.run(name, players, full, seed, 0, engine.alloc(name, 1, players, full["rounds"],
                                                          record=False))
    warmup = time.perf_counter() - t0
    games = moves = 0
    t0 = time.perf_counter()
    elapsed = 0.0
    while elapsed < seconds or games == 0:
        engine.run(name, players, full, seed, games, buf)
        games += batch
        moves += int(buf.nmoves.sum())
        elapsed = time.perf_counter() - t0
    rounds = games * full["rounds"]
    return {
        "engine": "batch",
        "game": name,
        "players": players,
        "rules": full,
        "batch": batch,
        "games": games,
        "rounds": rounds,
        "moves": moves,
        "seconds": round(elapsed, 4),
        "games_per_s": round(games / elapsed),
        "rounds_per_s": round(rounds / elapsed),
        "moves_per_s": round(moves / elapsed),
        "bytes_per_game": buf.nbytes / batch,
        "warmup_s": round(warmup, 3),
    }
