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

Two engines play the games (``SimConfig.engine``):

* ``step`` -- the bots named in ``bots``, through :class:`~parlour.match.Match` and
  ``Round.apply``; every bot's seed is derived from ``(seed, index)``;
* ``batch`` -- the numba batch engine (:mod:`parlour.batch`), uniformly random play only
  (every seat ``random``), many games per kernel call. Its choices come from its own
  counter-based stream (:mod:`parlour.batch.stream`), not from the ``random`` bots'
  generators, so for the same seed the two engines play *different* games; each is
  reproducible from ``(seed, index)`` alone.
* ``auto`` -- ``batch`` when every seat is ``random``, else ``step``
  (:func:`choose_engine`).

Building blocks for other tools (the arena, research scripts): :func:`derive_seed`,
:func:`play_match` (one game with any agents) and :func:`play_game` (one game of a
configuration, by index).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from parlour import record, stopping
from parlour.bots import make_bot
from parlour.games import get_game, get_kit
from parlour.match import Match, Shuffler


def derive_seed(*parts: object) -> int:
    """A 63-bit seed from any parts (ints, strings), stable across runs and machines.

    Python's ``hash`` is salted per process, so a digest is used instead.
    """
    text = "/".join(str(p) for p in parts).encode("utf-8")
    return int.from_bytes(hashlib.blake2b(text, digest_size=8).digest(), "big") >> 1


ENGINES = ("step", "batch", "auto")
BATCH_BOT = "random"
"""The only bot the batch engine plays: uniformly random legal moves."""
DEFAULT_BATCH = 4096
"""Games per kernel call of the batch engine (speed and memory only, never results)."""


def choose_engine(engine: str, bots: Sequence[str], game: str | None = None,
                  rules: dict[str, Any] | None = None) -> str:
    """``step`` or ``batch`` for ``engine`` (``step``, ``batch`` or ``auto``) and these bots.

    ``auto`` is ``batch`` when every seat is ``random`` and ``game`` (when given) has a
    batch kernel in its kit; ``batch`` with any other bot, or for a game without one, is
    a :class:`ValueError` that says why. Rules the compiled kernels do not serve (a cut
    pack, :meth:`parlour.options.OptionSet.compiled_refusal`) play on ``step``.
    """
    if engine not in ENGINES:
        raise ValueError(f"unknown engine {engine!r}; choose one of: {', '.join(ENGINES)}")
    all_random = bool(bots) and all(b == BATCH_BOT for b in bots)
    kernel = game is None or get_kit(game).attr("kernel", "BATCH") is not None
    refusal = (get_kit(game).game.options.compiled_refusal(rules)
               if game is not None and rules else None)
    if engine == "auto":
        if refusal:
            return "step"
        return "batch" if all_random and kernel else "step"
    if engine == "batch" and not kernel:
        raise ValueError(f"{get_kit(game).game.title} has no batch engine; use --engine step")
    if engine == "batch" and refusal:
        raise ValueError(refusal.replace("the step engine", "--engine step"))
    if engine == "batch" and not all_random:
        others = [f"{b} (seat {s})" for s, b in enumerate(bots) if b != BATCH_BOT]
        raise ValueError("the batch engine plays uniformly random moves only: every seat must "
                         f"be {BATCH_BOT!r}, not {', '.join(others)}; use --engine step "
                         "for other bots")
    return engine


@dataclass(frozen=True)
class SimConfig:
    """What to simulate: a game, its player count, rules, one bot name per seat, a seed.

    ``rules`` holds given options only (the defaults fill the rest); ``bots`` must have
    one name per seat. ``engine`` is ``step``, ``batch`` or ``auto`` (module docstring);
    ``batch`` is the batch engine's games per kernel call.
    """

    game: str
    players: int
    games: int
    seed: int = 0
    bots: tuple[str, ...] = ()
    rules: dict[str, Any] = field(default_factory=dict)
    engine: str = "step"
    batch: int = DEFAULT_BATCH

    def full_rules(self) -> dict[str, Any]:
        return get_game(self.game).rules(self.players, self.rules)

    def seat_names(self) -> list[str]:
        return [f"{b} {s}" for s, b in enumerate(self.bots)]

    def resolved_engine(self) -> str:
        """``step`` or ``batch``: what ``engine`` means for these bots."""
        return choose_engine(self.engine, self.bots, self.game, self.full_rules())


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


