"""Batch engine, step engine and the OpenSpiel yardstick, measured side by side.

    nice .venv/bin/python benchmarks/batch_bench.py --seconds 2 --batch 64,1024,16384

Prints one JSON document: per game (Fan Tan 4 players, Fanti 4 players, default rules)
the batch engine's rounds/s at each batch size, Fan Tan lock-step (FanTanBatch)
rounds/s at the largest size, the step engine's rounds/s
(``legal_moves``/``apply`` driven from Python with ``random.Random``), and, with
``--yardstick`` (the default), OpenSpiel hearts and crazy_eights games/s plus the ratio
of every parlour figure to each of them. Run it on an otherwise idle core.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from typing import Any

import bench_args

from parlour import batch, yardstick
from parlour.games import get_game


def step_bench(game_name: str, players: int, seconds: float, seed: int = 0) -> dict[str, Any]:
    """Rounds/s of the step engine on random play: new_round, legal_moves, apply, score."""
    g = get_game(game_name)
    rules = g.rules(players)
    rng = random.Random(seed)
    rounds = moves = 0
    deck = list(range(52))
    t0 = time.perf_counter()
    while (elapsed := time.perf_counter() - t0) < seconds or rounds == 0:
        rng.shuffle(deck)
        r = g.new_round(rules, players, rounds % players, deck)
        while not r.is_over:
            legal = r.legal_moves()
            r.apply(legal[int(rng.random() * len(legal))])
            moves += 1
        r.score()
        rounds += 1
    return {"engine": "step", "game": g.name, "players": players, "rounds": rounds,
            "seconds": round(elapsed, 3), "rounds_per_s": round(rounds / elapsed),
            "moves_per_s": round(moves / elapsed)}


def lockstep_bench(players: int, seconds: float, size: int) -> dict[str, Any]:
    """Rounds/s of FanTanBatch stepped from Python with the stream's moves.

    Each step is three kernel calls (legal mask, stream choice, step); the mask is
    computed as a policy would need it, though the stream does not read it.
    """
    fb = batch.FanTanBatch(players, batch=size)
    rounds = moves = 0
    fb.reset(0, 0, 0)
    fb.step(fb.stream_moves())  # compile or load the kernels outside the timing
    t0 = time.perf_counter()
    while (elapsed := time.perf_counter() - t0) < seconds or rounds == 0:
        fb.reset(0, rounds, 0)
        while not fb.done.all():
            fb.legal_mask()
            fb.step(fb.stream_moves())
        rounds += size
        moves += int(fb.nmoves.sum())
    return {"engine": "lockstep", "game": "fantan", "players": players, "batch": size,
            "rounds": rounds, "seconds": round(elapsed, 3),
            "rounds_per_s": round(rounds / elapsed), "moves_per_s": round(moves / elapsed)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=2.0, help="per figure")
    ap.add_argument("--batch", type=bench_args.positives, default="64,1024,16384",
                    help="batch sizes, comma separated")
    ap.add_argument("--no-yardstick", action="store_true", help="skip OpenSpiel")
    args = ap.parse_args()
    sizes = args.batch
    skip = {"available": False, "reason": "skipped"}
    before = skip if args.no_yardstick else yardstick.measure(args.seconds)
    results = []
    for game, players in (("fantan", 4), ("fanti", 4)):
        results += [batch.bench(game, players, args.seconds, b) for b in sizes]
        results.append(step_bench(game, players, args.seconds))
        if game == "fantan":
            results.append(lockstep_bench(players, args.seconds, max(sizes)))
    # measured again at the end: ratios use the mean, so load that came and went in
    # between weighs on both sides
    after = skip if args.no_yardstick else yardstick.measure(args.seconds)
    yard = yardstick.mean(before, after)
    for f in results:
        f.pop("rules", None)
        f["vs_openspiel"] = yardstick.ratios(f["rounds_per_s"], yard)
    out = {"yardstick_before": before, "yardstick_after": after, "yardstick": yard,
           "results": results}
    print(json.dumps(out, indent=2))


if __name__ == "__main__":
    main()
