"""Summarise strength runs as a Markdown table, with each line's target (issue #15).

    .venv/bin/python benchmarks/strength_table.py benchmarks/results

reads every ``NAME.json`` summary that ``benchmarks/strength.sh`` wrote into the
folder and prints one row per line: the first bot of the line-up (the one measured),
its win rate with the 95% CI clustered by deal, the deals played, the fair share, the
target and whether it is met. Summaries of ``benchmarks/fanti_paired.py`` runs (which
play the same games as the tournament of that line-up) give a row per variant; a name
ending in the deals played (``fanti2-expert-vs-hard-1000``) is that line's run.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

# line name -> (minimum win rate, minimum CI lower bound); None = no such condition.
# The targets of issue #15 (they raise those of issue #3).
TARGETS: dict[str, tuple[float | None, float | None]] = {
    "fantan4-heuristic-vs-random": (0.50, None),
    "fantan4-hard-vs-heuristic": (0.34, 0.32),
    "fantan4-hard-vs-random": (0.55, None),
    "fantan4-mixed-field": (0.40, None),
    "fanti2-heuristic-vs-random": (0.80, None),
    "fanti2-hard-vs-heuristic": (0.68, 0.50),
    "fantan6-hard-vs-heuristic": (0.20, 1 / 6),
    "fanti4-hard-vs-heuristic": (0.37, 0.25),
    "fantan4-expert-vs-hard": (None, 0.25),
    "fanti2-expert-vs-hard": (None, 0.50),
}


def verdict(name: str, rate: float, lo: float) -> str:
    """``met``, ``not met`` or ``-`` (a line without a target, e.g. a comparison)."""
    if name not in TARGETS:
        return "-"
    need_rate, need_lo = TARGETS[name]
    ok = (need_rate is None or rate >= need_rate) and (need_lo is None or lo > need_lo)
    parts = []
    if need_rate is not None:
        parts.append(f">= {need_rate:.0%}")
    if need_lo is not None:
        parts.append(f"CI low > {need_lo:.1%}")
    return f"{' and '.join(parts)}: {'met' if ok else 'NOT met'}"


def line_name(stem: str, deals: int) -> str:
    """The line a summary measures: ``fanti2-expert-vs-hard-1000`` is a 1,000-deal run
    of the line ``fanti2-expert-vs-hard``."""
    suffix = f"-{deals}"
    return stem[:-len(suffix)] if stem.endswith(suffix) else stem


def row(name: str, lineup: str, rate: float, lo: float, hi: float, deals: int,
        fair: float) -> str:
    return (f"| {name} | {lineup} | {rate:.1%} | {lo:.1%}-{hi:.1%} | {deals} | "
            f"{fair:.1%} | {verdict(line_name(name, deals), rate, lo)} |")


def paired(name: str, s: dict) -> list[str]:
    """Rows of a ``benchmarks/fanti_paired.py`` summary: each variant against the
    opponents, on the same duplicate deals a tournament of that line-up plays."""
    out = []
    fair = 1 / s["players"]
    for variant, r in s.items():
        if isinstance(r, dict) and {"win", "ci"} <= r.keys():
            others = ", ".join([s["opponents"]] * (s["players"] - 1))
            out.append(row(name, f"{variant}, {others}", r["win"], *r["ci"], s["deals"], fair))
    return out


def rows(folder: Path) -> list[str]:
    out = ["| line | line-up | win rate | 95% CI | deals | fair share | target |",
           "|---|---|---|---|---|---|---|"]
    for path in sorted(folder.glob("*.json")):
        try:
            s = json.loads(path.read_text())
        except (OSError, ValueError):
            continue
        if not isinstance(s, dict):
            continue
        if "bots" in s:
            b = s["bots"][0]
            out.append(row(path.stem, ", ".join(s["lineup"]), b["win_rate"], *b["ci95"],
                           s["deals"], s["fair_share"]))
        elif {"players", "opponents", "deals"} <= s.keys():
            out.extend(paired(path.stem, s))
    return out


if __name__ == "__main__":
    folder = Path(sys.argv[1] if len(sys.argv) > 1 else "benchmarks/results")
    print("\n".join(rows(folder)))
