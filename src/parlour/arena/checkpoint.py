"""Finished games kept as they finish, so a stopped run loses none and ``--resume`` goes on.

``tournament`` and ``analyze`` with ``--out DIR`` append every finished game to
``DIR/progress.jsonl``: a first line naming the run (its parameters), then one line
per game, ``{"job": index, "result": {...}}``, flushed as it is written. Stopping the
run (Ctrl-C, SIGTERM) therefore keeps every game that finished; ``--resume`` reads the
file back, checks that it belongs to the same run (same parameters), and plays only the
jobs that are missing. A line cut short by the stop is ignored (its game is played
again). The results do not depend on where a run was stopped: every job is a pure
function of its parameters.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import asdict, is_dataclass
from pathlib import Path
from typing import IO, Any

FILE = "progress.jsonl"


class CheckpointError(ValueError):
    """The file on disk is not this run's (or is not a progress file at all)."""


class Checkpoint:
    """The finished jobs of one run, in ``folder/progress.jsonl`` (module doc)."""

    def __init__(self, folder: Path, run: dict[str, Any], resume: bool,
                 load: Callable[[dict[str, Any]], Any]) -> None:
        self.path = folder / FILE
        self.run = json.loads(json.dumps(run))  # as it reads back from the file
        self.done: dict[int, Any] = {}
        if resume and self.path.exists():
            self._read(load)
            self._file: IO[str] = self.path.open("a", encoding="utf-8")
        else:
            self._file = self.path.open("w", encoding="utf-8")
            self._write({"run": self.run})

    def _read(self, load: Callable[[dict[str, Any]], Any]) -> None:
        lines = self.path.read_text(encoding="utf-8").splitlines()
        try:
            head = json.loads(lines[0])["run"] if lines else None
        except (ValueError, KeyError, TypeError):
            head = None
        if head != self.run:
            raise CheckpointError(
                f"{self.path} belongs to another run (other parameters): give the same "
                f"options to resume it, or --force to start again")
        for line in lines[1:]:
            try:
                entry = json.loads(line)
                self.done[int(entry["job"])] = load(entry["result"])
            except (ValueError, KeyError, TypeError):
                continue  # cut short by the stop: that game is played again
        with self.path.open("rb+") as f:  # drop a half-written last line before appending
            data = f.read()
            if data and not data.endswith(b"\n"):
                f.truncate(data.rfind(b"\n") + 1)

    def _write(self, obj: dict[str, Any]) -> None:
        self._file.write(json.dumps(obj) + "\n")
        self._file.flush()

    def add(self, job: int, result: Any) -> None:
        """Keep one finished job."""
        self.done[job] = result
        self._write({"job": job, "result": asdict(result) if is_dataclass(result) else result})

    def close(self) -> None:
        self._file.close()
