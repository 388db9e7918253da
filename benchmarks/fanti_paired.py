"""Paired screening of Fanti search variants on the tournament's duplicate deals.

    OPENBLAS_NUM_THREADS=1 nice -n 19 .venv/bin/python benchmarks/fanti_paired.py \\
        --players 2 --opponents heuristic --deals 0:300 --variants hard:200,cheat

Plays exactly the games of ``parlour tournament fanti --players P --bots
VARIANT,OPPONENTS --games N --seed S`` (same deals, rotations and bot seeds:
:mod:`parlour.arena.jobs`) for each variant, and prints each variant's win share
with its 95% CI clustered by deal, and the paired difference of every variant
against the first. A variant is any bot name (``hard:200``, ``expert``) or one
of the diagnostics below:

* ``cheat``: every world the true deal (it reads the real round, which no player may):
  the ceiling of inference for hard's search and leaf.

Settings follow the name after ``@``. Upper-case ones (``hard:200@EPSILON=0.05``) are
constants of :mod:`parlour.games.fanti.search` or :mod:`parlour.bots.pimc`, held while
the game is played: they change *every* search bot at the table, so against a search
opponent name it differently (``--opponents hard:200:full``) and remember it is changed
too. Lower-case ones change only the measured bot's engine: ``@minimax=1`` answers
the opponent by minimax (it is assumed to see my hand and play its best) instead of as
the heuristic (:attr:`parlour.bots.models.SearchModel.respond`); ``@joint=0`` / ``=1``
searches a decision's worlds one by one (PIMC) or together, my later moves once per
information set (:mod:`parlour.games.fanti.infoset`). (``expert:N`` is
``hard:N`` with expert's fitted deal-end leaf.)

``--jsonl`` appends one line per game (variant, deal, rotation, share) so that a run
cut short still counts and runs can be merged.
"""

from __future__ import annotations

import argparse
import copy
import json
import math
import random
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

import bench_args

from parlour.arena.jobs import Job, run_job
from parlour.arena.tournament import Tournament
from parlour.bots import make_bot, pimc
from parlour.games.fanti import search
from parlour.games.fanti.search import solve_moves
from parlour.match import Match


class CheatBot:
    """Solves the true deal exactly (a diagnostic: it reads the real round)."""

    def __init__(self, match: Match) -> None:
        self.match = match

    def choose(self, view: Any) -> Any:
        legal = list(view.legal)
        if len(legal) == 1:
            return legal[0]
        hands = list(self.match.rounds[-1].hands)
        assert hands[view.seat] == view.hand
        vals = solve_moves(view, hands, legal, respond=True)
        return legal[max(range(len(legal)), key=lambda j: vals[j][0])]


MODULES = {k: search for k in ("EPSILON", "CLUMP", "LEAD_SCALE", "PRIOR_WEIGHT")}
MODULES.update({k: pimc for k in ("NOW_POOL", "NOW_CANDIDATES")})


ENGINE_SETTINGS = ("minimax", "joint")
"""Lower-case settings: the measured bot's own engine only."""


def settings(variant: str) -> tuple[str, dict[str, Any], dict[str, float]]:
    """``NAME@ATTR=VALUE@...``: a bot name, the module constants (upper case) to hold
    while it plays, and its engine settings (lower case); ValueError in words for
    anything else."""
    name, *sets = variant.split("@")
    pairs = [x.split("=", 1) for x in sets]
    for pair in pairs:
        if len(pair) != 2 or (pair[0] not in MODULES and pair[0] not in ENGINE_SETTINGS):
            raise ValueError(f"unknown setting {'='.join(pair)!r} in {variant!r}: write "
                             f"NAME=NUMBER, NAME one of "
                             f"{', '.join(sorted(MODULES) + list(ENGINE_SETTINGS))}")
        try:
            float(pair[1])
        except ValueError:
            raise ValueError(f"setting {pair[0]} in {variant!r} needs a number, "
                             f"not {pair[1]!r}") from None
    modules = {k: (MODULES[k], type(getattr(MODULES[k], k))(float(v))) for k, v in pairs
               if k in MODULES}
    return name, modules, {k: float(v) for k, v in pairs if k in ENGINE_SETTINGS}


