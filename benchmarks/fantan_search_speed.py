"""Time per Fan Tan search decision: one search bot against ``heuristic`` players.

Plays ``--deals`` seeded rounds with the search bot in seat 0 and ``heuristic`` in the
other seats and times every decision with two or more legal moves (a forced move is
answered without search). Prints the mean, median, 95th percentile and maximum, and
the first-call compile time of the numba kernels (zero when numba's cache is warm).
With ``--baseline BOT`` it also times that bot on the first ``--baseline-deals`` of the
same deals, in the same run, and prints the ratio of mean times (the default baseline
is the generic Python engine at hard's iterations, ``pimc:3000``).

    .venv/bin/python benchmarks/fantan_search_speed.py --bot hard --players 4 --deals 30
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

import bench_args

from parlour.bots import make_bot
from parlour.games import get_game

CLOCK = [time.perf_counter]
"""The clock decisions are timed with (``--clock``)."""


def decision_times(game, rules, bot: str, players: int, deals: int,
                   seed: int) -> list[float]:
    """Seconds of every multi-choice decision of ``bot`` (seat 0) in ``deals`` rounds."""
    times: list[float] = []
    for d in range(deals):
        rng = random.Random(seed * 100003 + d)
        deck = list(range(52))
        rng.shuffle(deck)
        r = game.new_round(rules, players, rng.randrange(players), deck)
        bots = [make_bot(bot if s == 0 else "heuristic", "fantan", d * 10 + s)
                for s in range(players)]
        while not r.is_over:
            p = r.current_player
            view = r.view(p)
            if p == 0 and len(view.legal) > 1:
                t = CLOCK[0]()
                move = bots[p].choose(view)
                times.append(CLOCK[0]() - t)
            else:
                move = bots[p].choose(view)
            r.apply(move)
    return times


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bot", default="hard")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--deals", type=bench_args.positive, default=30)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--baseline", default="pimc:3000", help="'' for none")
    ap.add_argument("--baseline-deals", type=bench_args.positive, default=3)
    ap.add_argument("--clock", choices=("wall", "cpu"), default="wall",
                    help="cpu: process time, which a loaded machine does not inflate")
    args = ap.parse_args()
    bench_args.check_players(ap, "fantan", args.players)
    bench_args.check_bots(ap, "fantan", [args.bot], "--bot")
    if args.baseline:
        bench_args.check_bots(ap, "fantan", [args.baseline], "--baseline")
    if args.clock == "cpu":
        CLOCK[0] = time.process_time
    game = get_game("fantan")
    rules = game.rules(args.players, {"rounds": 1})
    t0 = time.perf_counter()
    from parlour.games.fantan import search_kernel as fast_fantan_kernel  # noqa: F401  (compiles or loads the cache)
    warm = make_bot(args.bot, "fantan", 0)
    r = game.new_round(rules, args.players, 0, list(range(52)))
    while len(r.legal_moves()) < 2 or r.current_player != 0:
        r.apply(r.legal_moves()[0])
    warm.choose(r.view(0))
    first = time.perf_counter() - t0
    times = decision_times(game, rules, args.bot, args.players, args.deals, args.seed)
    times.sort()
    print(f"bot {args.bot}, {args.players} players, {args.deals} deals, "
          f"{len(times)} multi-choice decisions")
    print(f"first decision incl. import/compile: {first:.2f} s")
    print(f"per decision: mean {1000 * statistics.mean(times):.1f} ms, "
          f"median {1000 * statistics.median(times):.1f} ms, "
          f"p95 {1000 * times[int(0.95 * (len(times) - 1))]:.1f} ms, "
          f"max {1000 * times[-1]:.1f} ms")
    if args.baseline:
        base = decision_times(game, rules, args.baseline, args.players, args.baseline_deals,
                              args.seed)
        mine = decision_times(game, rules, args.bot, args.players, args.baseline_deals,
                              args.seed)
        ratio = statistics.mean(base) / statistics.mean(mine)
        print(f"baseline {args.baseline} on the first {args.baseline_deals} deals: mean "
              f"{1000 * statistics.mean(base):.1f} ms against {1000 * statistics.mean(mine):.1f}"
              f" ms: {args.bot} is {ratio:.1f}x faster")


if __name__ == "__main__":
    main()
