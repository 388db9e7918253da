"""``parlour simulate``: bot-only games in bulk, with a progress bar and a summary table."""

from __future__ import annotations

import contextlib
import json
from pathlib import Path
from typing import Annotated

import typer
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from parlour.cli.app import app
from parlour.cli.common import (
    UsageError,
    at_least_one,
    check_backend,
    complete_bots,
    fail,
    game_argument,
    resolve_bots,
    resolve_game,
    resolve_players,
    resolve_rules,
    stderr,
    stdout,
    usage_errors,
)
from parlour.cli.options import BackendOption, RayAddressOption, RoundsRuleOption, WorkersOption
from parlour.cli.paths import check_output_file
from parlour.cli.runs import games_running, refuse_remote_resume, say_stopped
from parlour.simulate import (
    DEFAULT_BATCH,
    GameResult,
    SimConfig,
    Summary,
    choose_engine,
    run_chunks,
)

DEFAULT_BOT = "greedy"


def summary_table(summary: Summary, engine: str = "step") -> Table:
    """Wins per seat (shared wins split), win rate, mean round score; moves per round below."""
    t = Table(title=f"{summary.games} games of {summary.game}, {summary.players} players, "
                    f"{summary.rounds} rounds",
              caption=f"mean moves per round: {summary.mean_moves_per_round:.2f}; "
                      f"{engine} engine")
    t.add_column("seat", justify="right")
    t.add_column("bot")
    t.add_column("wins", justify="right")
    t.add_column("win %", justify="right")
    t.add_column("mean round score", justify="right")
    for s in range(summary.players):
        t.add_row(str(s), summary.bots[s], _wins(summary.wins[s]),
                  f"{100 * summary.win_rates[s]:.1f}", f"{summary.mean_round_score[s]:.3f}")
    return t


def resume_from(out: Path, config: SimConfig, summary: Summary) -> int:
    """Add the games whose records ``out`` holds to ``summary`` and return how many
    there are; refuse records of another run (seed, bots, game, rules). A line cut
    short by the stop is dropped (its game is played again)."""
    from parlour import record

    data = out.read_bytes()
    if data and not data.endswith(b"\n"):
        data = data[:data.rfind(b"\n") + 1]
        with out.open("r+b") as f:
            f.truncate(len(data))
    rules = config.full_rules()
    lines = data.decode("utf-8").splitlines()
    for i, line in enumerate(lines):
        try:
            obj = json.loads(line)
            m = record.load(obj)
        except ValueError:
            raise UsageError(f"{out} line {i + 1} is not a game record: give --force "
                             f"to start again") from None
        meta = obj.get("meta") or {}
        if (m.game.name != config.game or m.rules != rules or m.players != config.players
                or meta.get("seed") != config.seed or meta.get("game_index") != i
                or meta.get("bots") != list(config.bots)):
            raise UsageError(f"{out} holds the records of another run (other game, rules, "
                             f"bots or seed): give the same options to resume it, or "
                             f"--force to start again")
        summary.add(GameResult(i, line, tuple(m.totals), tuple(m.winners or ()),
                               tuple(tuple(s) for s in m.scores()),
                               tuple(len(r.history) for r in m.rounds)))
    if len(lines) > config.games:
        raise UsageError(f"{out} holds {len(lines)} games, more than --games {config.games}")
    return len(lines)


def _wins(w: float) -> str:
    """Whole wins as integers; split wins to two decimals."""
    return str(int(w)) if w.is_integer() else f"{w:.2f}"


