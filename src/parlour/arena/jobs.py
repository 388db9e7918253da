"""One game of a tournament: a deal played with one seat rotation.

A :class:`Job` is plain data, so it can go to a worker process or a Ray task, and
:func:`run_job` is a pure function of it: the same job gives the same
:class:`GameResult` anywhere.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from parlour import __version__, record
from parlour.arena.lineup import bot_seed, deal_seed, seat_entries
from parlour.bots import make_bot
from parlour.games import get_game
from parlour.match import Match, Shuffler


@dataclass(frozen=True)
class DealJob:
    """One deal of a run, as plain data: the game, the table, the rules, the line-up
    and the run's seed, from which the deal's and the bots' seeds are derived
    (:mod:`.lineup`). A tournament's :class:`Job` and a balance report's job add what
    they play it with."""

    game: str
    players: int
    rules: tuple[tuple[str, Any], ...]
    bots: tuple[str, ...]
    seed: int
    deal: int


@dataclass(frozen=True)
class Job(DealJob):
    """Play deal ``deal`` with rotation ``rotation`` of the line-up ``bots``."""

    rotation: int


@dataclass
class GameResult:
    """What one game produced: who sat where and how it went."""

    deal: int
    rotation: int
    entries: list[int]
    """The line-up entry in each seat."""
    bots: list[str]
    """The bot in each seat."""
    totals: list[int]
    winners: list[int]
    round_scores: list[list[int]]
    moves: list[int]
    """Moves in each round."""
    first_players: list[int]
    """The seat that moved first in each round."""
    seconds: float
    record: str = field(repr=False)
    """The game record, one line of JSON (``parlour-record/1``)."""


Seat = Callable[[str, int, Match], Any]
"""Makes the agent of a seat from its bot name, its seed and the match it plays in."""


def _bot(game: str) -> Seat:
    return lambda name, seed, _match: make_bot(name, game, seed)


def run_job(job: Job, seat: Seat | None = None) -> GameResult:
    """Play one game of a tournament. ``seat`` makes each seat's agent (default: the
    named bot); benchmarks pass their own, e.g. a bot that sees the match's hands, and
    still play exactly the tournament's deals and seeds."""
    game = get_game(job.game)
    entries = seat_entries(job.players, job.rotation)
    seats = [job.bots[e] for e in entries]
    seeds = [bot_seed(job.seed, job.deal, s) for s in range(job.players)]
    ds = deal_seed(job.seed, job.deal)
    meta = {"arena": {"parlour": __version__, "seed": job.seed, "deal": job.deal,
                      "deal_seed": ds, "rotation": job.rotation, "bots": seats,
                      "bot_seeds": seeds}}
    m = Match.new(game, job.players, dict(job.rules), seats=seats, shuffler=Shuffler(ds),
                  meta=meta, deal=False)
    make = seat or _bot(job.game)
    agents = [make(name, sd, m) for name, sd in zip(seats, seeds, strict=True)]
    started = time.perf_counter()
    m.play_out(agents, Shuffler(derive_deck_seed(ds)))
    seconds = time.perf_counter() - started
    return GameResult(
        deal=job.deal, rotation=job.rotation, entries=entries, bots=seats,
        totals=m.totals, winners=list(m.winners or []),
        round_scores=m.scores(), moves=[len(r.history) for r in m.rounds],
        first_players=[r.history[0][0] for r in m.rounds],
        seconds=seconds, record=record.dumps(m),
    )


def derive_deck_seed(ds: int) -> int:
    """The seed of the decks of a deal (apart from the seed of its first dealer)."""
    return ds ^ 0x5DEECE66D
