"""Saving a ``parlour play`` game after every move, atomically.

Each save writes a temporary file in the record's own folder and renames it over the
record (``os.replace``), so a game killed at any instant leaves either the previous or
the new record, never half of one, and ``parlour play --resume`` continues it. A folder
removed mid-game is made again; a save that still fails is said once in one line and the
game goes on (the next move tries again).
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Callable
from pathlib import Path


def write_atomic(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` through a temporary file in the same folder and a
    rename, re-creating the folder if it is gone. Raises ``OSError`` when it cannot."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def clean_temporaries(path: Path) -> None:
    """Remove the temporaries an earlier run of this record left when it was killed
    in the middle of a save (the record itself is whole: the rename never happened)."""
    with contextlib.suppress(OSError):
        for stale in path.parent.glob(f".{path.name}.*.tmp"):
            with contextlib.suppress(OSError):
                stale.unlink()


class AutoSaver:
    """Saves the text ``dump()`` gives to ``path`` whenever called; tells ``warn`` once
    per run of failures (not at every move) and again once saving works."""

    def __init__(self, path: Path, dump: Callable[[], str], warn: Callable[[str], None]):
        self.path = path
        self.dump = dump
        self.warn = warn
        self.failing = False
        clean_temporaries(path)

    def __call__(self) -> bool:
        try:
            write_atomic(self.path, self.dump())
        except OSError as e:
            if not self.failing:
                self.warn(f"could not save the game to {self.path} ({e.strerror or e}); "
                          f"playing on, the next move tries again")
            self.failing = True
            return False
        if self.failing:
            self.warn(f"saving to {self.path} works again")
        self.failing = False
        return True


def fallback_path(path: Path) -> Path:
    """Where a record goes when its own folder takes no file: the same name in the
    current folder, else in the system's temporary folder (never an existing file)."""
    for folder in (Path.cwd(), Path(tempfile.gettempdir())):
        candidate, n = folder / path.name, 1
        while candidate.exists():
            n += 1
            candidate = folder / f"{path.stem}-{n}{path.suffix}"
        if os.access(folder, os.W_OK):
            return candidate
    return Path(tempfile.gettempdir()) / path.name
