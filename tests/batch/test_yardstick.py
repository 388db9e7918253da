"""The OpenSpiel yardstick: figures when pyspiel is there, a clear entry when it is not."""

from __future__ import annotations

import sys

import pytest

from parlour import yardstick


def test_measure_reports_both_loops_for_both_games() -> None:
    pytest.importorskip("pyspiel")
    out = yardstick.measure(0.02)
    assert out["available"] is True
    assert set(out["games"]) == {"hearts", "crazy_eights"}
    for fig in out["games"].values():
        assert fig["cpp_games_per_s"] > 0 and fig["python_games_per_s"] > 0
        assert fig["moves_per_game"] > 13  # a hearts deal alone is 52 plays
    r = yardstick.ratios(2 * out["games"]["hearts"]["cpp_games_per_s"], out)
    assert r["hearts_cpp"] == pytest.approx(2, rel=0.01)


def test_measure_without_pyspiel(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "pyspiel", None)  # makes "import pyspiel" fail
    out = yardstick.measure(0.01)
    assert out["available"] is False and "pyspiel" in out["reason"]
    assert yardstick.ratios(1000.0, out) == {}


def test_mean_of_runs() -> None:
    a = {"available": True, "games": {"hearts": {"players": 4, "cpp_games_per_s": 100,
                                                 "python_games_per_s": 10}}}
    b = {"available": True, "games": {"hearts": {"players": 4, "cpp_games_per_s": 300,
                                                 "python_games_per_s": 30}}}
    m = yardstick.mean(a, b, {"available": False})
    assert m["games"]["hearts"] == {"players": 4, "cpp_games_per_s": 200,
                                    "python_games_per_s": 20}
    assert yardstick.ratios(400, m) == {"hearts_cpp": 2.0, "hearts_python": 20.0}