def make_agent(variant: str, game: str, seed: int, match: Match) -> Any:
    name, _modules, engine = settings(variant)
    if name == "cheat":
        return CheatBot(match)
    bot = make_bot(name, game, seed)
    if engine.get("minimax"):
        bot.engine.respond = False  # the Pimc engine's replies: minimax, not the model
    if "joint" in engine:  # worlds searched together (1) or one by one (0)
        bot.engine.now = copy.copy(bot.engine.now)
        bot.engine.now.joint = bool(engine["joint"])
    return bot


def play(job: Job, measured: str) -> float:
    """The measured entry's win share in one game (the tournament's own deal and seeds)."""
    res = run_job(job, lambda name, sd, m: make_agent(name, job.game, sd, m))
    winners, seat = res.winners, res.entries.index(0)
    return 1.0 / len(winners) if seat in winners else 0.0


def ci(per_deal: list[float]) -> tuple[float, float]:
    n = len(per_deal)
    mean = sum(per_deal) / n
    if n < 2:
        return mean, 0.0
    var = sum((x - mean) ** 2 for x in per_deal) / (n - 1)
    return mean, 1.96 * math.sqrt(var / n)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--opponents", default="heuristic")
    ap.add_argument("--deals", type=bench_args.deal_range, default="0:200",
                    help="first:last (exclusive)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--variants", default="hard:200,cheat")
    ap.add_argument("--jsonl", type=Path, default=None)
    a = ap.parse_args()
    lo, hi = a.deals
    variants = a.variants.split(",")
    for v in variants:  # every setting and bot checked before any game is played
        name, _modules, engine = bench_args.checked(ap, settings, v)
        if name != "cheat":
            bench_args.check_bots(ap, "fanti", [name], "--variants")
            if engine and not hasattr(make_bot(name, "fanti", 0), "engine"):
                ap.error(f"--variants {v}: {', '.join(engine)} needs a search bot, not {name}")
    if a.jsonl is not None and (a.jsonl.is_dir() or not a.jsonl.parent.is_dir()):
        ap.error(f"--jsonl {a.jsonl}: not a file in an existing folder")
    # the tournament checks the table size, the line-up and the opponents, in its own words
    bench_args.checked(ap, Tournament, "fanti", a.players, ["hard:1", *a.opponents.split(",")],
                       hi, a.seed)
    shares: dict[str, dict[int, list[float]]] = defaultdict(lambda: defaultdict(list))
    started = time.perf_counter()
    for d in range(lo, hi):
        for v in variants:
            probe = "hard:1" if v.startswith("cheat") else settings(v)[0]
            t = Tournament("fanti", a.players, [probe, *a.opponents.split(",")], hi, a.seed)
            for job in t.jobs()[d * a.players:(d + 1) * a.players]:
                bots = tuple(v if b == probe else b for b in job.bots)
                job = Job(job.game, job.players, job.rules, bots, job.seed, job.deal,
                          job.rotation)
                _name, sets, _engine = settings(v)
                old = {k: getattr(mod, k) for k, (mod, _x) in sets.items()}
                for k, (mod, x) in sets.items():
                    setattr(mod, k, x)
                try:
                    s = play(job, v)
                finally:
                    for k, x in old.items():
                        setattr(sets[k][0], k, x)
                shares[v][d].append(s)
                if a.jsonl:
                    with a.jsonl.open("a") as f:
                        f.write(json.dumps({"variant": v, "players": a.players,
                                            "opponents": a.opponents, "seed": a.seed,
                                            "deal": d, "rotation": job.rotation,
                                            "share": s}) + "\n")
    base = variants[0]
    out: dict[str, Any] = {"deals": hi - lo, "seconds": round(time.perf_counter() - started)}
    for v in variants:
        per = [sum(x) / len(x) for _, x in sorted(shares[v].items())]
        mean, half = ci(per)
        row = {"win": round(mean, 4), "ci": [round(mean - half, 4), round(mean + half, 4)]}
        if v != base:
            diff = [sum(shares[v][d]) / len(shares[v][d]) - sum(shares[base][d]) / len(shares[base][d])
                    for d in sorted(shares[v])]
            dm, dh = ci(diff)
            row["paired_vs_" + base] = [round(dm, 4), round(dm - dh, 4), round(dm + dh, 4)]
        out[v] = row
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    random.seed(0)
    main()
