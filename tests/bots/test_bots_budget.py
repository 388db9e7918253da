"""Search budgets (parlour.bots.budget): iterations and time."""

from __future__ import annotations

import pytest

from parlour.bots import budget
from parlour.bots.budget import Budget


def test_a_budget_needs_iterations_or_seconds():
    with pytest.raises(ValueError, match="iterations, seconds or both"):
        Budget()
    assert Budget(200, 1.0).describe() == "200 iterations or 1 s"


def test_before_tells_how_much_of_the_time_limit_is_spent(monkeypatch):
    """A search that keeps time for a last step (the joint Fanti search deals its
    worlds in half the limit) stops dealing once that share has passed (a fake clock:
    no sleeping against a busy machine)."""
    now = [100.0]
    monkeypatch.setattr(budget.time, "perf_counter", lambda: now[0])
    assert Budget(iterations=5).clock().before(0.5)  # no time limit: always before
    clock = Budget(seconds=2.0).clock()
    assert clock.before(0.5)
    now[0] += 0.99
    assert clock.before(0.5)
    now[0] += 0.11
    assert not clock.before(0.5) and not clock.over and clock.before(0.99)
    now[0] += 0.9
    assert clock.over and not clock.before(0.99)
