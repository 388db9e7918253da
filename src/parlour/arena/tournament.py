"""A duplicate-deal tournament between bots.

``deals`` deals are drawn from the seed; each is played once per seat rotation
(:mod:`.lineup`), so a tournament of ``K`` deals at ``N`` players is ``K * N``
*games*. A game is one deal played with one seat rotation: as many rounds as the
rules' ``rounds``, which the tournament sets to 1 unless ``--rule rounds=K`` is
given. The summary does not depend on the backend or the number of workers.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from parlour import __version__
from parlour.arena import stats
from parlour.arena.backends import Keep, Progress, run_local, run_ray
from parlour.arena.jobs import GameResult, Job
from parlour.arena.lineup import lineup
from parlour.games import get_game

RESULTS_FORMAT = "parlour-results/1"
"""The ``format`` of a tournament's summary (``summary.json``, ``--json``): the results
file that ``benchmarks/leaderboard.py`` reads (docs/arena.md, "Results files")."""


Cells = dict[int, list[float]]
"""Win shares clustered by deal: each deal's ``[shares won, games played]``."""


def _cells() -> Cells:
    return defaultdict(lambda: [0.0, 0.0])


def _tally(cells: Cells, deal: int, share: float) -> None:
    cell = cells[deal]
    cell[0] += share
    cell[1] += 1


def _win_rate(cells: Cells) -> dict[str, Any]:
    """Games, wins, win rate and its 95% CI clustered by deal, as the summary gives
    them for a bot, a seat or a line-up entry alike."""
    clusters = [(v[0], v[1]) for v in cells.values()]
    rate, ci = stats.clustered_ci(clusters)
    return {"games": int(sum(v[1] for v in clusters)),
            "wins": round(sum(v[0] for v in clusters), 6),
            "win_rate": round(rate, 6),
            "ci95": [round(ci[0], 6), round(ci[1], 6)]}


@dataclass
class Tournament:
    """What to play: a game, a line-up and a set of duplicate deals."""

    game: str
    players: int
    bots: list[str]
    deals: int
    seed: int = 0
    rules: dict[str, Any] | None = None
    deal_set: str | None = None
    """A published deal set (:mod:`.deals`): fixes ``seed`` and ``deals``, checked
    against its published hash before any game."""

    def __post_init__(self) -> None:
        g = get_game(self.game)
        self.game = g.name
        self.deal_hash: str | None = None
        if self.deal_set is not None:
            from parlour.arena import deals

            found = deals.deal_set(self.deal_set)
            self.deal_hash = deals.check(found, self.players)
            self.deal_set, self.seed, self.deals = found.name, found.seed, found.deals
        given = {"rounds": 1, **(self.rules or {})}
        self.rules = g.rules(self.players, given)
        self.bots = lineup(self.bots, self.players)
        if self.deals < 1:
            raise ValueError("a tournament needs at least one deal")
        from parlour.bots.registry import check_lineup

        check_lineup(self.bots, self.game, self.players)  # fail before the first game

    def jobs(self) -> list[Job]:
        """Every game, deal by deal, rotation by rotation."""
        assert self.rules is not None
        rules = tuple(sorted(self.rules.items()))
        return [Job(self.game, self.players, rules, tuple(self.bots), self.seed, d, r)
                for d in range(self.deals) for r in range(self.players)]

    def run_id(self) -> dict[str, Any]:
        """What makes this tournament's games what they are (a resumed run must match)."""
        return {"command": "tournament", "parlour": __version__, "game": self.game,
                "players": self.players, "bots": self.bots, "deals": self.deals,
                "seed": self.seed, "rules": self.rules, "deal_set": self.deal_set}

    def run(self, backend: str = "local", workers: int = 1, address: str | None = None,
            progress: Progress | None = None, done: dict[int, GameResult] | None = None,
            keep: Keep | None = None) -> TournamentResult:
        """Play every game; ``done`` (games already played, by job index) and ``keep``
        (called as each game finishes) are for runs that can stop and resume (local)."""
        jobs = self.jobs()
        if backend == "local":
            results = run_local(jobs, workers, progress, done=done, keep=keep)
        elif backend == "ray":
            results = run_ray(jobs, address, workers, progress)
        else:
            raise ValueError(f"backend must be local or ray, not {backend!r}")
        return TournamentResult(self, results)


@dataclass
class TournamentResult:
    """The games of a tournament, in job order, and their summary."""

    tournament: Tournament
    games: list[GameResult]

    @property
    def lower_wins(self) -> bool:
        t = self.tournament
        assert t.rules is not None
        return get_game(t.game).lower_wins(t.rules)

    def names(self) -> list[str]:
        """The distinct bots, in line-up order."""
        return list(dict.fromkeys(self.tournament.bots))

    def scores_by_bot(self) -> dict[str, list[int]]:
        out: dict[str, list[int]] = defaultdict(list)
        for g in self.games:
            for s, b in enumerate(g.bots):
                out[b].append(g.totals[s])
        return out

    def summary(self) -> dict[str, Any]:
        """The tournament's results as one JSON object (see docs/arena.md)."""
        t = self.tournament
        n = t.players
        per_bot: dict[str, Cells] = {b: _cells() for b in self.names()}
        per_seat: list[Cells] = [_cells() for _ in range(n)]
        per_entry: list[Cells] = [_cells() for _ in range(n)]
        for g in self.games:
            shares = stats.win_shares(g.winners, n)
            for s, b in enumerate(g.bots):
                _tally(per_bot[b], g.deal, shares[s])
                _tally(per_seat[s], g.deal, shares[s])
            for s, e in enumerate(g.entries):
                _tally(per_entry[e], g.deal, shares[s])
        rated = stats.ratings((g.bots, stats.ranks(g.totals, self.lower_wins))
                              for g in self.games)
        scores = self.scores_by_bot()
        bots = []
        for b in self.names():
            mu, sigma = rated[b]
            bots.append({
                "name": b,
                **_win_rate(per_bot[b]),
                "mean_score": round(sum(scores[b]) / len(scores[b]), 6),
                "rating": round(mu, 4),
                "rating_sigma": round(sigma, 4),
            })
        entries = [{"entry": e, "bot": t.bots[e], **_win_rate(per_entry[e])} for e in range(n)]
        seats = [{"seat": s, **_win_rate(per_seat[s])} for s in range(n)]
        return {
            "format": RESULTS_FORMAT,
            "parlour": __version__,
            "game": t.game,
            "players": n,
            "deals": t.deals,
            "games": len(self.games),
            "seed": t.seed,
            "rules": t.rules,
            "lineup": list(t.bots),
            "fair_share": round(1 / n, 6),
            "bots": bots,
            "seats": seats,
            "entries": entries,
            "deal_set": t.deal_set,
            "deal_sha256": t.deal_hash,
        }

    def records(self) -> Sequence[str]:
        return [g.record for g in self.games]
