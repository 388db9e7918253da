"""Search budgets: a number of iterations, a wall-time limit, or both.

An iteration budget alone is reproducible: the same seed and view give the same move
on any machine. A wall-time limit is not (how far the search gets depends on the
machine and its load); when both are given the search stops at whichever comes first,
so it is reproducible exactly when the iterations finish inside the time limit.
"""

from __future__ import annotations

import time
from dataclasses import dataclass


@dataclass(frozen=True)
class Budget:
    """``iterations`` (playouts) and/or ``seconds`` (wall time) per decision."""

    iterations: int | None = None
    seconds: float | None = None

    def __post_init__(self) -> None:
        if self.iterations is None and self.seconds is None:
            raise ValueError("a budget needs iterations, seconds or both")

    def clock(self) -> Clock:
        return Clock(self)

    def describe(self) -> str:
        parts = []
        if self.iterations is not None:
            parts.append(f"{self.iterations} iterations")
        if self.seconds is not None:
            parts.append(f"{self.seconds:g} s")
        return " or ".join(parts)


class Clock:
    """Counts iterations and time against a :class:`Budget` for one decision."""

    def __init__(self, budget: Budget) -> None:
        self.budget = budget
        self.done = 0
        self.deadline = (time.perf_counter() + budget.seconds
                         if budget.seconds is not None else None)

    def spend(self, n: int = 1) -> None:
        self.done += n

    @property
    def over(self) -> bool:
        b = self.budget
        if b.iterations is not None and self.done >= b.iterations:
            return True
        return self.deadline is not None and time.perf_counter() >= self.deadline

    def before(self, share: float) -> bool:
        """Whether less than ``share`` of the time limit has passed (always true
        without one): a search that must keep time for a last step stops early."""
        if self.deadline is None or self.budget.seconds is None:
            return True
        return time.perf_counter() < self.deadline - (1.0 - share) * self.budget.seconds

    def time_left(self) -> bool:
        return self.deadline is None or time.perf_counter() < self.deadline
