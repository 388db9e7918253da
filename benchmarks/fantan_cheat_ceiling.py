"""The ceiling of inference: Fan Tan ``hard`` when it *sees every hand* (a diagnostic, not a
bot -- it reads the real round, which no player may).

    OPENBLAS_NUM_THREADS=1 nice -n 19 .venv/bin/python benchmarks/fantan_cheat_ceiling.py \\
        --players 4 --opponents heuristic --deals 200 --seed 1

Plays exactly the games of ``parlour tournament fantan --players P --bots
hard:N,OPPONENTS --games DEALS --seed S`` (the same duplicate deals, seat rotations and
bot seeds: :mod:`parlour.arena.jobs`), except that the ``hard`` seat's worlds are all
the true deal: its engine (:class:`.search.FastFanTan`, ``--iterations`` a move, the
same playouts and late exact search) evaluates every move in the real position, the
other seats answered as the heuristic or, with ``--replies random``, as random players
(playouts only). ``--first-deal`` plays a slice of the deals. Its win rate against the line the real ``hard``
reaches is what better inference could still be worth. Prints the tournament's JSON
summary (``--out`` to write it too).
"""

from __future__ import annotations

import argparse
import json
import random
from pathlib import Path
from typing import Any

import bench_args
import numpy as np

from parlour.arena.jobs import GameResult, Job, run_job
from parlour.arena.tournament import Tournament, TournamentResult
from parlour.bots import make_bot
from parlour.bots.budget import Budget
from parlour.games.fantan.search import FastFanTan
from parlour.match import Match


class SeeingEngine(FastFanTan):
    """The ``hard`` engine with every world the true deal of ``match``'s current round;
    with ``random_replies`` every other seat is answered as a random player (playouts
    only: the late exact search answers the heuristic), else as the heuristic."""

    def __init__(self, budget: Budget, match: Match, random_replies: bool = False) -> None:
        super().__init__(budget, inference="fixed")
        self.match = match
        self.random_replies = random_replies

    def _models(self, view: Any, su: Any, rng: random.Random) -> Any:
        hit, miss, prand = super()._models(view, su, rng)
        if self.random_replies:
            prand = np.ones_like(prand)
            prand[su.me] = 0.0
        return hit, miss, prand

    def _pool(self, su: Any, d: Any, rng: random.Random, chains: Any = None,
              count: int | None = None, **_kw: Any) -> np.ndarray:
        hands = np.array([int(h) for h in self.match.rounds[-1].hands], np.uint64)
        return np.tile(hands, (count or 64, 1))


class SeeingBot:
    def __init__(self, engine: SeeingEngine, seed: int) -> None:
        self.engine = engine
        self.rng = random.Random(seed)

    def choose(self, view: Any) -> Any:
        assert int(self.engine.match.rounds[-1].hands[view.seat]) == view.hand
        legal = list(view.legal)
        if len(legal) == 1:
            return legal[0]
        return self.engine.estimates(view, self.rng)[0].move


def run(job: Job, iterations: int, seeing: str, random_replies: bool = False) -> GameResult:
    """One game of the tournament's, the ``seeing`` entry replaced by a bot that sees
    every hand."""
    def seat(name: str, sd: int, m: Any) -> Any:
        if name == seeing:
            return SeeingBot(SeeingEngine(Budget(iterations), m, random_replies), sd)
        return make_bot(name, job.game, sd)

    return run_job(job, seat)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--opponents", default="heuristic")
    ap.add_argument("--deals", type=bench_args.positive, default=200)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--iterations", type=bench_args.positive, default=3000)
    ap.add_argument("--replies", choices=("heuristic", "random"), default="heuristic",
                    help="answer every other seat as the heuristic (the engine's default "
                    "model) or as a random player")
    ap.add_argument("--first-deal", type=bench_args.nonnegative, default=0,
                    help="play deals first-deal .. deals-1 only (a slice of the tournament)")
    ap.add_argument("--out", type=Path, default=None)
    a = ap.parse_args()
    seeing = f"hard:{a.iterations}"
    # the tournament checks the players, the line-up and every bot name, in its own words
    t = bench_args.checked(ap, Tournament, "fantan", a.players,
                           [seeing, *a.opponents.split(",")], a.deals, a.seed)
    if a.first_deal >= a.deals:
        ap.error(f"--first-deal must be below --deals ({a.deals}), not {a.first_deal}")
    games = [run(job, a.iterations, seeing, a.replies == "random") for job in t.jobs()
             if job.deal >= a.first_deal]
    summary = TournamentResult(t, games).summary()
    summary["seeing"] = f"{seeing} sees every hand (diagnostic), replies {a.replies}"
    text = json.dumps(summary, indent=1)
    if a.out:
        a.out.write_text(text)
    print(text)


if __name__ == "__main__":
    main()
