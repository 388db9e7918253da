"""Issue #13: the garbage collector's schedule (:mod:`parlour.server.collector`).

Live objects are frozen out of the collector's reach every ``gc_freeze_every``
seconds; cyclic garbage is reclaimed by a full pass every ``gc_full_every`` seconds or
once memory has grown by ``gc_full_grow_mb`` (never within ``gc_full_min``)."""

from __future__ import annotations

import gc
import weakref

import pytest
from server_kit import service

from parlour.server.collector import Collector, resident_bytes

MB = 1024 * 1024


@pytest.fixture
def thawed():
    """Every test leaves the process's collector as it found it: nothing frozen."""
    gc.unfreeze()
    yield
    gc.unfreeze()


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def collector(clock: Clock, memory: list[int], **kw) -> Collector:
    args = {"freeze_every": 0.1, "full_every": 600.0, "full_grow_mb": 512.0,
            "full_min": 60.0} | kw
    return Collector(clock=clock, memory=lambda: memory[0], **args)


def test_a_full_pass_is_due_by_the_clock_or_by_memory_but_never_too_soon(thawed):
    clock, memory = Clock(), [100 * MB]
    c = collector(clock, memory)
    assert c.base == 100 * MB
    assert not c.full_due(clock.now + 10, 100 * MB)
    # memory grown past the allowance, but within gc_full_min of the last pass
    assert not c.full_due(clock.now + 59, 700 * MB)
    assert c.full_due(clock.now + 61, 700 * MB)
    # grown, but less than the allowance
    assert not c.full_due(clock.now + 61, 600 * MB)
    # the clock alone
    assert c.full_due(clock.now + 600, 100 * MB)
    # memory unknown (no /proc): the clock alone
    unknown = collector(clock, [0])
    assert not unknown.full_due(clock.now + 100, 10_000 * MB)
    assert unknown.full_due(clock.now + 600, 0)


class Node:
    def __init__(self) -> None:
        self.other: Node | None = None


def cycle() -> weakref.ref:
    """A pair of objects that only reference counting cannot free; their weak
    reference dies when a collector pass frees them."""
    a, b = Node(), Node()
    a.other, b.other = b, a
    return weakref.ref(a)


def test_a_step_freezes_what_is_alive_and_a_due_full_pass_frees_cyclic_garbage(thawed):
    clock, memory = Clock(), [100 * MB]
    c = collector(clock, memory)
    gone = cycle()
    assert c.step() is False  # nothing due: only frozen
    assert gc.get_freeze_count() > 0
    gc.collect()  # a pass of Python's own does not see frozen objects
    assert gone() is not None
    clock.now += 600
    memory[0] = 150 * MB
    assert c.step() is True
    assert gone() is None
    assert c.full_passes == 1 and c.base == 150 * MB and c.last_full == clock.now
    assert gc.get_freeze_count() > 0  # what survived is frozen again
    clock.now += 10  # the next pass waits again
    assert c.step() is False


def test_the_resident_memory_is_read_from_the_system():
    assert resident_bytes() > 10 * MB


def test_the_server_takes_its_schedule_from_the_settings(make_app, thawed):
    app = make_app(gc_freeze_every=0.5, gc_full_every=900, gc_full_grow_mb=256,
                   gc_full_min=30)
    c = service(app).collector
    assert (c.freeze_every, c.full_every, c.full_grow, c.full_min) == (0.5, 900, 256 * MB, 30)
    from parlour.server import Settings

    d = Settings()
    assert (d.gc_freeze_every, d.gc_full_every, d.gc_full_min, d.gc_full_grow_mb) == (
        0.1, 600, 60, 512)
