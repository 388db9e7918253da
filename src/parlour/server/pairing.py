"""Who plays whom in a pairing pool: pure functions of the people waiting.

A pool holds the people waiting for a table of one game and one size. Two people may
sit together when their ratings are within the *band* of either of them and neither
has blocked the other; a band starts narrow and widens with the time its holder has
waited, and after ``open_after`` seconds it holds every rating, so nobody waits for
ever for want of a near rating. The longest waiting go first: each in turn gets the
nearest ratings that fit everyone already in the group.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Waiter:
    """One entry in a pool: ``id`` the entry, ``player`` the person behind it."""

    id: str
    player: str
    rating: float
    entered: float


@dataclass(frozen=True)
class Bands:
    """How far from their own rating a waiting player accepts an opponent."""

    start: float = 50.0
    """Rating points either side at the moment they enter."""
    per_second: float = 5.0
    """Points added for every second waited."""
    open_after: float = 45.0
    """Seconds after which any rating fits."""

    def of(self, waited: float) -> float:
        waited = max(0.0, waited)
        if waited >= self.open_after:
            return math.inf
        return self.start + self.per_second * waited


Blocked = Callable[[str, str], bool]
"""Whether two players (ids) must never sit together (either blocked the other)."""


def never(_a: str, _b: str) -> bool:
    return False


def blocked_by(pairs: Iterable[tuple[str, str]]) -> Blocked:
    """The ``Blocked`` test of (blocker, blocked) pairs: a block works both ways."""
    held = {frozenset(p) for p in pairs if p[0] != p[1]}
    return lambda a, b: frozenset((a, b)) in held


def fits(a: Waiter, b: Waiter, now: float, bands: Bands, blocked: Blocked = never) -> bool:
    """Whether ``a`` and ``b`` may sit at one table now."""
    if a.player == b.player or blocked(a.player, b.player):
        return False
    reach = max(bands.of(now - a.entered), bands.of(now - b.entered))
    return abs(a.rating - b.rating) <= reach


def pair(waiters: Sequence[Waiter], size: int, now: float, bands: Bands,
         blocked: Blocked = never) -> list[tuple[Waiter, ...]]:
    """Groups of ``size`` that may sit together, each waiter in one group at most.

    The longest waiting is served first and takes the nearest ratings that fit every
    member so far; whoever is left waits for the next round of pairing."""
    if size < 2:
        raise ValueError("a table needs at least two players")
    order = sorted(waiters, key=lambda w: (w.entered, w.id))
    taken: set[str] = set()
    busy: set[str] = set()  # players already in a group (one entry each, but be sure)
    groups: list[tuple[Waiter, ...]] = []
    for anchor in order:
        if anchor.id in taken or anchor.player in busy:
            continue
        group = [anchor]
        # Only those who fit the anchor are sorted (every member must fit every other):
        # a round over n waiting costs n^2 cheap tests, not n sorts of n.
        near = sorted((w for w in order if w.id not in taken and w.player not in busy
                       and fits(anchor, w, now, bands, blocked)),
                      key=lambda w: (abs(w.rating - anchor.rating), w.entered, w.id))
        for c in near:
            if all(fits(g, c, now, bands, blocked) for g in group[1:]):
                group.append(c)
                if len(group) == size:
                    break
        if len(group) == size:
            groups.append(tuple(group))
            taken.update(w.id for w in group)
            busy.update(w.player for w in group)
    return groups
