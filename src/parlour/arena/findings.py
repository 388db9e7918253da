"""What a balance report found: differences from the baseline, ablations, in words.

Every cell of ``parlour analyze``'s grid plays the same deals, so a cell is compared
with the baseline (the first cell) deal by deal: the per-deal difference of a quantity
(the first mover's win share, moves per round, each of the game's measures) is averaged
and given a 95% interval (:func:`.stats.paired_ci`); the deal's luck cancels out, so
the interval is much narrower than the two cells' own intervals would suggest.

An ablation (:class:`parlour.measures.Ablation`) scores each game again with a rule
switched off; the seat the rule favours is compared with itself, with and without the
rule: its points and its win share, again deal by deal.

:func:`sentences` says each finding in one plain sentence: a difference whose interval
leaves out zero is a finding ("opening=any-seven (instead of seven-of-diamonds) lowers
the first mover's win rate by 4.4 points [2.6, 6.2]"); the rest is said in one
sentence per variant not to change measurably.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from parlour.arena import stats
from parlour.arena.charts import save_chart
from parlour.games import get_game
from parlour.measures import Ablation, Measure


def _first_share(f: Any, n: int) -> float:
    return stats.win_shares(f.winners, n)[f.first]


def differences(game: str, players: int, cells: Sequence[Sequence[Any]],
                measures: Sequence[Measure]) -> list[dict[str, Any]]:
    """Each cell after the first against the first, deal by deal (module doc)."""
    quantities: list[tuple[str, str, str, Any]] = [
        ("first_player", "the first mover's win rate", "share",
         lambda f: _first_share(f, players)),
        ("moves", "moves per round", "mean", lambda f: f.moves)]
    quantities += [(m.key, m.label, m.kind, lambda f, k=m.key: f.measures[k])
                   for m in measures]
    out = []
    base = cells[0]
    for i, cell in enumerate(cells[1:], start=1):
        for key, label, kind, of in quantities:
            pairs = [(of(b), of(c)) for b, c in zip(base, cell, strict=True)]
            mean, ci = stats.paired_ci([c - b for b, c in pairs])
            out.append({"cell": i, "key": key, "label": label, "kind": kind,
                        "baseline": sum(b for b, _ in pairs) / len(pairs),
                        "value": sum(c for _, c in pairs) / len(pairs),
                        "difference": mean, "ci95": list(ci) if ci else None})
    return out


def ablation(game: str, players: int, rule: Ablation, rules: dict[str, Any],
             facts: Sequence[Any]) -> dict[str, Any]:
    """The favoured seat with and without ``rule`` over one cell's games."""
    g = get_game(game)
    lower = g.lower_wins(rules)
    gains, wins = [], []
    with_points, without_points, with_wins, without_wins = [], [], [], []
    for f in facts:
        a = f.ablations[rule.key] if isinstance(f.ablations, dict) else None
        if a is None or a["seat"] is None:
            continue
        s = a["seat"]
        w_on = stats.win_shares(g.winners(rules, a["with"]), players)[s]
        w_off = stats.win_shares(g.winners(rules, a["without"]), players)[s]
        worth = a["with"][s] - a["without"][s]
        gains.append(-worth if lower else worth)
        wins.append(w_on - w_off)
        with_points.append(a["with"][s])
        without_points.append(a["without"][s])
        with_wins.append(w_on)
        without_wins.append(w_off)
    points, points_ci = stats.paired_ci(gains)
    rate, rate_ci = stats.paired_ci(wins)
    k = len(gains) or 1
    return {"key": rule.key, "label": rule.label, "who": rule.who,
            "cell": rules, "games": len(facts), "applied": len(gains),
            "worth": points, "worth_ci95": list(points_ci) if points_ci else None,
            "points_with": sum(with_points) / k, "points_without": sum(without_points) / k,
            "win_rate_with": sum(with_wins) / k, "win_rate_without": sum(without_wins) / k,
            "win_rate_difference": rate, "win_rate_ci95": list(rate_ci) if rate_ci else None}


def _num(x: float, kind: str) -> str:
    return f"{100 * x:.1f}" if kind == "share" else f"{x:.2f}"


def _level(x: float, kind: str) -> str:
    return f"{100 * x:.1f}%" if kind == "share" else f"{x:.2f}"


def _unit(kind: str) -> str:
    return " points" if kind == "share" else ""


def _against(report: dict[str, Any], cell: int) -> str:
    """``opening=any-seven (instead of seven-of-diamonds)``: what the cell changes."""
    base = report["variants"][0]["chosen"]
    mine = report["variants"][cell]["chosen"]
    changed = [k for k in mine if mine[k] != base[k]]
    now = " and ".join(f"{k}={_show(mine[k])}" for k in changed)
    was = " and ".join(_show(base[k]) for k in changed)
    return f"{now} (instead of {was})"


def _show(v: Any) -> str:
    return str(v).lower() if isinstance(v, bool) else str(v)


def _interval(ci: list[float] | None, kind: str, sign: float = 1.0) -> str:
    if ci is None:
        return " (too few deals for an interval)"
    lo, hi = sorted((sign * ci[0], sign * ci[1]))
    return f" [{_num(lo, kind)}, {_num(hi, kind)}]"


