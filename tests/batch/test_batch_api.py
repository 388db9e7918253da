"""The public batch API: simulate, bench, records, memory per game."""

from __future__ import annotations

import pytest

from parlour import record
from parlour.batch import bench, engine, game_record, simulate, stream_match


def test_simulate_shapes_and_summary() -> None:
    res = simulate("fantan", 5, {"rounds": 3}, games=40, seed=2, batch=16)
    assert res.scores.shape == (40, 3, 5) and res.moves.shape == (40, 3)
    assert res.records is None
    # points: the winner of each round writes 0 and everyone else more (FT-7)
    assert ((res.scores == 0).sum(axis=2) == 1).all()
    assert (res.winners == (res.totals == res.totals.min(axis=1, keepdims=True))).all()
    s = res.summary()
    assert s["games"] == 40 and s["rounds"] == 120 and len(s["win_share"]) == 5
    assert s["mean_moves_per_round"] >= 52 / 5


def test_fanti_rounds_have_48_moves_and_fa9_points() -> None:
    res = simulate("fanti", 3, games=30, seed=5)
    assert (res.moves == 48).all()
    # FA-9 hands out at most 2 + 1 + 1 + 1 points per round, never a negative one
    assert (res.scores >= 0).all() and (res.scores.sum(axis=2) <= 5).all()
    assert (res.round_winner == -1).all()


def test_chips_are_conserved() -> None:
    res = simulate("fantan", 6, {"stakes": "chips", "strict": False}, games=100, seed=8)
    assert (res.scores.sum(axis=2) == 0).all()  # FT-7: deltas sum to 0
    assert (res.winners == (res.totals == res.totals.max(axis=1, keepdims=True))).all()


def test_long_rounds_are_rerun_with_a_bigger_buffer() -> None:
    rules = {"strict": False, "rounds": 2}
    data = game_record("fantan", 4, rules, seed=3, index=1, cap=5)
    assert data == record.dump(stream_match("fantan", 4, rules, 3, 1))
    assert max(len(rd["moves"]) for rd in data["rounds"]) > 5


def test_bench_reports_speed_and_memory_per_game_is_flat() -> None:
    out = bench("fantan", 4, seconds=0.05, batch=64)
    assert out["rounds"] == out["games"] * 4 and out["rounds_per_s"] > 0
    assert out["moves_per_s"] > out["rounds_per_s"]
    per_game = {b: engine.alloc("fanti", b, 4, 5, record=False).nbytes / b
                for b in (1, 64, 4096)}
    assert len(set(per_game.values())) == 1
    with_records = {b: engine.alloc("fantan", b, 8, 8, record=True).nbytes / b for b in (1, 512)}
    assert len(set(with_records.values())) == 1


def test_bad_arguments_are_refused() -> None:
    with pytest.raises(ValueError):
        simulate("fanti", 5)
    with pytest.raises(ValueError):
        simulate("chess", 2)
    with pytest.raises(ValueError):
        simulate("fantan", 4, {"ace": "middle"})
    with pytest.raises(ValueError):
        simulate("fantan", 4, games=10, batch=0)


def test_numpy_integer_seeds_are_accepted_and_mean_the_same() -> None:
    """Seeds may be numpy integers (what a research loop often holds): same results."""
    import numpy as np

    from parlour.batch import FanTanBatch

    a = simulate("fantan", 4, games=5, seed=np.int64(11), batch=np.int32(2))
    b = simulate("fantan", 4, games=5, seed=11, batch=2)
    assert (a.scores == b.scores).all() and a.seed == 11
    assert a.summary()["seed"] == 11  # JSON-ready
    f1 = FanTanBatch(4, batch=3).reset(np.uint64(7), np.int64(2))
    f2 = FanTanBatch(4, batch=3).reset(7, 2)
    assert (f1.hands == f2.hands).all()
