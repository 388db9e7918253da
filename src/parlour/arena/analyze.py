"""Variant balance report for game designers.

For each rule variant, the same seeded deals are played by the same bots (the
``heuristic`` bot in every seat by default), one round per deal, and the report
measures, with 95% confidence intervals where they apply:

* **seat advantage**: the win rate of each position counted from the dealer
  (position 1 sits after the dealer; in Fanti and with ``opening: any-seven`` it
  moves first), against the fair share 1/N;
* **first-player advantage**: the win rate of whoever made the round's first move
  (in Fan Tan with ``opening: seven-of-diamonds``, the holder of 7D);
* **round length**: moves per round;
* **shared wins**: how often the round's win is shared;
* **the game's own measures**: the ``METRICS`` of the ``analysis`` part of the game's
  kit (:mod:`parlour.measures`): passes per round in Fan Tan; in Fanti how often the
  +2 for most cards and the +1 for most Leaf cards are tied (FA-9);
* **score distributions**: every seat's round score, per variant.

Rounds are independent deals, so each deal is its own cluster in the intervals.
"""

from __future__ import annotations

import statistics
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from parlour.arena import stats
from parlour.arena.backends import Progress, run_local, run_ray
from parlour.arena.lineup import bot_seed, deal_seed
from parlour.bots import make_bot
from parlour.games import get_game, get_kit
from parlour.match import Shuffler
from parlour.measures import Measure


@dataclass(frozen=True)
class BalanceJob:
    """Play one deal of one variant."""

    game: str
    players: int
    rules: tuple[tuple[str, Any], ...]
    bots: tuple[str, ...]
    seed: int
    deal: int


@dataclass
class RoundFacts:
    """What the report needs from one round."""

    deal: int
    dealer: int
    first: int
    moves: int
    scores: list[int]
    winners: list[int]
    measures: dict[str, float]
    """The game's own measures (:func:`metrics`), by key."""


def metrics(game: str) -> tuple[Measure, ...]:
    """The per-round measures the game's kit offers (none if it has no ``analysis``)."""
    return tuple(get_kit(game).attr("analysis", "METRICS", ()))


def run_balance_job(job: BalanceJob) -> RoundFacts:
    """Play one round of a variant with the job's bots."""
    game = get_game(job.game)
    rules = dict(job.rules)
    n = job.players
    shuffler = Shuffler(deal_seed(job.seed, job.deal))
    dealer = shuffler.seat(n)
    r = game.new_round(rules, n, dealer, shuffler.deck())
    agents = [make_bot(b, job.game, bot_seed(job.seed, job.deal, s))
              for s, b in enumerate(job.bots)]
    while not r.is_over:
        p = r.current_player
        r.apply(agents[p].choose(r.view(p)))
    score = r.score()
    assert score is not None
    return RoundFacts(
        deal=job.deal, dealer=dealer, first=r.history[0][0], moves=len(r.history),
        scores=list(score), winners=game.winners(rules, score),
        measures={m.key: float(m.of(r)) for m in metrics(job.game)})


def variant_summary(game: str, players: int, facts: list[RoundFacts]) -> dict[str, Any]:
    """The balance figures of one variant."""
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


def _sd(xs: list[int] | list[float]) -> float:
    return statistics.stdev(xs) if len(xs) > 1 else 0.0


def analyze(game: str, players: int, deals: int, rules: dict[str, Any],
            compare: tuple[str, list[Any]] | None = None, bots: list[str] | None = None,
            seed: int = 0, workers: int = 1, backend: str = "local",
            address: str | None = None, progress: Progress | None = None
            ) -> dict[str, Any]:
    """Play every variant on the same deals and summarise each (see the module doc)."""
    g = get_game(game)
    names = list(bots or ["heuristic"])
    names = names + [names[-1]] * (players - len(names))
    variants: list[tuple[str, dict[str, Any]]] = []
    values = compare[1] if compare else [None]
    for v in values:
        given = {"rounds": 1, **rules}
        if compare:
            given[compare[0]] = v
        label = f"{compare[0]}={_show(v)}" if compare else "rules as given"
        variants.append((label, g.rules(players, given)))
    jobs = [BalanceJob(g.name, players, tuple(sorted(full.items())), tuple(names), seed, d)
            for _, full in variants for d in range(deals)]
    if backend == "ray":
        facts = run_ray(jobs, address, workers, progress, fn=run_balance_job)
    else:
        facts = run_local(jobs, workers, progress, fn=run_balance_job)
    report = {"game": g.name, "players": players, "deals": deals, "seed": seed,
              "bots": names, "variants": []}
    for i, (label, full) in enumerate(variants):
        part = facts[i * deals:(i + 1) * deals]
        report["variants"].append({"label": label, "rules": full,
                                   **variant_summary(g.name, players, part)})
    return report


def _show(v: Any) -> str:
    return str(v).lower() if isinstance(v, bool) else str(v)


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def _ci(c: list[float]) -> str:
    return f"{_pct(c[0])} - {_pct(c[1])}"


def markdown(report: dict[str, Any], charts: list[str] | None = None) -> str:
    """The report as Markdown: one column per variant."""
    vs = report["variants"]
    n = report["players"]
    head = "| | " + " | ".join(v["label"] for v in vs) + " |"
    sep = "|---|" + "---|" * len(vs)
    lines = [f"# Balance report: {report['game']}, {n} players",
             "",
             f"{report['deals']} deals per variant (seed {report['seed']}), one round each, "
             f"played by {', '.join(report['bots'])}. Win rates with 95% confidence "
             f"intervals; fair share {_pct(1 / n)}.",
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
    row("shared round wins", [_pct(v["shared_wins"]) for v in vs])
    row("round score (all seats)", [f"{v['scores']['mean']:.2f} ± {v['scores']['sd']:.2f} "
                                    f"[{v['scores']['min']}, {v['scores']['max']}]"
                                    for v in vs])
    for c in charts or []:
        lines += ["", f"![{Path(c).stem}]({Path(c).name})"]
    return "\n".join(lines) + "\n"


def write_charts(report: dict[str, Any], out: Path) -> list[Path]:
    """Seat advantage per variant (with CI bars) and score distributions, titled, with
    legends beside the plot (never over the bars) and whole-number score ticks."""
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
    ax.set_ylabel("round win rate (95% CI)")
    ax.yaxis.set_major_formatter(PercentFormatter(1.0))
    ax.set_title(f"{game.title}, {n} players: who wins by seat ({report['deals']} deals)")
    ax.legend(fontsize="small", loc="upper left", bbox_to_anchor=(1.01, 1.0))
    fig.tight_layout()
    p1 = out / "seat_advantage.png"
    fig.savefig(p1, dpi=100)
    plt.close(fig)

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
    ax.set_xlabel("round score per seat" + (f" ({better[lower.pop()]})" if len(lower) == 1
                                            else ""))
    ax.set_ylabel("share of seat-rounds")
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.yaxis.set_major_formatter(PercentFormatter(1.0))
    ax.set_title(f"{game.title}, {n} players: round scores")
    ax.legend(fontsize="small", loc="upper left", bbox_to_anchor=(1.01, 1.0))
    fig.tight_layout()
    p2 = out / "score_distribution.png"
    fig.savefig(p2, dpi=100)
    plt.close(fig)
    return [p1, p2]
