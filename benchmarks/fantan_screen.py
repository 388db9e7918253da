"""Screen a change to Fan Tan ``hard`` on a slice of duplicate deals, paired.

    OPENBLAS_NUM_THREADS=1 NUMBA_NUM_THREADS=1 nice -n 19 .venv/bin/python \\
        benchmarks/fantan_screen.py --bots hard:3000,random --deals 0:200 \\
        --set REPLIES=mix --out /tmp/mix.jsonl

Plays exactly the games of ``parlour tournament fantan --players P --bots BOTS --games
N --seed S`` whose deal lies in the slice (the same deals, rotations and bot seeds:
:mod:`parlour.arena.jobs`), after setting constants of :mod:`.search` (``--set
NAME=VALUE``, for trying an engine setting without a new bot name; a name that is
not one of them is looked up in :mod:`parlour.bots.opponents`, e.g. ``CARRY=0``: do
not read the earlier rounds of a game). ``--rounds K`` plays games of K rounds
(``--rule rounds=K`` of the tournament). Appends one JSON
line per game (deal, rotation, bots, winners), so a partial run still counts and two
runs on the same slice can be compared deal by deal (``--compare A.jsonl B.jsonl``: the
first bot's win rate in each, and the paired difference with a 95% CI clustered by deal).
"""

from __future__ import annotations

import argparse
import json
import math
from collections import defaultdict
from pathlib import Path

import bench_args

from parlour.arena import stats
from parlour.arena.jobs import run_job
from parlour.arena.tournament import Tournament
from parlour.bots import opponents
from parlour.games.fantan import search


def games(path: Path) -> list[dict]:
    """The games of a screening file; ValueError in words for a file that is not one."""
    try:
        lines = path.read_text().splitlines()
    except (OSError, UnicodeDecodeError) as e:
        raise ValueError(f"{path}: cannot be read as a screening file ({e})") from None
    out = []
    for n, line in enumerate(lines, 1):
        try:
            g = json.loads(line)
            if not {"deal", "bots", "winners"} <= g.keys():
                raise ValueError
        except (ValueError, AttributeError):
            raise ValueError(f"{path}, line {n}: not a line this script writes") from None
        out.append(g)
    if not out:
        raise ValueError(f"{path}: no games")
    return out


def shares(path: Path, bot: str) -> dict[int, float]:
    """The mean win share of ``bot`` per deal of a screening file."""
    per: dict[int, list[float]] = defaultdict(list)
    for g in games(path):
        n = len(g["bots"])
        sh = stats.win_shares(g["winners"], n)
        for s, b in enumerate(g["bots"]):
            if b == bot:
                per[g["deal"]].append(sh[s])
    return {d: sum(v) / len(v) for d, v in per.items()}


def compare(a: Path, b: Path, bot: str | None) -> None:
    name = bot or games(a)[0].get("lineup", [None])[0]
    if name is None:
        raise ValueError(f"{a} names no line-up: say which bot with --bot")
    sa, sb = shares(a, name), shares(b, name)
    for path, s in ((a, sa), (b, sb)):
        if not s:
            raise ValueError(f"{path}: {name} plays in none of its games")
    for path, s in ((a, sa), (b, sb)):
        xs = list(s.values())
        m = sum(xs) / len(xs)
        sd = math.sqrt(sum((x - m) ** 2 for x in xs) / max(1, len(xs) - 1))
        print(f"{path}: {name} {100 * m:.1f}% +- {196 * sd / math.sqrt(len(xs)):.1f} "
              f"({len(xs)} deals)")
    both = sorted(set(sa) & set(sb))
    if not both:
        raise ValueError(f"{a} and {b} share no deal")
    d = [sb[k] - sa[k] for k in both]
    m = sum(d) / len(d)
    sd = math.sqrt(sum((x - m) ** 2 for x in d) / max(1, len(d) - 1))
    half = 1.96 * sd / math.sqrt(len(d))
    print(f"paired second - first on {len(d)} deals: {100 * m:+.1f} "
          f"[{100 * (m - half):+.1f}, {100 * (m + half):+.1f}] points")


