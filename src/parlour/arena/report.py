"""A tournament's results as a Rich table, JSON, a records file and charts."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from rich.table import Table

from parlour.arena.charts import legend_beside, save_chart
from parlour.arena.tournament import TournamentResult


def table(summary: dict[str, Any]) -> Table:
    """The per-bot results, ranked by win rate (the rating, with its uncertainty, beside
    it: after few games OpenSkill's means alone can order bots against their wins)."""
    t = Table(title=(f"{summary['game']}, {summary['players']} players, "
                     f"{summary['deals']} deals x {summary['players']} rotations "
                     f"= {summary['games']} games (fair share {summary['fair_share']:.1%})"),
              caption="ranked by win rate; rating: OpenSkill mean ± its uncertainty (sigma)")
    for col in ("bot", "games", "wins", "win %", "95% CI", "mean score", "rating"):
        t.add_column(col, justify="left" if col == "bot" else "right", no_wrap=True)
    for b in sorted(summary["bots"], key=lambda b: -b["win_rate"]):
        lo, hi = b["ci95"]
        t.add_row(b["name"], str(b["games"]), f"{b['wins']:g}", f"{100 * b['win_rate']:.1f}",
                  f"{100 * lo:.1f}-{100 * hi:.1f}", f"{b['mean_score']:.2f}",
                  f"{b['rating']:.1f}±{b['rating_sigma']:.1f}")
    return t


def seat_table(summary: dict[str, Any]) -> Table:
    t = Table(title="Seat advantage (win rate by seat, all bots)")
    for col in ("seat", "games", "win %", "95% CI"):
        t.add_column(col, justify="right", no_wrap=True)
    for s in summary["seats"]:
        lo, hi = s["ci95"]
        t.add_row(str(s["seat"]), str(s["games"]), f"{100 * s['win_rate']:.1f}",
                  f"{100 * lo:.1f}-{100 * hi:.1f}")
    return t


def write(result: TournamentResult, out: str | Path) -> list[Path]:
    """Write ``records.jsonl``, ``summary.json``, ``win_rates.png`` and ``scores.png``."""
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    summary = result.summary()
    paths = [out / "records.jsonl", out / "summary.json"]
    paths[0].write_text("".join(r + "\n" for r in result.records()), encoding="utf-8")
    paths[1].write_text(json.dumps(summary, indent=2) + "\n", encoding="utf-8")
    paths += charts(summary, result.scores_by_bot(), out, result.lower_wins)
    return paths


def charts(summary: dict[str, Any], scores: dict[str, list[int]], out: Path,
           lower_wins: bool | None = None) -> list[Path]:
    """Win rates with 95% CI bars against the fair share, and score distributions."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.ticker import PercentFormatter

    from parlour.games import GAMES

    names = [b["name"] for b in summary["bots"]]
    rates = [b["win_rate"] for b in summary["bots"]]
    err = [[r - b["ci95"][0] for r, b in zip(rates, summary["bots"], strict=True)],
           [b["ci95"][1] - r for r, b in zip(rates, summary["bots"], strict=True)]]
    fig, ax = plt.subplots(figsize=(max(4, 1.5 * len(names) + 2), 4))
    ax.bar(names, rates, yerr=err, capsize=6, color="#4c72b0")
    ax.axhline(summary["fair_share"], color="#c44e52", linestyle="--", label="fair share")
    ax.set_ylabel("win rate (95% CI, clustered by deal)")
    ax.yaxis.set_major_formatter(PercentFormatter(1.0))
    title = GAMES[summary["game"]].title if summary["game"] in GAMES else summary["game"]
    ax.set_title(f"{title}, {summary['players']} players, {summary['deals']} deals: win rates")
    legend_beside(ax)
    p1 = save_chart(fig, out / "win_rates.png")

    fig, ax = plt.subplots(figsize=(max(4, 1.5 * len(names) + 2), 4))
    ax.boxplot([scores[n] for n in names], showmeans=True)
    ax.set_xticks(range(1, len(names) + 1), names)
    lower = lower_wins
    ax.set_ylabel("game total" + ("" if lower is None else " (lower is better)" if lower
                                  else " (higher is better)"))
    ax.set_title("Score distribution per bot (box: quartiles; triangle: mean)")
    return [p1, save_chart(fig, out / "scores.png")]
