"""Statistics of a duplicate tournament.

* :func:`clustered_ci`: a win rate and its 95% confidence interval, clustered by
  deal. The games of one deal share their cards, so they are not independent; the
  interval treats each deal as one observation (the ratio estimator with a
  cluster-robust variance).
* :func:`ratings`: OpenSkill (Plackett-Luce) ratings from every game's ranking.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterable, Sequence

Z95 = 1.959963984540054


def clustered_ci(clusters: Iterable[tuple[float, float]]) -> tuple[float, tuple[float, float]]:
    """Win rate and 95% CI from ``(wins, games)`` per deal.

    The rate is ``sum(wins) / sum(games)``; its variance is
    ``D / (D - 1) * sum((w_d - p * g_d) ** 2) / G ** 2`` over the ``D`` deals
    (``G`` games in all). The interval is clipped to [0, 1]; with one deal it is
    the whole of [0, 1].
    """
    data = [(float(w), float(g)) for w, g in clusters if g > 0]
    games = sum(g for _, g in data)
    if games == 0:
        return 0.0, (0.0, 1.0)
    p = sum(w for w, _ in data) / games
    d = len(data)
    if d < 2:
        return p, (0.0, 1.0)
    var = d / (d - 1) * sum((w - p * g) ** 2 for w, g in data) / games ** 2
    half = Z95 * math.sqrt(var)
    return p, (max(0.0, p - half), min(1.0, p + half))


def win_shares(winners: Sequence[int], players: int) -> list[float]:
    """Each seat's share of a game's win: shared wins are split."""
    share = 1.0 / len(winners) if winners else 0.0
    return [share if s in winners else 0.0 for s in range(players)]


def ranks(totals: Sequence[int], lower_wins: bool) -> list[int]:
    """Competition ranks (1 = best; equal totals share a rank)."""
    key = [t if lower_wins else -t for t in totals]
    return [1 + sum(1 for o in key if o < k) for k in key]


def ratings(games: Iterable[tuple[Sequence[str], Sequence[int]]]
            ) -> dict[str, tuple[float, float]]:
    """OpenSkill ratings ``name -> (mu, sigma)`` from ``(bot per seat, rank per seat)``.

    Each seat is a team of one. A bot in several seats of one game plays with
    copies of its rating, and its update is the mean of the copies' updates.
    Games are rated in the order given.
    """
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    current: dict[str, tuple[float, float]] = {}
    for bots, rank in games:
        teams = []
        for b in bots:
            mu, sigma = current.get(b, (model.mu, model.sigma))
            teams.append([model.rating(mu=mu, sigma=sigma)])
        rated = model.rate(teams, ranks=list(rank))
        new: dict[str, list[tuple[float, float]]] = defaultdict(list)
        for b, team in zip(bots, rated, strict=True):
            new[b].append((team[0].mu, team[0].sigma))
        for b, vals in new.items():
            current[b] = (sum(v[0] for v in vals) / len(vals),
                          sum(v[1] for v in vals) / len(vals))
    return current


def paired_ci(diffs: Sequence[float]) -> tuple[float, tuple[float, float] | None]:
    """Mean of per-deal differences and its 95% CI (mean ± z · sd / √D).

    Each deal was played under both variants, so the difference is taken deal by deal
    and the deal's own luck cancels out; the interval is that of a mean of ``D``
    independent differences. None when there are fewer than two deals.
    """
    d = len(diffs)
    if d == 0:
        return 0.0, None
    mean = sum(diffs) / d
    if d < 2:
        return mean, None
    var = sum((x - mean) ** 2 for x in diffs) / (d - 1)
    half = Z95 * math.sqrt(var / d)
    return mean, (mean - half, mean + half)
