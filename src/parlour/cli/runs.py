"""Long runs on the command line: results folders that are never overwritten by
mistake, stops that keep what finished, and ``--resume``.

``tournament`` and ``analyze`` write their results to ``--out DIR``. A folder that
already holds results is refused unless ``--force`` (start again, overwriting) or
``--resume`` (go on with the run whose games ``DIR/progress.jsonl`` keeps,
:mod:`parlour.arena.checkpoint`). On Ctrl-C or SIGTERM (:mod:`parlour.stopping`) the
workers stop at once and one line says how many games finished and where they are.
``simulate``, which keeps its records in one file, runs its games the same way
(:func:`games_running`) and says its own stop line (:func:`say_stopped`).
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NoReturn

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from parlour import stopping
from parlour.arena.checkpoint import FILE, Checkpoint, CheckpointError
from parlour.bots.base import BotFailed
from parlour.cli.common import UsageError, fail, stderr
from parlour.cli.paths import prepare_output_dir


def check_results_dir(out: str | None, results: list[str], force: bool,
                      resume: bool) -> None:
    """``--out`` is a folder that takes new files and holds no results of an earlier
    run, unless ``--force`` or ``--resume`` says what to do with them."""
    if force and resume:
        raise UsageError("--force starts again and --resume goes on: give one of them")
    if out is None:
        if resume:
            raise UsageError("--resume goes on with the games kept in --out DIR: give it")
        return
    path = Path(out)
    found = [n for n in [*results, FILE] if (path / n).exists()]
    if found and not (force or resume):
        raise UsageError(f"{path} already holds results ({', '.join(found)}): give --force "
                         f"to overwrite them, --resume to go on with a stopped run, or "
                         f"another directory")
    prepare_output_dir(path)


def refuse_remote_resume(resume: bool, backend: str) -> None:
    """``--resume`` reads what this machine kept, so it goes with ``--backend local`` only."""
    if resume and backend != "local":
        raise UsageError("--resume goes on with local runs only (--backend local)")


def open_checkpoint(out: str | None, backend: str, run: Callable[[], dict[str, Any]],
                    resume: bool, load: Callable[[dict[str, Any]], Any]) -> Checkpoint | None:
    """Where a local run with ``--out`` keeps each game as it finishes (None for a run
    without ``--out`` or on Ray); a folder that holds another run's games is a usage error.
    ``run`` names the run's parameters (called only when there is a folder)."""
    if not out or backend != "local":
        return None
    try:
        return Checkpoint(Path(out), run(), resume, load)
    except CheckpointError as e:
        raise UsageError(str(e)) from None


@contextlib.contextmanager
def games_running(stop: Callable[[KeyboardInterrupt], NoReturn],
                  kept: Checkpoint | None = None) -> Iterator[None]:
    """Run games with SIGTERM taken as a stop: a stop goes to ``stop`` (which says what
    finished and exits), a Ray cluster that never answers or goes away is a one-line
    error (exit 2), an entered agent breaking off a game another (exit 1); ``kept`` is
    closed however it ends."""
    try:
        with stopping.on_signals():
            yield
    except KeyboardInterrupt as e:  # Ctrl-C or SIGTERM: every worker is stopped already
        stop(e)
    except ConnectionError as e:  # the Ray cluster never answered, or went away
        fail(str(e))
    except BotFailed as e:  # an entered agent broke off a game
        fail(str(e), 1)
    finally:
        if kept:
            kept.close()


@dataclass
class KeptRun:
    """What a running results-folder run hands its games: the jobs finished before
    (``--resume``), the callback of each finished game and where to keep it."""

    done: dict[int, Any]
    advance: Callable[[object], None]
    keep: Callable[[int, Any], None] | None


@contextlib.contextmanager
def results_run(console: Console, description: str, total: int, kept: Checkpoint | None,
                out: str | None, transient: bool = False) -> Iterator[KeptRun]:
    """A run of ``total`` games that keeps them in ``--out DIR`` (``tournament``,
    ``analyze``): a bar that starts at the games ``kept`` already holds, counted on as
    each finishes, and :func:`games_running`'s handling, a stop saying how many finished."""
    done = dict(kept.done) if kept else {}
    finished = [len(done)]
    with (games_running(lambda e: stopped(e, finished[0], total, out if kept else None), kept),
          Progress(TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
                   TimeElapsedColumn(), console=console, transient=transient) as bar):
        task = bar.add_task(description, total=total, completed=len(done))

        def advance(_game: object) -> None:
            finished[0] += 1
            bar.advance(task)

        yield KeptRun(done, advance, kept.add if kept else None)


def say_stopped(stop: KeyboardInterrupt, finished: int, total: int, kept: str) -> NoReturn:
    """Say that the run stopped, how far it got and what it ``kept``, then exit 130
    (Ctrl-C) or 143 (SIGTERM)."""
    how = "SIGTERM" if isinstance(stop, stopping.Stopped) else "Ctrl-C"
    stderr().print(f"stopped by {how}: {finished} of {total} games finished, every "
                   f"worker stopped; {kept}", markup=False, soft_wrap=True)
    raise typer.Exit(stopping.exit_code(stop))


def stopped(stop: KeyboardInterrupt, finished: int, total: int, out: str | None) -> NoReturn:
    """:func:`say_stopped` for a run that keeps its games in ``--out DIR`` (``out``, or
    None when nothing was kept)."""
    kept = (f"kept in {Path(out) / FILE}; the same command with --resume goes on"
            if out else "nothing kept (give --out DIR to keep finished games)")
    say_stopped(stop, finished, total, kept)