@app.command("simulate", short_help="Bot-only games in bulk, reproducible, summarised.")
def simulate_command(
    game: Annotated[str, game_argument("simulate")],
    players: Annotated[int, typer.Option("--players", "-n", help="Players (bots) at the table.")],
    games: Annotated[int, typer.Option("--games", "-g", help="Number of whole games to play.")],
    seed: Annotated[int, typer.Option(
        "--seed", "-s", help="Master seed; game i uses seeds derived from (seed, i).")] = 0,
    rule: RoundsRuleOption = None,
    bots: Annotated[str | None, typer.Option(
        "--bots", "-b", metavar="NAME,...", autocompletion=complete_bots,
        help=f"One bot for every seat, or one per seat in seat order (default {DEFAULT_BOT}).",
    )] = None,
    out: Annotated[Path | None, typer.Option(
        "--out", "-o", metavar="FILE.jsonl", help="Write every game's record, one per line.",
    )] = None,
    workers: WorkersOption = 1,
    backend: BackendOption = "local",
    ray_address: RayAddressOption = None,
    engine: Annotated[str, typer.Option(
        "--engine", metavar="step|batch|auto",
        help="step: the bots, move by move; batch: the numba batch engine, random play only; "
             "auto: batch when every seat is random, else step.",
    )] = "auto",
    batch: Annotated[int, typer.Option(
        "--batch", help="Batch engine: games per kernel call (speed only, never results).",
    )] = DEFAULT_BATCH,
    as_json: Annotated[bool, typer.Option(
        "--json", help="Print the summary as one JSON object instead of a table.")] = False,
    force: Annotated[bool, typer.Option(
        "--force", help="Overwrite the records already in --out.")] = False,
    resume: Annotated[bool, typer.Option(
        "--resume", help="Go on with the stopped run whose records --out holds.")] = False,
) -> None:
    """Play bot-only games and summarise them; the same seed gives the same games.

    The records in --out and the summary are byte-identical for the same seed, options and engine, whatever --workers or --backend is. The batch engine draws its random moves from its own stream, so it plays different games from the step engine's random bots for the same seed (each reproducible).
    """
    with usage_errors():
        check_backend(backend, ray_address)
        g = resolve_game(game)
        n = resolve_players(g, players)
        rules = resolve_rules(g, n, rule)
        at_least_one("--games", games)
        at_least_one("--workers", workers)
        names = resolve_bots(g, bots, n, DEFAULT_BOT)
        at_least_one("--batch", batch)
        try:
            used = choose_engine(engine.strip().lower(), names, g.name, rules)
        except ValueError as e:
            raise UsageError(str(e).replace("unknown engine", "unknown --engine")) from None
        if force and resume:
            raise UsageError("--force starts again and --resume goes on: give one of them")
        if resume and out is None:
            raise UsageError("--resume goes on with the records in --out FILE: give it")
        refuse_remote_resume(resume, backend)
        if out is not None:
            check_output_file(out)
            if out.exists() and out.stat().st_size and not (force or resume):
                raise UsageError(f"{out} already holds records: give --force to overwrite "
                                 f"it, --resume to go on with a stopped run, or another file")
    config = SimConfig(g.name, n, games, seed, tuple(names), rules, used, batch)
    summary = Summary(g.name, n, tuple(names))
    first = 0
    if resume and out is not None and out.exists():
        with usage_errors():
            first = resume_from(out, config, summary)
    progress = Progress(TextColumn(f"simulating ({used} engine)"), BarColumn(), MofNCompleteColumn(),
                        TimeRemainingColumn(), console=stderr(), transient=True)
    kept = (f"{out} holds their records; the same command with --resume goes on"
            if out else "nothing kept (give --out FILE to keep their records)")
    try:
        with (games_running(lambda e: say_stopped(e, summary.games, games, kept)), progress,
              contextlib.ExitStack() as files):
            mode = "a" if first else "w"
            f = files.enter_context(out.open(mode, encoding="utf-8")) if out else None
            task = progress.add_task("games", total=games, completed=first)
            advance = lambda k: progress.advance(task, k)  # noqa: E731
            if backend == "ray":
                from parlour.arena.ray_backend import simulate_chunks

                chunks = simulate_chunks(config, ray_address, workers, advance, f is not None)
            else:
                chunks = files.enter_context(contextlib.closing(run_chunks(
                    config, workers, progress=advance, records=f is not None, first=first)))
            for chunk in chunks:
                summary.add_chunk(chunk)
                if f is not None:
                    f.writelines(line + "\n" for line in chunk.records())
                    f.flush()
    except OSError as e:  # after games_running: a ConnectionError is Ray's, said there
        fail(f"could not write {out}: {e}", 1)
    if as_json:
        typer.echo(json.dumps({**summary.to_json(), "seed": seed, "rules": rules,
                               "engine": used, "out": str(out) if out else None}))
        return
    stdout().print(summary_table(summary, used))
    if out:
        stdout().print(f"{summary.games} records written to {out}", soft_wrap=True)

