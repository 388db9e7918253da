"""The Ray backend gives the same tournament as the local one (2-CPU local Ray)."""

from __future__ import annotations

import pytest

from parlour.arena.tournament import Tournament

ray = pytest.importorskip("ray")


def test_small_tournament_on_local_ray_matches_local():
    t = Tournament("fantan", 3, ["heuristic", "random"], 2, seed=6)
    local = t.run()
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        on_ray = t.run(backend="ray")
    finally:
        ray.shutdown()
    assert on_ray.summary() == local.summary()
    assert on_ray.records() == local.records()
