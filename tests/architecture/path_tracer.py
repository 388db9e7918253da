"""Follow one move through the server: which of its modules are entered, in what order.

A profiler (``sys.setprofile``) records every Python call and return while a block
runs; :func:`walk` then reads the record at the scale of modules:

- a module is *entered* when a function of it starts, called from another module (the
  nearest frame of a ``parlour.server`` module, or of the engine, below it);
- a module is *left* when the last of its functions that started has finished. A
  coroutine that is waiting (``await``) has not finished: the move handler waiting for
  the database's commit has not left its module, and a task that the loop resumes
  does not enter anything again;
- a *re-entry* is entering a module that was entered and left before, during the
  same move;
- a *back-up* is a call into a module that already has a function running further down
  the same call chain (a lower part calling back into the one that called it).

Calls into ``parlour.game``, ``parlour.match`` and ``parlour.games.*`` count as
entering ``engine``; other modules (the standard library, SQLAlchemy, the test's own
socket) are looked through.
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from types import FrameType
from typing import Any

SERVER = "parlour.server."
ENGINE = ("parlour.game", "parlour.match", "parlour.games.")


def place(frame: FrameType) -> str | None:
    """The module a frame counts for: a server module's short name, ``engine``, or None."""
    name = frame.f_globals.get("__name__", "")
    if name.startswith(SERVER):
        return name[len(SERVER):]
    if name.startswith(ENGINE):
        return "engine"
    return None


LOOKED_THROUGH = frozenset({"live", "engine", "metrics"})
"""What every step reads or counts, not a step of its own: the table in memory
(server/live.py), the engine inside it, and the metrics' counters. A call into one of
them and back is no move along the path; the engine's own step is the move applied."""


@dataclass
class Recorder:
    events: list[tuple[str, FrameType]] = field(default_factory=list)

    def __call__(self, frame: FrameType, event: str, _arg: Any) -> None:
        if event in ("call", "return") and place(frame) is not None:
            self.events.append((event, frame))


@contextlib.contextmanager
def recording() -> Iterator[Recorder]:
    """Record the calls of this thread while the block runs."""
    rec = Recorder()
    old = sys.getprofile()
    sys.setprofile(rec)
    try:
        yield rec
    finally:
        sys.setprofile(old)


@dataclass
class Walk:
    entered: list[str]
    """The modules entered, in order (an entry per move from one module to another)."""
    calls: list[tuple[str | None, str, str]]
    """Each entry as (from module, into module, function)."""
    transitions: list[tuple[str, str]]
    """(from, into) for each entry called from another counted module."""
    backups: list[tuple[str, str]]
    reentries: list[str]
    by_loop: list[str]
    """Entries started by the event loop: the task that reads a socket, the group
    commit's flush, each connection's writer. They continue work that a step queued
    and are not counted as re-entries."""

    def firsts(self) -> list[str]:
        """Each module once, in the order it was first entered."""
        return list(dict.fromkeys(self.entered))


def walk(rec: Recorder, through: frozenset[str] = frozenset()) -> Walk:
    """The record read at the scale of modules, looking through the modules of
    ``through`` (see :data:`LOOKED_THROUGH`).

    The call chain is rebuilt from the record itself (a call pushes, a return pops):
    a coroutine's frame does not know its caller when it starts. A frame with no
    counted frame below it was started by the event loop (a task, a callback)."""
    last_return: dict[int, int] = {}
    for i, (event, frame) in enumerate(rec.events):
        if event == "return":
            last_return[id(frame)] = i
    started: set[int] = set()
    stack: list[tuple[int, str]] = []
    alive: dict[str, int] = {}
    seen: set[str] = set()
    out = Walk([], [], [], [], [], [])
    for i, (event, frame) in enumerate(rec.events):
        here = place(frame)
        assert here is not None
        if here in through:
            continue
        if event == "call":
            if id(frame) in started:  # a waiting coroutine resumed: nothing entered
                stack.append((id(frame), here))
                continue
            started.add(id(frame))
            caller = stack[-1][1] if stack else None
            if caller != here:
                out.entered.append(here)
                out.calls.append((caller, here, frame.f_code.co_qualname))
                if caller is None:
                    out.by_loop.append(here)
                else:
                    out.transitions.append((caller, here))
                    if any(m == here for _, m in stack):
                        out.backups.append((caller, here))
                    if here in seen and not alive.get(here):
                        out.reentries.append(here)
            seen.add(here)
            alive[here] = alive.get(here, 0) + 1
            stack.append((id(frame), here))
        else:
            ids = [f for f, _ in stack]
            if id(frame) in ids:
                del stack[ids.index(id(frame)):]
            if last_return.get(id(frame)) == i and id(frame) in started:
                alive[here] -= 1  # its last return: the function has finished
    return out
