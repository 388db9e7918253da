"""Variant balance report for game designers.

The variants are a grid: every ``--compare KEY=V1,V2,...`` is a list of values, and
the lists are crossed (two keys of two values each make four cells); the first cell
is the **baseline**. Every cell plays the same seeded deals with the same bots (the
``heuristic`` bot in every seat by default), one game per deal (one round unless the
rules say ``rounds``), and the report measures, with 95% confidence intervals:

* **seat advantage**: the win rate of each position counted from the dealer
  (position 1 sits after the dealer; in Fanti and with ``opening: any-seven`` it
  moves first), against the fair share 1/N;
* **first-player advantage**: the win rate of whoever made the game's first move
  (in Fan Tan with ``opening: seven-of-diamonds``, the holder of 7D);
* **round length**: moves per round;
* **shared wins**: how often the win is shared;
* **the game's own measures**: the ``METRICS`` of the ``analysis`` part of the game's
  kit (:mod:`parlour.measures`): passes per round in Fan Tan; in Fanti how often the
  +2 for most cards and the +1 for most Leaf cards are tied (FA-9);
* **score distributions**: every seat's score, per cell;
* **differences from the baseline** (:mod:`.findings`), paired deal by deal, and the
  findings in words;
* **ablations** (``--ablate KEY``): a rule the kit's ``ABLATIONS`` declare, switched
  off by scoring each round again without it, so its worth to the seat it favours is
  measured on the very same games.

Games are independent deals, so each deal is its own cluster in the intervals.
"""

from __future__ import annotations

import itertools
import statistics
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from parlour.arena import findings, stats
from parlour.arena.backends import Keep, Progress, run_local, run_ray
from parlour.arena.charts import legend_beside, save_chart
from parlour.arena.jobs import DealJob
from parlour.arena.lineup import bot_seed, deal_seed
from parlour.bots import make_bot
from parlour.games import get_game, get_kit
from parlour.match import Match, Shuffler
from parlour.measures import Ablation, Measure

Compare = Sequence[tuple[str, Sequence[Any]]]
"""The grid's axes: each an option key and its values."""


@dataclass(frozen=True)
class BalanceJob(DealJob):
    """Play one deal of one cell of the grid."""

    ablate: tuple[str, ...] = ()


@dataclass
class RoundFacts:
    """What the report needs from one game (one deal of one cell)."""

    deal: int
    dealer: int
    first: int
    moves: float
    """Moves per round (the mean over the game's rounds)."""
    scores: list[int]
    winners: list[int]
    measures: dict[str, float]
    """The game's own measures (:func:`metrics`), by key, the mean over its rounds."""
    ablations: dict[str, dict[str, Any]] = field(default_factory=dict)
    """Per ``--ablate`` key: ``seat`` the rule favoured (or None), ``with`` and
    ``without`` (the round's score with the rule and without it)."""


def metrics(game: str) -> tuple[Measure, ...]:
    """The per-round measures the game's kit offers (none if it has no ``analysis``)."""
    return tuple(get_kit(game).attr("analysis", "METRICS", ()))


def ablations(game: str) -> dict[str, Ablation]:
    """The rules the game's kit lets ``--ablate`` switch off, by key."""
    return {a.key: a for a in get_kit(game).attr("analysis", "ABLATIONS", ())}


