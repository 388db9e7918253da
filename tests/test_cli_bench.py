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

from typer.testing import CliRunner

import parlour
import parlour.cli.commands  # noqa: F401  (registers the commands)
from parlour import record
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
