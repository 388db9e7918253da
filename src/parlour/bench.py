"""Benchmarks: random playouts (step and batch engines), search speed, scaling, yardstick.

:func:`random_playouts` measures whole rounds of uniformly random legal moves, made the
way every bot and tool drives a game -- ``new_round``, ``legal_moves``, ``apply`` (which
checks legality) -- in one process. Decks are shuffled before the clock starts, so the
figure is the engine's, not the shuffler's.

>>> from parlour.bench import random_playouts
>>> r = random_playouts("fantan", players=4, seconds=0.2)
>>> r.rounds > 0 and r.moves > r.rounds
True

The rest builds ``parlour bench``'s report (:func:`report`), every figure measured in
the same run:

* :func:`playouts` -- random-playout rounds/s and moves/s of either engine: ``step``
  (:func:`random_playouts`) or ``batch`` (:func:`parlour.batch.speed`, numba kernels);
* :func:`search_speed` -- ISMCTS iterations per second on a fixed mid-round position
  (:func:`mid_round`), through the bot registry (``ismcts:N``);
* :func:`scaling` -- time per round at every player count (Fan Tan 3..8, Fanti 2..4;
  in a report, measured in interleaved slices: :data:`SCALING_PASSES`);
* the yardstick (:mod:`parlour.yardstick`): OpenSpiel's C++ ``hearts`` and
  ``crazy_eights`` under random play, measured before and after the parlour figures;
  each parlour figure is divided by the mean of both (``vs_openspiel``), so load that
  comes and goes during the run weighs on both sides.
"""

from __future__ import annotations

import os
import platform
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from typing import Any

from parlour import __version__
from parlour.game import Round, is_pass
from parlour.games import get_game, get_kit

DECK_POOL = 256
"""Distinct decks prepared before timing, dealt in turn."""
ENGINES = ("step", "batch")
DEFAULT_BATCH = 1024
"""Batch engine games per kernel call for benchmarks (the fastest size measured here)."""
SCALING_PASSES = 3
"""The scaling section measures every player count in this many interleaved slices (of
``seconds / SCALING_PASSES`` each), so load that comes and goes spreads over all of them."""
SEARCH_BOT = "ismcts"
SEARCH_ITERATIONS = 200
"""Iterations per decision in :func:`search_speed`: each decision also builds the
search's pool of sampled worlds, as in play, so that cost is counted too."""


@dataclass(frozen=True)
class BenchResult:
    """One measurement. ``seconds`` is the time actually measured (at least the target)."""

    game: str
    players: int
    seconds: float
    rounds: int
    moves: int
    rounds_per_s: float
    moves_per_s: float
    python: str

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def python_version() -> str:
    return f"{platform.python_implementation()} {platform.python_version()}"


def random_playouts(game: str, players: int, seconds: float = 2.0, seed: int = 0,
                    rules: dict[str, Any] | None = None) -> BenchResult:
    """Play random rounds for about ``seconds`` (whole rounds only, at least one)."""
    g = get_game(game)
    full = g.rules(players, rules)
    rng = random.Random(seed)
    decks = []
    for _ in range(DECK_POOL):
        d = list(range(52))
        rng.shuffle(d)
        decks.append(d)
    choose = rng.randrange
    new_round = g.new_round
    rounds = moves = 0
    clock = time.perf_counter
    start = clock()
    deadline = start + seconds
    while True:
        r = new_round(full, players, rounds % players, decks[rounds % DECK_POOL])
        while not r.is_over:
            legal = r.legal_moves()
            r.apply(legal[choose(len(legal))])
            moves += 1
        rounds += 1
        now = clock()
        if now >= deadline:
            break
    elapsed = now - start
    return BenchResult(
        game=g.name, players=players, seconds=round(elapsed, 3), rounds=rounds, moves=moves,
        rounds_per_s=round(rounds / elapsed, 1), moves_per_s=round(moves / elapsed, 1),
        python=python_version(),
    )


