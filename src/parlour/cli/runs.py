"""Long runs on the command line: results folders that are never overwritten by
mistake, stops that keep what finished, and ``--resume``.

``tournament`` and ``analyze`` write their results to ``--out DIR``. A folder that
already holds results is refused unless ``--force`` (start again, overwriting) or
``--resume`` (go on with the run whose games ``DIR/progress.jsonl`` keeps,
:mod:`parlour.arena.checkpoint`). On Ctrl-C or SIGTERM (:mod:`parlour.stopping`) the
workers stop at once and one line says how many games finished and where they are.
"""

from __future__ import annotations

from pathlib import Path

import typer

from parlour import stopping
from parlour.arena.checkpoint import FILE
from parlour.cli.common import UsageError, stderr
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


def stopped(stop: KeyboardInterrupt, finished: int, total: int, out: str | None) -> None:
    """Say that the run stopped and what it kept, then exit 130 (Ctrl-C) or 143 (SIGTERM)."""
    how = "SIGTERM" if isinstance(stop, stopping.Stopped) else "Ctrl-C"
    kept = (f"kept in {Path(out) / FILE}; the same command with --resume goes on"
            if out else "nothing kept (give --out DIR to keep finished games)")
    stderr().print(f"stopped by {how}: {finished} of {total} games finished, every "
                   f"worker stopped; {kept}", markup=False, soft_wrap=True)
    raise typer.Exit(stopping.exit_code(stop))
