"""Bot-only games in bulk: reproducible, parallel, summarised.

Every game is a function of ``(seed, game index)`` alone (RULINGS C-3): its deals, its
first dealer and every bot's seed are derived from those two numbers, so the same seed
and options give the same games -- byte for byte the same records -- whether they run
in one process or many, and in whatever order the workers finish.

>>> from parlour.simulate import SimConfig, run, Summary
>>> cfg = SimConfig("fantan", players=4, games=10, seed=1, bots=("greedy",) * 4)
>>> summary = Summary.of(cfg, run(cfg, workers=2))      # doctest: +SKIP
>>> summary.wins                                        # doctest: +SKIP
[3.0, 2.5, 2.0, 2.5]

Building blocks for other tools (the arena, research scripts): :func:`derive_seed`,
:func:`play_match` (one game with any agents) and :func:`play_game` (one game of a
configuration, by index).
"""

from __future__ import annotations

import concurrent.futures as cf
import hashlib
import multiprocessing
import signal
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from . import record
from .bots import make_bot
from .games import get_game
from .match import Match, Shuffler


def derive_seed(*parts: object) -> int:
    """A 63-bit seed from any parts (ints, strings), stable across runs and machines.

    Python's ``hash`` is salted per process, so a digest is used instead.
    """
    text = "/".join(str(p) for p in parts).encode("utf-8")
    return int.from_bytes(hashlib.blake2b(text, digest_size=8).digest(), "big") >> 1


@dataclass(frozen=True)
class SimConfig:
    """What to simulate: a game, its player count, rules, one bot name per seat, a seed.

    ``rules`` holds given options only (the defaults fill the rest); ``bots`` must have
    one name per seat.
    """

    game: str
    players: int
    games: int
    seed: int = 0
    bots: tuple[str, ...] = ()
    rules: dict[str, Any] = field(default_factory=dict)

    def full_rules(self) -> dict[str, Any]:
        return get_game(self.game).rules(self.players, self.rules)

    def seat_names(self) -> list[str]:
        return [f"{b} {s}" for s, b in enumerate(self.bots)]


@dataclass(frozen=True)
class GameResult:
    """One finished game: its record as one JSON line, and the numbers a summary needs."""

    index: int
    record: str
    totals: tuple[int, ...]
    winners: tuple[int, ...]
    round_scores: tuple[tuple[int, ...], ...]
    moves_per_round: tuple[int, ...]


def play_match(game: str, players: int, rules: dict[str, Any], agents: Sequence[Any],
               deal_seed: int | str, seats: Sequence[str] | None = None,
               meta: dict[str, Any] | None = None) -> Match:
    """Play one whole game with one agent per seat (anything with ``choose(view)``).

    The first dealer and every deck come from ``Shuffler(deal_seed)``.
    """
    shuffler = Shuffler(deal_seed)
    m = Match.new(get_game(game), players, rules, seats=seats, shuffler=shuffler, meta=meta)
    return m.play_out(agents, shuffler)


def play_game(config: SimConfig, index: int) -> GameResult:
    """Game number ``index`` of a configuration (seeds from ``(config.seed, index)`` only)."""
    agents = [make_bot(name, config.game, derive_seed(config.seed, index, "bot", s))
              for s, name in enumerate(config.bots)]
    meta = {"generator": "parlour simulate", "seed": config.seed, "game_index": index,
            "bots": list(config.bots)}
    m = play_match(config.game, config.players, config.full_rules(), agents,
                   derive_seed(config.seed, index, "deal"), config.seat_names(), meta)
    return GameResult(
        index=index,
        record=record.dumps(m),
        totals=tuple(m.totals),
        winners=tuple(m.winners or ()),
        round_scores=tuple(tuple(s) for s in m.scores()),
        moves_per_round=tuple(len(r.history) for r in m.rounds),
    )


def _play_chunk(config: SimConfig, start: int, stop: int) -> list[GameResult]:
    return [play_game(config, i) for i in range(start, stop)]