def batch_playouts(game: str, players: int, seconds: float = 2.0,
                   batch: int = DEFAULT_BATCH, seed: int = 0,
                   rules: dict[str, Any] | None = None) -> dict[str, Any]:
    """:func:`parlour.batch.speed` with the fields of :class:`BenchResult` first.

    Then ``engine`` (``"batch"``), ``batch``, ``games``, ``games_per_s``,
    ``bytes_per_game`` and ``warmup_s`` (compiling or loading the kernel, not counted).
    """
    from parlour import batch as batch_engine  # numba: imported only when asked for

    b = batch_engine.bench(game, players, seconds, batch, rules, seed)
    return {
        "game": b["game"], "players": players, "seconds": round(b["seconds"], 3),
        "rounds": b["rounds"], "moves": b["moves"],
        "rounds_per_s": float(b["rounds_per_s"]), "moves_per_s": float(b["moves_per_s"]),
        "python": python_version(), "engine": "batch", "batch": batch, "games": b["games"],
        "games_per_s": b["games_per_s"], "bytes_per_game": b["bytes_per_game"],
        "warmup_s": b["warmup_s"],
    }


def playouts(game: str, players: int, seconds: float = 2.0, engine: str = "step",
             batch: int = DEFAULT_BATCH) -> dict[str, Any]:
    """Random-playout speed of one engine: :class:`BenchResult`'s fields, ``engine``, and
    for the batch engine the extra fields of :func:`batch_playouts`."""
    if engine == "step":
        return {**random_playouts(game, players, seconds).to_json(), "engine": "step"}
    if engine == "batch":
        return batch_playouts(game, players, seconds, batch)
    raise ValueError(f"unknown engine {engine!r}; choose one of: {', '.join(ENGINES)}")


def mid_round(game: str, players: int, seed: int = 0) -> Round:
    """A fixed position halfway through a round, with a real choice to make.

    Dealt from ``random.Random(seed)`` and played with uniformly random moves until half
    the cards are out (the ``HALF_ROUND_PLAYS`` of the game's ``analysis`` part: Fan Tan 26
    cards on the layout, Fanti 24 of its 48 moves), then
    on until the player to move has at least two legal moves.
    """
    g = get_game(game)
    rng = random.Random(seed)
    deck = list(range(52))
    rng.shuffle(deck)
    r = g.new_round(g.rules(players), players, 0, deck)

    def played() -> int:
        return sum(1 for _, m in r.history if not is_pass(m))

    half = get_kit(game).attr("analysis", "HALF_ROUND_PLAYS", 26)
    while not r.is_over and (played() < half or len(r.legal_moves()) < 2):
        legal = r.legal_moves()
        r.apply(legal[rng.randrange(len(legal))])
    if r.is_over:  # not reached with these seeds; a clear error if the rules change
        raise RuntimeError(f"no mid-round decision found for {game} with seed {seed}")
    return r


def search_speed(game: str, players: int, seconds: float = 2.0, bot: str = SEARCH_BOT,
                 iterations: int | None = None, seed: int = 0) -> dict[str, Any]:
    """Search iterations per second of ``bot`` (``ismcts`` or ``pimc``) on :func:`mid_round`.

    The bot is ``make_bot(f"{bot}:{iterations}", game, seed)`` (default
    :data:`SEARCH_ITERATIONS`); its ``estimates`` is
    called on the position's view until ``seconds`` have passed (at least once), so
    each decision's set-up (sampling the worlds) counts as it does in play.
    """
    from parlour.bots import make_bot

    iterations = iterations or SEARCH_ITERATIONS
    r = mid_round(game, players, seed)
    seat = r.current_player
    view = r.view(seat)
    b = make_bot(f"{bot}:{iterations}", game, seed)
    decisions = 0
    t0 = time.perf_counter()
    while (elapsed := time.perf_counter() - t0) < seconds or decisions == 0:
        b.estimates(view)
        decisions += 1
    total = decisions * iterations
    return {
        "game": get_game(game).name, "players": players, "bot": bot,
        "position": {"moves_played": len(r.history), "seat": seat,
                     "legal_moves": len(r.legal_moves())},
        "iterations_per_decision": iterations, "decisions": decisions, "iterations": total,
        "seconds": round(elapsed, 3), "iterations_per_s": round(total / elapsed, 1),
        "ms_per_decision": round(1000 * elapsed / decisions, 2),
    }