def run_balance_job(job: BalanceJob) -> RoundFacts:
    """Play one game of a cell with the job's bots (its first deal is the same in
    every cell, and so are the later ones when the cells play the same rounds)."""
    game = get_game(job.game)
    rules = dict(job.rules)
    shuffler = Shuffler(deal_seed(job.seed, job.deal))
    m = Match.new(game, job.players, rules, shuffler=shuffler)
    agents = [make_bot(b, job.game, bot_seed(job.seed, job.deal, s))
              for s, b in enumerate(job.bots)]
    m.play_out(agents, shuffler)
    rounds = m.rounds
    found = ablations(job.game)
    ablated: dict[str, dict[str, Any]] = {}
    for key in job.ablate:  # one round per game: the CLI refuses --ablate with rounds > 1
        r = rounds[-1]
        ablated[key] = {"seat": found[key].seat(r), "with": list(r.score() or []),
                        "without": list(found[key].score_without(r))}
    return RoundFacts(
        deal=job.deal, dealer=m.first_dealer, first=rounds[0].history[0][0],
        moves=statistics.fmean(len(r.history) for r in rounds),
        scores=list(m.totals), winners=list(m.winners or []),
        measures={ms.key: statistics.fmean(float(ms.of(r)) for r in rounds)
                  for ms in metrics(job.game)},
        ablations=ablated)


def variant_summary(game: str, players: int, facts: list[RoundFacts]) -> dict[str, Any]:
    """The balance figures of one cell."""
    n = players
    positions = []
    for pos in range(n):
        clusters = []
        for f in facts:
            seat = (f.dealer + 1 + pos) % n
            clusters.append((stats.win_shares(f.winners, n)[seat], 1.0))
        rate, ci = stats.clustered_ci(clusters)
        positions.append({"position": pos + 1, "win_rate": rate, "ci95": list(ci)})
    first_rate, first_ci = stats.clustered_ci(
        (stats.win_shares(f.winners, n)[f.first], 1.0) for f in facts)
    moves = [f.moves for f in facts]
    scores = [s for f in facts for s in f.scores]
    out: dict[str, Any] = {
        "rounds": len(facts),
        "positions": positions,
        "first_player": {"win_rate": first_rate, "ci95": list(first_ci)},
        "moves": {"mean": statistics.fmean(moves), "sd": _sd(moves)},
        "scores": {"mean": statistics.fmean(scores), "sd": _sd(scores),
                   "min": min(scores), "max": max(scores)},
        "shared_wins": sum(1 for f in facts if len(f.winners) > 1) / len(facts),
        "score_values": scores,
    }
    for m in metrics(game):
        values = [f.measures[m.key] for f in facts]
        if m.kind == "share":
            out[m.key] = statistics.fmean(values)
        else:
            out[m.key] = {"mean": statistics.fmean(values), "sd": _sd(values)}
    return out


def _sd(xs: Sequence[float]) -> float:
    return statistics.stdev(xs) if len(xs) > 1 else 0.0


def grid(game: str, players: int, rules: dict[str, Any], compare: Compare | None
         ) -> list[tuple[str, dict[str, Any], dict[str, Any]]]:
    """Every cell of the grid, baseline first: ``(label, compared values, full rules)``."""
    g = get_game(game)
    axes = list(compare or [])
    cells = []
    for values in itertools.product(*(vals for _, vals in axes)):
        chosen = {k: v for (k, _), v in zip(axes, values, strict=True)}
        label = ", ".join(f"{k}={show(v)}" for k, v in chosen.items()) or "rules as given"
        cells.append((label, chosen, g.rules(players, {"rounds": 1, **rules, **chosen})))
    return cells


def jobs_of(game: str, players: int, deals: int, rules: dict[str, Any],
            compare: Compare | None, names: Sequence[str], seed: int,
            ablate: Sequence[str] = ()) -> list[BalanceJob]:
    """Every game to play, cell by cell, deal by deal."""
    g = get_game(game)
    return [BalanceJob(g.name, players, tuple(sorted(full.items())), tuple(names), seed, d,
                       tuple(ablate))
            for _, _, full in grid(game, players, rules, compare) for d in range(deals)]


def run_id(game: str, players: int, deals: int, rules: dict[str, Any], compare: Compare,
           bots: Sequence[str], seed: int, ablate: Sequence[str]) -> dict[str, Any]:
    """What makes a report's games what they are (a resumed run must match)."""
    from parlour import __version__

    return {"command": "analyze", "parlour": __version__, "game": get_game(game).name,
            "players": players, "deals": deals, "rules": rules,
            "compare": [[k, list(v)] for k, v in compare],
            "bots": lineup_of(bots, players), "seed": seed, "ablate": list(ablate)}


