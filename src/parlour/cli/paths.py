"""Checking the files a command reads and writes before it starts working.

A command that would run for minutes and then fail to save its results has lost them,
so every output is checked first (and a directory output created first); every input
is opened and read from once, so a missing, unreadable or directory path is a one-line
:class:`~parlour.cli.common.UsageError` instead of a traceback. Checks open or create
files for real rather than asking ``os.access``, which says yes to root for everything.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from parlour.cli.common import UsageError, reason


def check_input(path: Path, what: str = "read") -> None:
    """``path`` is a file that can be opened and read; else UsageError saying why."""
    if not path.exists():
        raise UsageError(f"cannot {what} {path}: no such file")
    if path.is_dir():
        raise UsageError(f"cannot {what} {path}: it is a directory, not a file")
    if path.is_char_device() or path.is_block_device():  # /dev/zero would never end
        raise UsageError(f"cannot {what} {path}: it is a device, not a file")
    try:
        with path.open("rb") as f:
            f.read(1)
    except OSError as e:
        raise UsageError(f"cannot {what} {path}: {reason(e)}") from None


def _probe_dir(folder: Path, path: Path) -> None:
    """Create and remove a scratch file in ``folder`` (proof that files can be written)."""
    try:
        fd, name = tempfile.mkstemp(prefix=".parlour-", dir=folder)
        os.close(fd)
        os.unlink(name)
    except OSError as e:
        raise UsageError(f"cannot write {path}: {reason(e)}") from None


def check_output_file(path: Path, overwrite: bool = True) -> None:
    """``path`` can be written as a file: its folder exists and takes new files, the path
    is not a directory, and an existing file is writable (refused if not ``overwrite``)."""
    if path.is_dir():
        raise UsageError(f"cannot write {path}: it is a directory; give a file name")
    parent = path.parent
    if not parent.exists():
        raise UsageError(f"cannot write {path}: no directory {parent}")
    if not parent.is_dir():
        raise UsageError(f"cannot write {path}: {parent} is not a directory")
    if path.exists():
        if not overwrite:
            raise UsageError(f"{path} already exists: give a new file name "
                             f"(nothing is overwritten)")
        try:
            with path.open("r+b"):
                pass
        except OSError as e:
            raise UsageError(f"cannot write {path}: {reason(e)}") from None
    else:
        _probe_dir(parent, path)


def prepare_output_dir(path: Path) -> None:
    """``path`` is a directory that takes new files, created now if it does not exist."""
    if path.exists() and not path.is_dir():
        raise UsageError(f"cannot write to {path}: it is a file; give a directory "
                         f"(new or existing) for the results")
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise UsageError(f"cannot create the directory {path}: {reason(e)}") from None
    _probe_dir(path, path)
