"""Fanti search speed: time per decision of a search bot in real rounds.

Plays ``--rounds`` rounds of Fanti, the search bot in seat 0 against ``heuristic``
in the other seats (deals from ``--seed``), and times (CPU time of this process, so
that a busy machine does not inflate it) every decision of the search bot that has a
choice (two legal moves or more). Prints the mean, median and max
time per decision and the number of decisions.

    nice .venv/bin/python benchmarks/fanti_search_speed.py --players 2 --bot hard:200

``--per-world`` times the same decisions with the worlds searched one by one (PIMC, the
baseline) as well and prints the ratio of the medians. ``--python-heuristic`` times
them with the Python heuristic (:func:`parlour.games.fanti.heuristic.choice`, the
reference) answering for the other seats instead of the compiled one
(:mod:`parlour.games.fanti.heuristic_kernel`) and prints the ratios of the medians and
of the slowest decisions. Each configuration runs in a fresh process.
"""

from __future__ import annotations

import argparse
import copy
import random
import statistics
import subprocess
import sys
import time

import bench_args

from parlour.bots import make_bot
from parlour.games import get_game
from parlour.games.fanti import heuristic, search


def run(players: int, bot: str, rounds: int, seed: int,
        joint: bool | None = None) -> list[float]:
    """CPU seconds per multi-choice decision of ``bot`` (seat 0) over ``rounds`` rounds;
    ``joint`` False: its worlds searched one by one (the baseline of ``--per-world``)."""
    game = get_game("fanti")
    rules = game.rules(players, {"rounds": 1})
    times: list[float] = []
    for k in range(rounds):
        rng = random.Random(seed * 1000 + k)
        deck = list(range(52))
        rng.shuffle(deck)
        r = game.new_round(rules, players, k % players, deck)
        bots = [make_bot(bot if s == 0 else "heuristic", "fanti", seed + 17 * k + s)
                for s in range(players)]
        if joint is not None:
            engine = bots[0].engine
            engine.now = copy.copy(engine.now)
            engine.now.joint = joint
        while not r.is_over:
            p = r.current_player
            view = r.view(p)
            t0 = time.process_time()
            move = bots[p].choose(view)
            if p == 0 and len(view.legal) > 1:
                times.append(time.process_time() - t0)
            r.apply(move)
    return times


def compare(a: argparse.Namespace, flag: str, name: str) -> None:
    """Time the bot as it is and with ``flag`` (the baseline), each in a fresh process,
    and print the ratios of the medians and of the slowest decisions."""
    stats = []
    for extra in ([], [flag]):
        out = subprocess.run([sys.executable, __file__, "--players", str(a.players),
                              "--bot", a.bot, "--rounds", str(a.rounds), "--seed",
                              str(a.seed), *extra], capture_output=True, text=True,
                             check=True).stdout
        print(out, end="")
        stats.append((float(out.split("median ")[1].split(" ms")[0]),
                      float(out.split("max ")[1].split(" ms")[0])))
    (med, top), (base_med, base_top) = stats
    print(f"median ratio, {name}: {med / base_med:.2f}; slowest: {top / base_top:.2f}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--bot", default="hard")
    ap.add_argument("--rounds", type=bench_args.positive, default=10)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--per-world", action="store_true",
                    help="also time the same bot with its worlds searched one by one "
                    "(the baseline) and print the ratio")
    ap.add_argument("--python-heuristic", action="store_true",
                    help="also time it with the Python heuristic answering for the other "
                    "seats (the baseline) and print the ratios")
    ap.add_argument("--apart", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--python", action="store_true", help=argparse.SUPPRESS)
    a = ap.parse_args()
    bench_args.check_players(ap, "fanti", a.players)
    bench_args.check_bots(ap, "fanti", [a.bot], "--bot")  # checked up front
    if not hasattr(make_bot(a.bot, "fanti", 0), "engine"):
        ap.error(f"--bot {a.bot}: not a search bot; choose hard, expert, "
                 "hard:N, expert:N, deep:N, pimc:N or ismcts:N")
    for on, flag, name in ((a.per_world, "--apart", "together / one by one"),
                           (a.python_heuristic, "--python", "compiled / Python heuristic")):
        if on:  # each in a fresh process: the memos would carry over otherwise
            compare(a, flag, name)
            return
    if a.python:
        search.heuristic_move = heuristic.choice
    first, *t = run(a.players, a.bot, a.rounds, a.seed, False if a.apart else None)
    label = " one world at a time" if a.apart else " Python heuristic" if a.python else ""
    print(f"fanti {a.players}p {a.bot}{label}: first decision incl. loading "
          f"{1000 * first:.0f} ms; {len(t)} more decisions, mean "
          f"{1000 * statistics.mean(t):.1f} ms, median {1000 * statistics.median(t):.1f} "
          f"ms, max {1000 * max(t):.1f} ms")


if __name__ == "__main__":
    main()