def lineup_of(bots: Sequence[str] | None, players: int) -> list[str]:
    names = list(bots or ["heuristic"])
    return names + [names[-1]] * (players - len(names))


def analyze(game: str, players: int, deals: int, rules: dict[str, Any],
            compare: Compare | tuple[str, Sequence[Any]] | None = None,
            bots: list[str] | None = None, seed: int = 0, workers: int = 1,
            backend: str = "local", address: str | None = None,
            progress: Progress | None = None, ablate: Sequence[str] = (),
            done: dict[int, RoundFacts] | None = None, keep: Keep | None = None
            ) -> dict[str, Any]:
    """Play every cell on the same deals and summarise each (see the module doc).
    ``done``: games already played, by job index (a resumed run); ``keep(index, facts)``
    is called as each game finishes (local backend)."""
    g = get_game(game)
    if compare and isinstance(compare[0], str):  # one axis, the older call
        compare = [compare]  # type: ignore[list-item]
    axes: Compare = compare or []  # type: ignore[assignment]
    names = lineup_of(bots, players)
    cells = grid(g.name, players, rules, axes)
    jobs = jobs_of(g.name, players, deals, rules, axes, names, seed, ablate)
    if backend == "ray":
        facts = run_ray(jobs, address, workers, progress, fn=run_balance_job)
    else:
        facts = run_local(jobs, workers, progress, fn=run_balance_job, done=done, keep=keep)
    report: dict[str, Any] = {
        "game": g.name, "players": players, "deals": deals, "seed": seed, "bots": names,
        "compare": [[k, list(v)] for k, v in axes], "variants": [],
        "games": [asdict(f) for f in facts]}
    for i, (label, chosen, full) in enumerate(cells):
        part = facts[i * deals:(i + 1) * deals]
        report["variants"].append({"label": label, "chosen": chosen, "rules": full,
                                   **variant_summary(g.name, players, part)})
    per_cell = [facts[i * deals:(i + 1) * deals] for i in range(len(cells))]
    report["differences"] = findings.differences(g.name, players, per_cell, metrics(g.name))
    found = ablations(g.name)
    report["ablations"] = [findings.ablation(g.name, players, found[k], cells[i][2], part)
                           for k in ablate for i, part in enumerate(per_cell)]
    report["findings"] = findings.sentences(report)
    return report


def show(v: Any) -> str:
    return str(v).lower() if isinstance(v, bool) else str(v)


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def _ci(c: list[float]) -> str:
    return f"{_pct(c[0])} - {_pct(c[1])}"


def markdown(report: dict[str, Any], charts: list[str] | None = None) -> str:
    """The report as Markdown: one column per cell, the differences from the baseline,
    the ablations, the charts, and the findings in words at the end."""
    vs = report["variants"]
    n = report["players"]
    head = "| | " + " | ".join(v["label"] for v in vs) + " |"
    sep = "|---|" + "---|" * len(vs)
    lines = [f"# Balance report: {report['game']}, {n} players",
             "",
             f"{report['deals']} deals per variant (seed {report['seed']}), the same deals "
             f"in every variant, played by {', '.join(report['bots'])}. Win rates with 95% "
             f"confidence intervals; fair share {_pct(1 / n)}.",
             "", head, sep]

    def row(name: str, cells: list[str]) -> None:
        lines.append(f"| {name} | " + " | ".join(cells) + " |")

    for p in range(n):
        label = f"position {p + 1} after the dealer" + (" (the dealer)" if p == n - 1 else "")
        row(label, [f"{_pct(v['positions'][p]['win_rate'])} ({_ci(v['positions'][p]['ci95'])})"
                    for v in vs])
    row("first player wins", [f"{_pct(v['first_player']['win_rate'])} "
                              f"({_ci(v['first_player']['ci95'])})" for v in vs])
    row("moves per round", [f"{v['moves']['mean']:.1f} ± {v['moves']['sd']:.1f}" for v in vs])
    for m in metrics(report["game"]):
        if m.kind == "share":
            row(m.label, [_pct(v[m.key]) for v in vs])
        else:
            row(m.label, [f"{v[m.key]['mean']:.1f} ± {v[m.key]['sd']:.1f}" for v in vs])
    row("shared wins", [_pct(v["shared_wins"]) for v in vs])
    row("score (all seats)", [f"{v['scores']['mean']:.2f} ± {v['scores']['sd']:.2f} "
                              f"[{v['scores']['min']}, {v['scores']['max']}]" for v in vs])
    lines += findings.markdown(report)
    for c in charts or []:
        lines += ["", f"![{Path(c).stem}]({Path(c).name})"]
    lines += ["", "## Findings", ""] + [f"- {s}" for s in report["findings"]]
    return "\n".join(lines) + "\n"