def player_counts(game: str) -> list[int]:
    g = get_game(game)
    return list(range(g.min_players, g.max_players + 1))


def scaling_entry(figure: dict[str, Any], base: dict[str, Any] | None) -> dict[str, Any]:
    """Time per round and per move of a :func:`playouts` figure; ``growth`` is time per
    round over that of ``base`` (the smallest player count)."""
    ms = 1000 / figure["rounds_per_s"]
    entry = {
        "game": figure["game"], "engine": figure["engine"], "players": figure["players"],
        "rounds_per_s": figure["rounds_per_s"],
        "moves_per_round": round(figure["moves"] / figure["rounds"], 2),
        "ms_per_round": round(ms, 4),
        "us_per_move": round(1e6 / figure["moves_per_s"], 3),
        "growth": 1.0 if base is None else round(ms / (1000 / base["rounds_per_s"]), 3),
    }
    return entry


def scaling(game: str, seconds: float = 1.0, engine: str = "step",
            batch: int = DEFAULT_BATCH) -> list[dict[str, Any]]:
    """:func:`scaling_entry` at every player count of ``game``, ``seconds`` each."""
    figures = [playouts(game, n, seconds, engine, batch) for n in player_counts(game)]
    return [scaling_entry(f, figures[0] if i else None) for i, f in enumerate(figures)]


def machine() -> dict[str, Any]:
    """What the figures were taken on: CPUs, load average, platform."""
    try:
        load: list[float] | None = [round(x, 2) for x in os.getloadavg()]
    except (AttributeError, OSError):
        load = None
    return {"platform": platform.platform(), "processor": platform.machine(),
            "cpus": os.cpu_count(), "load_average": load}


@dataclass
class Step:
    """One measurement of a report: a label, the seconds it should take, what it runs."""

    label: str
    seconds: float
    run: Callable[[], None]


def offered(game: str, engines: Sequence[str]) -> list[str]:
    """The engines of ``engines`` that ``game`` has: ``batch`` only with a kernel part."""
    kernel = get_kit(game).attr("kernel", "BATCH") is not None
    return [e for e in engines if e != "batch" or kernel]