@dataclass
class Chunk:
    """Consecutive games ``start .. start + count - 1`` of a run, as one task returns them.

    The step engine gives ``results`` (one :class:`GameResult` each); the batch engine
    gives its arrays in ``arrays`` (a :class:`parlour.batch.BatchResult`) and, when asked,
    the records as JSON lines in ``lines``. :meth:`results_list` gives game results for
    both; :meth:`Summary.add_chunk` reads the arrays without building them.
    """

    start: int
    count: int
    results: list[GameResult] | None = None
    arrays: Any = None
    lines: list[str] | None = None

    def records(self) -> list[str]:
        """Each game's record as one JSON line (``""`` where none was written)."""
        if self.results is not None:
            return [r.record for r in self.results]
        return self.lines if self.lines is not None else [""] * self.count

    def results_list(self) -> list[GameResult]:
        if self.results is not None:
            return self.results
        res, lines = self.arrays, self.records()
        totals = res.totals.tolist()
        scores = res.scores.tolist()
        moves = res.moves.tolist()
        winners = [[s for s, w in enumerate(row) if w] for row in res.winners.tolist()]
        return [GameResult(self.start + k, lines[k], tuple(totals[k]), tuple(winners[k]),
                           tuple(map(tuple, scores[k])), tuple(moves[k]))
                for k in range(self.count)]


def batch_chunk(config: SimConfig, start: int, stop: int, records: bool = True) -> Chunk:
    """Games ``start .. stop - 1`` of ``config`` played by the batch engine (random play).

    Each game's record (when ``records``) is the batch engine's ``parlour-record/1``
    record with the seats named as :meth:`SimConfig.seat_names` names them and ``meta``
    as the step engine writes it, plus ``"engine": "batch"``.
    """
    from parlour import batch  # numba: imported only when the batch engine is used

    res = batch.simulate(config.game, config.players, config.rules, stop - start, config.seed,
                         batch=config.batch, records=records, first_game=start)
    lines = None
    if records:
        assert res.records is not None
        seats = config.seat_names()
        lines = []
        for k, rec in enumerate(res.records):
            rec["seats"] = seats
            rec["meta"] = {"generator": "parlour simulate", "engine": "batch",
                           "seed": config.seed, "game_index": start + k,
                           "bots": list(config.bots)}
            lines.append(json.dumps(rec, ensure_ascii=False, separators=(",", ":")))
        res.records = None  # the lines hold them; do not send them twice between processes
    return Chunk(start, stop - start, arrays=res, lines=lines)


def play_chunk(config: SimConfig, start: int, stop: int, records: bool = True) -> Chunk:
    """Games ``start .. stop - 1`` of ``config``, by its engine (``records``: batch only;
    the step engine always writes them)."""
    if config.resolved_engine() == "batch":
        return batch_chunk(config, start, stop, records)
    return Chunk(start, stop - start, results=[play_game(config, i) for i in range(start, stop)])


