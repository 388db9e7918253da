"""Two tournaments of the same deals, compared deal by deal.

    .venv/bin/python benchmarks/paired_records.py \\
        benchmarks/results/fanti4-hard-vs-heuristic/records.jsonl \\
        /tmp/fanti4-hard1600/records.jsonl

Each file is the ``records.jsonl`` that ``parlour tournament --out DIR`` writes. The
measured bot is the first of each tournament's line-up (``hard`` in one, ``hard:1600``
in the other, say); the two runs must share the game, seed and table size, so that a
deal and rotation are the same cards and seating in both. Prints each run's win share
of the measured bot with its 95% CI clustered by deal, and the paired difference
(second minus first) over the deals both runs played, with its CI: the luck of the
deal cancels, so a difference far smaller than either CI can be seen.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections import defaultdict
from pathlib import Path

from parlour.arena.stats import Z95, win_shares


class RunError(ValueError):
    """A records file that cannot be compared; its message says why."""


def shares(path: Path) -> tuple[dict[int, list[float]], dict]:
    """Per deal, the measured bot's win share in each game, and the run's identity."""
    try:
        lines = [x for x in path.read_text().splitlines() if x.strip()]
    except OSError as e:
        raise RunError(f"{path}: cannot be read ({e.strerror})") from None
    except UnicodeDecodeError:
        raise RunError(f"{path}: not text, so not tournament records") from None
    per: dict[int, list[float]] = defaultdict(list)
    ident: dict = {}
    games = []
    for n, line in enumerate(lines, 1):
        try:
            r = json.loads(line)
            arena = r["meta"]["arena"]
            games.append((n, r["game"], arena["seed"], arena["deal"], arena.get("rotation", 0),
                          list(arena["bots"]), list(r["winners"])))
        except (ValueError, KeyError, TypeError):
            raise RunError(f"{path}, line {n}: not a tournament record "
                           "(parlour tournament --out writes them)") from None
    if not games:
        raise RunError(f"{path}: no records")
    # the measured bot is the first of the line-up: seat 0's bot at rotation 0
    ident["measured"] = next((g[5][0] for g in games if g[4] == 0), games[0][5][0])
    for n, game, seed, deal, _rotation, bots, winners in games:
        this = {"game": game, "players": len(bots), "seed": seed}
        for k, v in this.items():
            if ident.setdefault(k, v) != v:
                raise RunError(f"{path}, line {n}: {k} {v} differs from the file's {ident[k]}")
        seats = [i for i, b in enumerate(bots) if b == ident["measured"]]
        if not seats:
            raise RunError(f"{path}, line {n}: {ident['measured']} does not play")
        won = win_shares(winners, len(bots))
        per[deal].append(sum(won[s] for s in seats) / len(seats))
    return per, ident


def mean_ci(xs: list[float]) -> tuple[float, float, float]:
    n = len(xs)
    m = sum(xs) / n
    half = Z95 * math.sqrt(sum((x - m) ** 2 for x in xs) / (n - 1) / n) if n > 1 else 0.0
    return m, m - half, m + half


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("first", type=Path, help="records.jsonl of the baseline run")
    ap.add_argument("second", type=Path, help="records.jsonl of the run compared with it")
    ap.add_argument("--json", action="store_true", help="print the result as JSON")
    a = ap.parse_args()
    try:
        (p1, i1), (p2, i2) = shares(a.first), shares(a.second)
    except RunError as e:
        ap.error(str(e))
    for k in ("game", "players", "seed"):
        if i1[k] != i2[k]:
            ap.error(f"the runs differ in {k} ({i1[k]} and {i2[k]}): their deals are not the same")
    both = sorted(set(p1) & set(p2))
    if len(both) < 2:
        ap.error("the runs share fewer than two deals")
    one = [sum(p1[d]) / len(p1[d]) for d in both]
    two = [sum(p2[d]) / len(p2[d]) for d in both]
    diff = [b - c for b, c in zip(two, one, strict=True)]
    out = {"game": i1["game"], "players": i1["players"], "seed": i1["seed"], "deals": len(both),
           i1["measured"] + " (first)": [round(x, 4) for x in mean_ci(one)],
           i2["measured"] + " (second)": [round(x, 4) for x in mean_ci(two)],
           "second_minus_first": [round(x, 4) for x in mean_ci(diff)]}
    if a.json:
        print(json.dumps(out, indent=1))
        return 0
    print(f"{i1['game']} {i1['players']}p, seed {i1['seed']}, {len(both):,} deals in both runs")
    for name, xs in ((i1["measured"], one), (i2["measured"], two)):
        m, lo, hi = mean_ci(xs)
        print(f"  {name}: {m:.1%} [{lo:.1%}, {hi:.1%}]")
    m, lo, hi = mean_ci(diff)
    print(f"  paired, second minus first: {100 * m:+.1f} [{100 * lo:+.1f}, {100 * hi:+.1f}] points")
    return 0


if __name__ == "__main__":
    sys.exit(main())