def plan(games: Sequence[str], players: dict[str, int], seconds: float,
         engines: Sequence[str] = ENGINES, batch: int = DEFAULT_BATCH,
         yardstick: bool = False, search: bool = False, scale: bool = False,
         ) -> tuple[dict[str, Any], list[Step]]:
    """The report object (filled in as the steps run) and the steps, in order.

    ``players`` gives each game's player count for the playouts and search sections;
    the scaling section runs every player count. A game whose kit has no ``kernel`` part
    gets no batch figures, one without a ``model`` part no search figure. Run every
    step's ``run()`` in order,
    then the report is complete (or call :func:`report`).
    """
    out: dict[str, Any] = {
        "parlour": __version__, "python": python_version(), "machine": machine(),
        "seconds": seconds, "engines": list(engines), "batch": batch,
        "playouts": [],
    }
    steps: list[Step] = []
    yard_runs: list[dict[str, Any]] = []
    if yardstick:
        from parlour import yardstick as ys

        def measure_yard() -> None:
            yard_runs.append(ys.measure(seconds))

        steps.append(Step("OpenSpiel hearts and crazy_eights (before)",
                          4 * seconds, measure_yard))
    for game in games:
        for engine in offered(game, engines):
            steps.append(Step(f"{game}, {players[game]} players, {engine} engine", seconds,
                              lambda g=game, e=engine: out["playouts"].append(
                                  playouts(g, players[g], seconds, e, batch))))
    if search:
        out["search"] = []
        for game in (g for g in games if get_kit(g).attr("model", "MODEL") is not None):
            steps.append(Step(f"{game}, {players[game]} players, {SEARCH_BOT} search", seconds,
                              lambda g=game: out["search"].append(
                                  search_speed(g, players[g], seconds))))
    if scale:
        out["scaling"] = []
        part = seconds / SCALING_PASSES
        for p in range(SCALING_PASSES):
            for game in games:
                for engine in offered(game, engines):
                    for n in player_counts(game):
                        steps.append(Step(
                            f"scaling: {game}, {n} players, {engine} engine "
                            f"({p + 1}/{SCALING_PASSES})", part,
                            lambda g=game, e=engine, k=n: out["scaling"].append(
                                playouts(g, k, part, e, batch))))
    if yardstick:
        def measure_again() -> None:
            if yard_runs[0].get("available"):
                yard_runs.append(ys.measure(seconds))
            finish(out, yard_runs)

        steps.append(Step("OpenSpiel hearts and crazy_eights (after)", 4 * seconds,
                          measure_again))
    else:
        steps.append(Step("summing up", 0.0, lambda: finish(out, [])))
    return out, steps


def combine(figures: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """Sum the slices of the same (game, engine, players), in order of first appearance:
    rounds and moves add up, and so does the time (``rounds / rounds_per_s``)."""
    sums: dict[tuple[str, str, int], list[float]] = {}
    for f in figures:
        acc = sums.setdefault((f["game"], f["engine"], f["players"]), [0, 0, 0.0])
        acc[0] += f["rounds"]
        acc[1] += f["moves"]
        acc[2] += f["rounds"] / f["rounds_per_s"]
    return [{"game": g, "engine": e, "players": n, "seconds": round(t, 3), "rounds": r,
             "moves": m, "rounds_per_s": round(r / t, 1), "moves_per_s": round(m / t, 1)}
            for (g, e, n), (r, m, t) in sums.items()]


def finish(out: dict[str, Any], yard_runs: list[dict[str, Any]]) -> None:
    """Turn the scaling figures into time per round, and add the yardstick and ratios."""
    if "scaling" in out:
        entries = []
        base: dict[tuple[str, str], dict[str, Any]] = {}
        for f in combine(out["scaling"]):
            key = (f["game"], f["engine"])
            entries.append(scaling_entry(f, base.get(key)))
            base.setdefault(key, f)
        out["scaling"] = entries
    if not yard_runs:
        return
    from parlour import yardstick as ys

    yard = ys.mean(*yard_runs)
    if yard.get("available"):
        yard["before"] = yard_runs[0]["games"]
        yard["after"] = yard_runs[-1]["games"]
    out["yardstick"] = yard
    for f in out["playouts"]:
        f["vs_openspiel"] = ys.ratios(f["rounds_per_s"], yard)
    for f in out.get("search", []):
        f["vs_openspiel"] = ys.ratios(f["iterations_per_s"], yard)
    for f in out.get("scaling", []):
        f["vs_openspiel"] = ys.ratios(f["rounds_per_s"], yard)


def report(games: Sequence[str], players: dict[str, int], seconds: float,
           engines: Sequence[str] = ENGINES, batch: int = DEFAULT_BATCH,
           yardstick: bool = False, search: bool = False, scale: bool = False,
           on_step: Callable[[Step], None] | None = None) -> dict[str, Any]:
    """Measure a whole report (:func:`plan`); ``on_step(step)`` before each step."""
    out, steps = plan(games, players, seconds, engines, batch, yardstick, search, scale)
    for step in steps:
        if on_step:
            on_step(step)
        step.run()
    return out