def chunk_size(games: int, workers: int, engine: str = "step",
               batch: int = DEFAULT_BATCH) -> int:
    """Games per task: about eight tasks per worker (for balance), at most 64 games each
    for the step engine and at most ``batch`` for the batch engine."""
    most = batch if engine == "batch" else 64
    return max(1, min(most, games // (workers * 8) or 1))


def run_chunks(config: SimConfig, workers: int = 1, chunk: int | None = None,
               progress: Callable[[int], None] | None = None,
               records: bool = True, first: int = 0) -> Iterator[Chunk]:
    """Play every game of ``config`` from number ``first`` on (a resumed run) and yield
    them in chunks, in game order.

    With ``workers > 1`` chunks of games run in a process pool; finished chunks are held
    back until every earlier one is in, so the order never depends on timing.
    ``progress(n)`` is called with the number of games just finished. With
    ``records=False`` the batch engine writes no records (faster); the step engine
    always writes them.
    """
    if workers < 1:
        raise ValueError("workers must be at least 1")
    if len(config.bots) != config.players:
        raise ValueError(f"{config.players} players need {config.players} bots, "
                         f"not {len(config.bots)}")
    if config.batch < 1:
        raise ValueError("batch must be at least 1")
    config.full_rules()  # check the rules and the engine once, before any process starts
    engine = config.resolved_engine()
    size = chunk or chunk_size(config.games, workers, engine, config.batch)
    bounds = [(a, min(a + size, config.games)) for a in range(first, config.games, size)]
    if workers == 1:
        for a, b in bounds:
            ch = play_chunk(config, a, b, records)
            if progress:
                progress(ch.count)
            yield ch
        return
    # spawn: a clean interpreter per worker, safe next to the progress bar's thread; a
    # stop (Ctrl-C, SIGTERM as parlour.stopping raises it, or the caller closing this
    # generator) terminates every worker at once instead of waiting for the queue
    pool = stopping.worker_pool(workers)
    complete = False
    try:
        ready: dict[int, Chunk] = {}
        next_chunk = 0
        tasks = [(config, k, a, b, records) for k, (a, b) in enumerate(bounds)]
        for k, ch in pool.imap_unordered(_numbered_chunk, tasks):
            ready[k] = ch
            if progress:
                progress(ch.count)
            while next_chunk in ready:
                yield ready.pop(next_chunk)
                next_chunk += 1
        complete = True
        pool.close()
    except KeyboardInterrupt:
        stopping.hold()  # a second Ctrl-C must not cut the clean-up short
        raise
    finally:
        if not complete:
            pool.terminate()
        pool.join()


def _numbered_chunk(task: tuple[SimConfig, int, int, int, bool]) -> tuple[int, Chunk]:
    config, k, start, stop, records = task
    return k, play_chunk(config, start, stop, records)


def run(config: SimConfig, workers: int = 1, chunk: int | None = None,
        progress: Callable[[int], None] | None = None,
        records: bool = True) -> Iterator[GameResult]:
    """Play every game of ``config`` and yield the results in game order.

    :func:`run_chunks`, one :class:`GameResult` at a time. With ``records=False`` the
    batch engine leaves ``GameResult.record`` empty.
    """
    for ch in run_chunks(config, workers, chunk, progress, records):
        yield from ch.results_list()


WIN_UNITS = 840
"""A game's win in whole units: divisible by 1..8, every possible number of winners."""


@dataclass
class Summary:
    """Totals over many games, per seat.

    ``wins``: games won, a shared win split equally among the winners (so they add up
    to the number of games); ``mean_round_score``: mean score per round;
    ``mean_moves_per_round``: mean number of moves (plays and passes) in a round.

    Shares are counted exactly, in 1/840ths of a game (840 is divisible by every
    possible number of winners, 1 to 8), so the totals do not depend on the order or
    the grouping in which games are added: one at a time (:meth:`add`) or a batch
    engine chunk at once (:meth:`add_chunk`).
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
        self._units = [round(w * WIN_UNITS) for w in self.wins]

    @classmethod
    def of(cls, config: SimConfig, results: Iterator[GameResult] | Sequence[GameResult]
           ) -> Summary:
        s = cls(config.game, config.players, tuple(config.bots))
        for r in results:
            s.add(r)
        return s

    def add(self, result: GameResult) -> None:
        self.games += 1
        share = WIN_UNITS // len(result.winners)
        for w in result.winners:
            self._units[w] += share
            self.wins[w] = self._units[w] / WIN_UNITS
        for scores in result.round_scores:
            self.rounds += 1
            for seat, v in enumerate(scores):
                self.score_sums[seat] += v
        self.moves += sum(result.moves_per_round)

    def add_chunk(self, chunk: Chunk) -> None:
        """Every game of a chunk; a batch engine chunk is added from its arrays at once."""
        if chunk.results is not None:
            for r in chunk.results:
                self.add(r)
            return
        res = chunk.arrays
        won = res.winners
        share = WIN_UNITS // won.sum(axis=1)
        units = (won * share[:, None]).sum(axis=0).tolist()
        sums = res.scores.sum(axis=(0, 1), dtype="int64").tolist()
        for seat in range(self.players):
            self._units[seat] += units[seat]
            self.wins[seat] = self._units[seat] / WIN_UNITS
            self.score_sums[seat] += sums[seat]
        self.games += chunk.count
        self.rounds += res.scores.shape[0] * res.scores.shape[1]
        self.moves += int(res.moves.sum(dtype="int64"))

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
