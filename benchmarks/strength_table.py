"""Summarise strength runs as a Markdown table, with each line's target (issue #15).

    .venv/bin/python benchmarks/strength_table.py benchmarks/results
    .venv/bin/python benchmarks/strength_table.py benchmarks/results --png docs/img/strength.png

reads every ``NAME.json`` summary that ``benchmarks/strength.sh`` wrote into the
folder and prints one row per line: the first bot of the line-up (the one measured),
its win rate with the 95% CI clustered by deal, the deals played, the fair share, the
target and whether it is met. Summaries of ``benchmarks/fanti_paired.py`` runs (which
play the same games as the tournament of that line-up) give a row per variant; a name
ending in the deals played (``fanti2-expert-vs-hard-1000``) is that line's run.

``--png`` also draws the lines that have a target as a chart: each win rate with its CI,
the fair share, the target and, where it was measured, the win rate of a player who
sees every hand (``CEILINGS``), so the gap that is information stays visible.
"""

from __future__ import annotations

import argparse
import json
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

# line name -> (win rate, deals, how) of `hard`'s own engine given the true deal as its
# only world: not a bot, the measure of what the hidden cards cost (docs/bots-lab.md).
CEILINGS: dict[str, tuple[float, int, str]] = {
    "fantan4-hard-vs-heuristic": (0.477, 150, "fantan_cheat_ceiling.py --opponents heuristic"),
    "fantan4-hard-vs-random": (0.640, 100, "fantan_cheat_ceiling.py --opponents random --replies random"),
    "fantan4-mixed-field": (0.423, 150, "fantan_cheat_ceiling.py --opponents heuristic,greedy,random"),
    "fantan6-hard-vs-heuristic": (0.296, 150, "fantan_cheat_ceiling.py --players 6 --opponents heuristic"),
    "fanti2-hard-vs-heuristic": (0.776, 67, "fanti_paired.py --variants cheat"),
    "fanti4-hard-vs-heuristic": (0.655, 40, "fanti_paired.py --players 4 --variants cheat"),
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


def lines(folder: Path) -> list[tuple[str, str, float, float, float, int, float]]:
    """(name, line-up, win rate, CI low, CI high, deals, fair share) of every summary."""
    out = []
    for path in sorted(folder.glob("*.json")):
        try:
            s = json.loads(path.read_text())
        except (OSError, ValueError):
            continue
        if not isinstance(s, dict):
            continue
        if "bots" in s:
            b = s["bots"][0]
            out.append((path.stem, ", ".join(s["lineup"]), b["win_rate"], *b["ci95"],
                        s["deals"], s["fair_share"]))
        elif {"players", "opponents", "deals"} <= s.keys():
            out.extend(paired(path.stem, s))
    return out


def paired(name: str, s: dict) -> list[tuple[str, str, float, float, float, int, float]]:
    """Lines of a ``benchmarks/fanti_paired.py`` summary: each variant against the
    opponents, on the same duplicate deals a tournament of that line-up plays."""
    out = []
    fair = 1 / s["players"]
    for variant, r in s.items():
        if isinstance(r, dict) and {"win", "ci"} <= r.keys():
            others = ", ".join([s["opponents"]] * (s["players"] - 1))
            out.append((name, f"{variant}, {others}", r["win"], *r["ci"], s["deals"], fair))
    return out


def rows(folder: Path) -> list[str]:
    out = ["| line | line-up | win rate | 95% CI | deals | fair share | target |",
           "|---|---|---|---|---|---|---|"]
    return out + [row(*line) for line in lines(folder)]


def label(name: str, lineup: str, deals: int) -> str:
    """``fantan4-hard-vs-heuristic`` -> "Fan Tan 4p: hard vs 3 heuristic (1,000 deals)"."""
    game = "Fan Tan" if name.startswith("fantan") else "Fanti"
    players = "".join(ch for ch in name.split("-")[0] if ch.isdigit())
    first, *others = [b.strip() for b in lineup.split(",")]
    if len(set(others)) == 1 and len(others) > 1:
        rest = f"{len(others)} {others[0]}"
    else:
        rest = ", ".join(others)
    return f"{game} {players}p: {first} vs {rest}\n({deals:,} deals)"


def chart(folder: Path, png: Path) -> int:
    """Draw every line with a target (its longest run) into ``png``; the lines drawn."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    best: dict[str, tuple] = {}
    for line in lines(folder):
        key = line_name(line[0], line[5])
        if key in TARGETS and (key not in best or line[5] > best[key][5]):
            best[key] = line
    names = sorted(best)
    fig, ax = plt.subplots(figsize=(9, 0.55 * len(names) + 1.6))
    for y, key in enumerate(names):
        _, lineup, rate, lo, hi, deals, fair = best[key]
        need_rate, need_lo = TARGETS[key]
        ok = verdict(key, rate, lo).endswith(": met")
        ax.errorbar(rate, y, xerr=[[rate - lo], [hi - rate]], fmt="o", capsize=3,
                    color="tab:green" if ok else "tab:blue", label=None)
        ax.plot([fair, fair], [y - 0.35, y + 0.35], color="grey", lw=1)
        target = need_rate if need_rate is not None else need_lo
        ax.plot(target, y, marker="|", ms=16, mew=2, color="tab:red")
        if key in CEILINGS:
            ax.plot(CEILINGS[key][0], y, marker="D", mfc="none", color="black")
    ax.set_yticks(range(len(names)), [label(k, best[k][1], best[k][5]) for k in names],
                  fontsize=8)
    ax.invert_yaxis()
    ax.set_xlabel("win rate (95% CI; one-round games, duplicate deals)")
    ax.xaxis.set_major_formatter(matplotlib.ticker.PercentFormatter(1.0))
    from matplotlib.lines import Line2D
    ax.legend(handles=[
        Line2D([], [], marker="o", ls="", color="tab:green", label="measured, target met"),
        Line2D([], [], marker="o", ls="", color="tab:blue", label="measured, not met"),
        Line2D([], [], marker="|", ms=12, mew=2, ls="", color="tab:red", label="target"),
        Line2D([], [], color="grey", label="fair share"),
        Line2D([], [], marker="D", mfc="none", ls="", color="black",
               label="a player who sees every hand")], fontsize=8, loc="upper right")
    ax.grid(axis="x", alpha=0.3)
    ax.set_title("Bot strength against issue #15's targets")
    fig.tight_layout()
    png.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(png, dpi=110)
    plt.close(fig)
    return len(names)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("folder", nargs="?", default="benchmarks/results", type=Path,
                    help="where the NAME.json summaries are")
    ap.add_argument("--png", type=Path, help="also draw the lines with a target here")
    a = ap.parse_args()
    if not a.folder.is_dir():
        ap.error(f"{a.folder} is not a folder")
    if a.png is not None and a.png.suffix.lower() not in (".png", ".svg"):
        ap.error("--png must end in .png or .svg")
    print("\n".join(rows(a.folder)))
    if a.png is not None:
        n = chart(a.folder, a.png)
        print(f"\ndrew {n} lines into {a.png}")


if __name__ == "__main__":
    main()