def write_charts(report: dict[str, Any], out: Path) -> list[Path]:
    """Seat advantage per cell (with CI bars), score distributions and, with more than
    one cell, the differences from the baseline; titled, with legends beside the plot
    (never over the bars) and whole-number score ticks."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np
    from matplotlib.ticker import MaxNLocator, PercentFormatter

    vs = report["variants"]
    n = report["players"]
    game = get_game(report["game"])
    x = np.arange(n)
    width = 0.8 / len(vs)
    fig, ax = plt.subplots(figsize=(max(6, 1.2 * n + 4), 4))
    for i, v in enumerate(vs):
        rates = [p["win_rate"] for p in v["positions"]]
        err = [[r - p["ci95"][0] for r, p in zip(rates, v["positions"], strict=True)],
               [p["ci95"][1] - r for r, p in zip(rates, v["positions"], strict=True)]]
        ax.bar(x + i * width, rates, width, yerr=err, capsize=3, label=v["label"])
    ax.axhline(1 / n, color="black", linestyle="--", linewidth=1, label="fair share")
    ax.set_xticks(x + width * (len(vs) - 1) / 2, [str(p + 1) for p in range(n)])
    ax.set_xlabel("position after the dealer (1 = the seat after the dealer)")
    ax.set_ylabel("win rate (95% CI)")
    ax.yaxis.set_major_formatter(PercentFormatter(1.0))
    ax.set_title(f"{game.title}, {n} players: who wins by seat ({report['deals']} deals)")
    legend_beside(ax)
    p1 = save_chart(fig, out / "seat_advantage.png")

    fig, ax = plt.subplots(figsize=(8, 4))
    lo = min(min(v["score_values"]) for v in vs)
    hi = max(max(v["score_values"]) for v in vs)
    bins = np.arange(lo - 0.5, hi + 1.5, max(1, (hi - lo + 1) // 30))
    lower = {game.lower_wins(v["rules"]) for v in vs}
    better = {True: "lower is better", False: "higher is better"}
    for v in vs:  # variants that score differently (points, chips) say so each
        tail = f" ({better[game.lower_wins(v['rules'])]})" if len(lower) > 1 else ""
        ax.hist(v["score_values"], bins=bins, histtype="step", linewidth=1.5,
                density=True, label=v["label"] + tail)
    ax.set_xlabel("score per seat" + (f" ({better[lower.pop()]})" if len(lower) == 1
                                      else ""))
    ax.set_ylabel("share of seat-games")
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.yaxis.set_major_formatter(PercentFormatter(1.0))
    ax.set_title(f"{game.title}, {n} players: scores")
    legend_beside(ax)
    p2 = save_chart(fig, out / "score_distribution.png")
    paths = [p1, p2]
    if len(vs) > 1:
        paths.append(findings.chart(report, out))
    return paths