def sentences(report: dict[str, Any]) -> list[str]:
    """One plain sentence per finding (module doc)."""
    out = []
    by_cell: dict[int, list[dict[str, Any]]] = {}
    for d in report["differences"]:
        by_cell.setdefault(d["cell"], []).append(d)
    for cell, diffs in by_cell.items():
        what = _against(report, cell)
        same = []
        for d in diffs:
            ci = d["ci95"]
            if ci is None or ci[0] <= 0 <= ci[1]:
                same.append(d["label"])
                continue
            verb = "raises" if d["difference"] > 0 else "lowers"
            sign = 1.0 if d["difference"] > 0 else -1.0
            out.append(f"{what} {verb} {d['label']} by "
                       f"{_num(abs(d['difference']), d['kind'])}{_unit(d['kind'])}"
                       f"{_interval(ci, d['kind'], sign)} "
                       f"(from {_level(d['baseline'], d['kind'])} "
                       f"to {_level(d['value'], d['kind'])}).")
        if same:
            out.append(f"{what} does not measurably change {_list(same)} "
                       f"(each 95% interval of the difference includes zero).")
    for a in report.get("ablations", []):
        lead = f"{a['label'][0].upper()}{a['label'][1:]}"
        where = ""
        if len(report["variants"]) > 1:
            where = " with " + ", ".join(f"{k}={_show(a['cell'][k])}"
                                         for k in report["variants"][0]["chosen"]) + ","
        if not a["applied"]:
            out.append(f"{lead}{where} never applied in {a['games']} games.")
            continue
        out.append(
            f"{lead}{where} is worth {a['worth']:+.2f} points"
            f"{_interval(a['worth_ci95'], 'mean')} a game to {a['who']} "
            f"({a['points_with']:.2f} with it, {a['points_without']:.2f} without), and "
            f"{'raises' if a['win_rate_difference'] >= 0 else 'lowers'} their win rate by "
            f"{_num(abs(a['win_rate_difference']), 'share')} points"
            f"{_interval(a['win_rate_ci95'], 'share', 1.0 if a['win_rate_difference'] >= 0 else -1.0)}"
            f" ({_level(a['win_rate_without'], 'share')} without it, "
            f"{_level(a['win_rate_with'], 'share')} with it; it applied in {a['applied']} "
            f"of {a['games']} games).")
    return out


def _list(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " or " + items[-1]


def markdown(report: dict[str, Any]) -> list[str]:
    """The differences and ablations as Markdown tables (none when there are none)."""
    lines: list[str] = []
    if report["differences"]:
        lines += ["", "## Differences from the baseline", "",
                  f"Each variant against {report['variants'][0]['label']}, on the same deals "
                  f"(paired), with 95% intervals; win rates in percentage points.", "",
                  "| variant | quantity | baseline | variant | difference |",
                  "|---|---|---|---|---|"]
        for d in report["differences"]:
            ci = d["ci95"]
            diff = f"{'+' if d['difference'] >= 0 else ''}{_num(d['difference'], d['kind'])}"
            lines.append(f"| {report['variants'][d['cell']]['label']} | {d['label']} | "
                         f"{_level(d['baseline'], d['kind'])} | {_level(d['value'], d['kind'])}"
                         f" | {diff}{_interval(ci, d['kind'])} |")
    if report.get("ablations"):
        lines += ["", "## Rules switched off", "",
                  "Each game scored again without the rule; the seat it favours against "
                  "itself, with 95% intervals.", "",
                  "| rule | variant | favours | games it applied | points with / without "
                  "| worth | win rate with / without | difference |",
                  "|---|---|---|---|---|---|---|---|"]
        for a in report["ablations"]:
            cell = ", ".join(f"{k}={_show(a['cell'][k])}"
                             for k in report["variants"][0]["chosen"]) or "as given"
            lines.append(
                f"| {a['label']} | {cell} | {a['who']} | {a['applied']} of {a['games']} | "
                f"{a['points_with']:.2f} / {a['points_without']:.2f} | "
                f"{a['worth']:+.2f}{_interval(a['worth_ci95'], 'mean')} | "
                f"{_level(a['win_rate_with'], 'share')} / "
                f"{_level(a['win_rate_without'], 'share')} | "
                f"{100 * a['win_rate_difference']:+.1f}"
                f"{_interval(a['win_rate_ci95'], 'share')} |")
    return lines


def chart(report: dict[str, Any], out: Path) -> Path:
    """The first mover's win rate in each variant less the baseline's, with 95% bars."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    diffs = [d for d in report["differences"] if d["key"] == "first_player"]
    labels = [report["variants"][d["cell"]]["label"] for d in diffs]
    values = [100 * d["difference"] for d in diffs]
    err = [[100 * (d["difference"] - d["ci95"][0]) if d["ci95"] else 0 for d in diffs],
           [100 * (d["ci95"][1] - d["difference"]) if d["ci95"] else 0 for d in diffs]]
    fig, ax = plt.subplots(figsize=(8, 0.6 * len(diffs) + 2))
    ax.barh(range(len(diffs)), values, xerr=err, capsize=3)
    ax.axvline(0, color="black", linewidth=1)
    ax.set_yticks(range(len(diffs)), labels)
    ax.set_xlabel(f"first mover's win rate less {report['variants'][0]['label']} "
                  f"(percentage points, paired 95% CI)")
    ax.set_title(f"{get_game(report['game']).title}, {report['players']} players: "
                 f"differences from the baseline")
    return save_chart(fig, out / "differences.png")