def chunk_size(games: int, workers: int) -> int:
    """Games per task: about eight tasks per worker (for balance), at most 64 games each."""
    return max(1, min(64, games // (workers * 8) or 1))


def run(config: SimConfig, workers: int = 1, chunk: int | None = None,
        progress: Callable[[int], None] | None = None) -> Iterator[GameResult]:
    """Play every game of ``config`` and yield the results in game order.

    With ``workers > 1`` chunks of games run in a process pool; finished chunks are held
    back until every earlier one is in, so the order never depends on timing.
    ``progress(n)`` is called with the number of games just finished.
    """
    if workers < 1:
        raise ValueError("workers must be at least 1")
    if len(config.bots) != config.players:
        raise ValueError(f"{config.players} players need {config.players} bots, "
                         f"not {len(config.bots)}")
    config.full_rules()  # check the rules once, before any process starts
    size = chunk or chunk_size(config.games, workers)
    bounds = [(a, min(a + size, config.games)) for a in range(0, config.games, size)]
    if workers == 1:
        for a, b in bounds:
            results = _play_chunk(config, a, b)
            if progress:
                progress(len(results))
            yield from results
        return
    # spawn: a clean interpreter per worker, safe next to the progress bar's thread
    ctx = multiprocessing.get_context("spawn")
    with cf.ProcessPoolExecutor(max_workers=workers, mp_context=ctx,
                                initializer=_ignore_interrupts) as pool:
        chunk_of = {pool.submit(_play_chunk, config, a, b): k for k, (a, b) in enumerate(bounds)}
        ready: dict[int, list[GameResult]] = {}
        next_chunk = 0
        pending = set(chunk_of)
        try:
            while pending:
                finished, pending = cf.wait(pending, return_when=cf.FIRST_COMPLETED)
                for f in finished:
                    ready[chunk_of[f]] = f.result()
                    if progress:
                        progress(len(ready[chunk_of[f]]))
                while next_chunk in ready:
                    yield from ready.pop(next_chunk)
                    next_chunk += 1
        finally:
            for f in pending:
                f.cancel()


def _ignore_interrupts() -> None:
    """In workers: leave Ctrl-C to the parent, which cancels what has not started."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


@dataclass
class Summary:
    """Totals over many games, per seat.

    ``wins``: games won, a shared win split equally among the winners (so they add up
    to the number of games); ``mean_round_score``: mean score per round;
    ``mean_moves_per_round``: mean number of moves (plays and passes) in a round.
    """

    game: str
    players: int
    bots: tuple[str, ...]
    games: int = 0
    rounds: int = 0
    moves: int = 0
    wins: list[float] = field(default_factory=list)
    score_sums: list[int] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.wins = self.wins or [0.0] * self.players
        self.score_sums = self.score_sums or [0] * self.players

    @classmethod
    def of(cls, config: SimConfig, results: Iterator[GameResult] | Sequence[GameResult]
           ) -> Summary:
        s = cls(config.game, config.players, tuple(config.bots))
        for r in results:
            s.add(r)
        return s

    def add(self, result: GameResult) -> None:
        self.games += 1
        share = 1.0 / len(result.winners)
        for w in result.winners:
            self.wins[w] += share
        for scores in result.round_scores:
            self.rounds += 1
            for seat, v in enumerate(scores):
                self.score_sums[seat] += v
        self.moves += sum(result.moves_per_round)

    @property
    def win_rates(self) -> list[float]:
        return [w / self.games if self.games else 0.0 for w in self.wins]

    @property
    def mean_round_score(self) -> list[float]:
        return [t / self.rounds if self.rounds else 0.0 for t in self.score_sums]

    @property
    def mean_moves_per_round(self) -> float:
        return self.moves / self.rounds if self.rounds else 0.0

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game, "players": self.players, "bots": list(self.bots),
            "games": self.games, "rounds": self.rounds, "wins": self.wins,
            "win_rates": self.win_rates, "mean_round_score": self.mean_round_score,
            "mean_moves_per_round": self.mean_moves_per_round,
        }
