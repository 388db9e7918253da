"""``parlour bench``, ``parlour --version``, and the real console script in a subprocess."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

import parlour
import parlour.cli.commands  # noqa: F401  (registers the commands)
from parlour import bench, record
from parlour.bench import random_playouts
from parlour.cli import app

runner = CliRunner()
SCRIPT = Path(sys.executable).with_name("parlour")


def test_bench_json_fields():
    res = runner.invoke(app, ["bench", "fantan", "--players", "5", "--seconds", "0.2", "--json"])
    assert res.exit_code == 0, res.output
    data = json.loads(res.stdout)
    assert list(data) == ["game", "players", "seconds", "rounds", "moves", "rounds_per_s",
                          "moves_per_s", "python"]
    assert data["game"] == "fantan" and data["players"] == 5
    assert data["seconds"] >= 0.2 and data["rounds"] >= 1 and data["moves"] > data["rounds"]
    assert data["rounds_per_s"] > 0 and data["moves_per_s"] > data["rounds_per_s"]
    assert data["python"].split()[1] == ".".join(map(str, sys.version_info[:3]))


def test_bench_table_and_errors():
    res = runner.invoke(app, ["bench", "fanti", "--seconds", "0.1"])
    assert res.exit_code == 0 and "rounds/s" in res.stdout and "fanti, 2 players" in res.stdout
    res = runner.invoke(app, ["bench", "fanti", "--players", "5"])
    assert res.exit_code == 2 and "Fanti takes 2 to 4 players, not 5" in res.stderr
    res = runner.invoke(app, ["bench", "fanti", "--seconds", "0"])
    assert res.exit_code == 2


def test_random_playouts_play_whole_rounds():
    r = random_playouts("fanti", 4, seconds=0.05)
    assert r.moves == 48 * r.rounds  # FA-3: every card but the 4 on the table is played


def test_version_through_the_console_script():
    res = subprocess.run([str(SCRIPT), "--version"], capture_output=True, text=True,
                         timeout=60, check=False)
    assert res.returncode == 0 and res.stdout.strip() == f"parlour {parlour.__version__}"


def test_console_script_ctrl_c_saves_unfinished_game(tmp_path):
    """A real SIGINT at the prompt: the record is saved and valid, exit status 130."""
    out = tmp_path / "sigint.json"
    env = {**os.environ, "PYTHONUNBUFFERED": "1", "COLUMNS": "100"}
    proc = subprocess.Popen(
        [str(SCRIPT), "play", "fanti", "--seed", "4", "--bots", "greedy", "--save", str(out)],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    seen: list[bytes] = []
    reader = threading.Thread(target=lambda: seen.extend(iter(lambda: proc.stdout.read1(4096),
                                                              b"")), daemon=True)
    reader.start()
    try:
        proc.stdin.write(b"1\n")
        proc.stdin.flush()
        deadline = time.monotonic() + 30
        while b"".join(seen).count(b"Your move:") < 2 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert b"".join(seen).count(b"Your move:") == 2, b"".join(seen).decode()
        proc.send_signal(signal.SIGINT)
        assert proc.wait(timeout=30) == 130
    finally:
        if proc.poll() is None:
            proc.kill()
    reader.join(timeout=5)
    text = b"".join(seen).decode()
    assert "Interrupted: saved the unfinished game" in text and str(out) in text
    m = record.load(record.parse_json(out.read_text(encoding="utf-8")))
    assert not m.is_over and any(seat == 0 for seat, _ in m.rounds[0].history)


# --- the batch engine, the report, the yardstick ---------------------------------------

PLAIN_FIELDS = ["game", "players", "seconds", "rounds", "moves", "rounds_per_s", "moves_per_s",
                "python"]


def bench_json(*args: str) -> dict:
    res = runner.invoke(app, ["bench", *args, "--json"])
    assert res.exit_code == 0, res.output
    return json.loads(res.stdout)


def test_bench_batch_engine_json_fields():
    data = bench_json("fanti", "--players", "3", "--engine", "batch", "--batch", "64",
                      "--seconds", "0.1")
    assert list(data) == PLAIN_FIELDS + ["engine", "batch", "games", "games_per_s",
                                         "bytes_per_game", "warmup_s"]
    assert data["engine"] == "batch" and data["batch"] == 64 and data["players"] == 3
    assert data["games"] % 64 == 0 and data["rounds"] == 5 * data["games"]  # FA-10: 5 rounds
    assert data["moves"] == 48 * data["rounds"]  # FA-3
    assert data["rounds_per_s"] > 0 and data["moves_per_s"] == pytest.approx(
        48 * data["rounds_per_s"], rel=0.01)


def test_bench_usage_errors_of_the_new_options():
    for args, message in [
        (["fanti", "--engine", "gpu"], "unknown --engine 'gpu'"),
        (["fanti", "--engine", "batch", "--batch", "0"], "--batch must be at least 1"),
        (["--players", "6", "--yardstick"], "Fanti takes 2 to 4 players, not 6"),
    ]:
        res = runner.invoke(app, ["bench", *args])
        assert res.exit_code == 2, args
        assert message in res.stderr


def check_report_shape(data: dict, games: list[str], engines: list[str]) -> None:
    assert data["engines"] == engines and data["python"].startswith("CPython")
    assert data["machine"]["cpus"] >= 1
    figures = [(f["game"], f["engine"]) for f in data["playouts"]]
    assert figures == [(g, e) for g in games for e in engines]
    for f in data["playouts"]:
        assert list(f)[:8] == PLAIN_FIELDS and f["rounds_per_s"] > 0


def test_bench_yardstick_report(monkeypatch):
    """--yardstick: playouts beside OpenSpiel measured in the same run, with ratios."""
    data = bench_json("fantan", "--yardstick", "--engine", "batch", "--seconds", "0.1")
    check_report_shape(data, ["fantan"], ["batch"])
    yard = data["yardstick"]
    ratios = data["playouts"][0]["vs_openspiel"]
    if not yard["available"]:  # pyspiel missing: the report still comes, without ratios
        assert "pyspiel" in yard["reason"] and ratios == {}
        return
    assert yard["runs"] == 2 and set(yard["games"]) == {"hearts", "crazy_eights"}
    assert set(yard["before"]) == set(yard["after"]) == {"hearts", "crazy_eights"}
    for name, fig in yard["games"].items():
        assert fig["cpp_games_per_s"] > 0 and fig["python_games_per_s"] > 0
        assert ratios[f"{name}_cpp"] == pytest.approx(
            data["playouts"][0]["rounds_per_s"] / fig["cpp_games_per_s"], rel=0.01)
    assert set(ratios) == {"hearts_cpp", "hearts_python", "crazy_eights_cpp",
                           "crazy_eights_python"}


def test_bench_yardstick_without_pyspiel(monkeypatch):
    monkeypatch.setitem(sys.modules, "pyspiel", None)  # import pyspiel -> ImportError
    data = bench_json("fanti", "--yardstick", "--engine", "step", "--seconds", "0.05")
    check_report_shape(data, ["fanti"], ["step"])
    assert data["yardstick"]["available"] is False
    assert "pyspiel is not installed" in data["yardstick"]["reason"]
    assert data["playouts"][0]["vs_openspiel"] == {}
    res = runner.invoke(app, ["bench", "fanti", "--yardstick", "--seconds", "0.05"])
    assert res.exit_code == 0 and "Yardstick: not measured" in res.stdout


def test_bench_search_and_scaling_sections_for_both_games(monkeypatch):
    monkeypatch.setitem(sys.modules, "pyspiel", None)
    monkeypatch.setattr(bench, "SEARCH_ITERATIONS", 20)
    data = bench_json("--search", "--scaling", "--engine", "batch", "--players", "3",
                      "--seconds", "0.05")
    check_report_shape(data, ["fantan", "fanti"], ["batch"])
    assert "yardstick" not in data
    assert [(s["game"], s["players"], s["bot"]) for s in data["search"]] == [
        ("fantan", 3, "ismcts"), ("fanti", 3, "ismcts")]
    for s in data["search"]:
        assert s["iterations"] == 20 * s["decisions"] and s["iterations_per_s"] > 0
        assert s["position"]["legal_moves"] >= 2 and s["position"]["moves_played"] >= 24
    counts = [(s["game"], s["players"]) for s in data["scaling"]]
    assert counts == [("fantan", n) for n in range(3, 9)] + [("fanti", n) for n in (2, 3, 4)]
    assert all(s["engine"] == "batch" and s["ms_per_round"] > 0 for s in data["scaling"])
    assert data["scaling"][0]["growth"] == data["scaling"][6]["growth"] == 1.0


def test_mid_round_is_a_fixed_real_decision():
    for game, players in (("fanti", 2), ("fantan", 4), ("fantan", 8)):
        a, b = bench.mid_round(game, players, seed=3), bench.mid_round(game, players, seed=3)
        assert a.history == b.history and not a.is_over and len(a.legal_moves()) >= 2
