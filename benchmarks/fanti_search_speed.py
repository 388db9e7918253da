"""Fanti search speed: time per decision of a search bot in real rounds.

Plays ``--rounds`` rounds of Fanti, the search bot in seat 0 against ``heuristic``
in the other seats (deals from ``--seed``), and times (CPU time of this process, so
that a busy machine does not inflate it) every decision of the search bot that has a
choice (two legal moves or more). Prints the mean, median and max
time per decision and the number of decisions.

    nice .venv/bin/python benchmarks/fanti_search_speed.py --players 2 --bot hard:200
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from parlour.bots import make_bot
from parlour.games import get_game


def run(players: int, bot: str, rounds: int, seed: int) -> list[float]:
    """CPU seconds per multi-choice decision of ``bot`` (seat 0) over ``rounds`` rounds."""
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
        while not r.is_over:
            p = r.current_player
            view = r.view(p)
            t0 = time.process_time()
            move = bots[p].choose(view)
            if p == 0 and len(view.legal) > 1:
                times.append(time.process_time() - t0)
            r.apply(move)
    return times


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--bot", default="hard")
    ap.add_argument("--rounds", type=int, default=10)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    first, *t = run(a.players, a.bot, a.rounds, a.seed)
    print(f"fanti {a.players}p {a.bot}: first decision incl. loading {1000 * first:.0f} ms; "
          f"{len(t)} more decisions, mean {1000 * statistics.mean(t):.1f} ms,"
          f" median {1000 * statistics.median(t):.1f} ms, max {1000 * max(t):.1f} ms")


if __name__ == "__main__":
    main()