def summary(path: Path) -> None:
    """Every bot's win rate in a screening file, with its 95% CI clustered by deal (as
    ``parlour tournament``'s summary)."""
    per: dict[str, dict[int, list[float]]] = defaultdict(lambda: defaultdict(lambda: [0.0, 0.0]))
    played = games(path)
    deals = set()
    for g in played:
        deals.add(g["deal"])
        for s, b in enumerate(g["bots"]):
            cell = per[b][g["deal"]]
            cell[0] += stats.win_shares(g["winners"], len(g["bots"]))[s]
            cell[1] += 1
    print(f"{path}: {len(deals)} deals, {len(played)} games")
    for b, cells in per.items():
        rate, ci = stats.clustered_ci([tuple(v) for v in cells.values()])
        print(f"  {b}: {100 * rate:.1f}% [{100 * ci[0]:.1f}, {100 * ci[1]:.1f}]")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--bots", default="hard:3000,random")
    ap.add_argument("--deals", type=bench_args.deal_range, default="0:200",
                    help="FIRST:END (END exclusive)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--set", action="append", default=[], metavar="NAME=VALUE")
    ap.add_argument("--rounds", type=bench_args.positive, default=1,
                    help="rounds a game (default 1)")
    ap.add_argument("--told", choices=("random", "heuristic"), default=None,
                    help="a diagnostic: tell the engine every other seat's model (its "
                    "reply weight of random set to 1 or 0) instead of reading it")
    ap.add_argument("--out", type=Path)
    ap.add_argument("--compare", nargs=2, type=Path)
    ap.add_argument("--bot", default=None, help="the bot compared (default: the first)")
    ap.add_argument("--summary", type=Path, help="print a screening file's win rates")
    a = ap.parse_args()
    if a.compare:
        bench_args.checked(ap, compare, *a.compare, a.bot)
        return
    if a.summary:
        bench_args.checked(ap, summary, a.summary)
        return
    bench_args.check_players(ap, "fantan", a.players)
    if a.out is None or a.out.is_dir() or not a.out.parent.is_dir():
        ap.error("--out FILE (in an existing folder) is needed to play, "
                 "or --compare A B, or --summary FILE")
    for item in a.set:
        name, _, value = item.partition("=")
        module = search if hasattr(search, name) else opponents
        if not name.isupper() or not hasattr(module, name):
            ap.error(f"--set {item}: no setting {name!r} in the search or the reading")
        old = getattr(module, name)
        try:
            setattr(module, name, value not in ("0", "false", "no") if isinstance(old, bool)
                    else type(old)(value))
        except ValueError:
            ap.error(f"--set {item}: {name} takes a {type(old).__name__}, not {value!r}")
    if a.told:
        told = 1.0 if a.told == "random" else 0.0
        read = search.FastFanTan._models

        def models(self, view, su, rng):  # type: ignore[no-untyped-def]
            hit, miss, prand = read(self, view, su, rng)
            prand[:] = told
            prand[su.me] = 0.0
            return hit, miss, prand

        search.FastFanTan._models = models  # type: ignore[method-assign]
    first, end = a.deals
    # the tournament checks the players, the line-up and every bot name, in its own words
    t = bench_args.checked(ap, lambda: Tournament("fantan", a.players, a.bots.split(","), end,
                                                  a.seed, rules={"rounds": a.rounds}))
    with a.out.open("a") as f:
        for job in t.jobs():
            if job.deal < first:
                continue
            g = run_job(job)
            f.write(json.dumps({"deal": g.deal, "rotation": g.rotation, "bots": g.bots,
                                "winners": g.winners, "lineup": list(t.bots),
                                "set": a.set, "told": a.told, "rounds": a.rounds}) + "\n")
            f.flush()


if __name__ == "__main__":
    main()
