"""Stopping long runs (finding 9): Ctrl-C and SIGTERM stop every worker of ``tournament``,
``analyze`` and ``simulate`` at once with a message, keep the finished games, and
``--resume`` goes on to the same results as an unstopped run; ``--out`` onto existing
results is refused unless ``--force``. Real processes, real signals; every wait is on an
event (a file growing, a process ending), with a deadline."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from parlour.cli import commands  # noqa: F401  (registers the commands)
from parlour.cli.app import app

DEADLINE = 120.0


def _start(args: list[str], tmp: Path) -> tuple[subprocess.Popen, Path]:
    err = tmp / f"stderr-{len(list(tmp.glob('stderr-*')))}.txt"
    proc = subprocess.Popen([sys.executable, "-m", "parlour", *args], stdout=subprocess.DEVNULL,
                            stderr=err.open("w"), start_new_session=True,
                            env={**os.environ, "COLUMNS": "200"})
    return proc, err


def _lines(path: Path) -> int:
    return path.read_bytes().count(b"\n") if path.exists() else 0


def _wait_for(cond, proc: subprocess.Popen, what: str) -> None:
    end = time.monotonic() + DEADLINE
    while not cond():
        assert proc.poll() is None, f"the run ended before {what}"
        assert time.monotonic() < end, f"no {what} in {DEADLINE} s"
        time.sleep(0.02)


def _workers(pid: int) -> list[int]:
    """The worker processes (multiprocessing spawn children) of ``pid``."""
    out = []
    for d in Path("/proc").iterdir():
        if not d.name.isdigit():
            continue
        try:
            stat = (d / "stat").read_text()
            cmd = (d / "cmdline").read_bytes()
        except OSError:
            continue
        if int(stat.rsplit(")", 1)[1].split()[1]) == pid and b"spawn_main" in cmd:
            out.append(int(d.name))
    return out


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def _stop(proc: subprocess.Popen, sig: int) -> tuple[int, list[int]]:
    workers = _workers(proc.pid)
    assert len(workers) == 2, workers
    if sig == signal.SIGINT:  # a terminal's Ctrl-C goes to the whole process group
        os.killpg(proc.pid, sig)
    else:  # SIGTERM goes to the parent alone (kill PID, a service manager)
        os.kill(proc.pid, sig)
    rc = proc.wait(timeout=DEADLINE)
    return rc, [w for w in workers if _alive(w)]


@pytest.mark.slow
def test_ctrl_c_stops_a_tournament_and_resume_goes_on(tmp_path):
    out = tmp_path / "t"
    args = ["tournament", "fantan", "-n", "4", "--bots", "heuristic,random", "--games", "40",
            "--seed", "5", "--workers", "2", "--out", str(out)]
    proc, err = _start(args, tmp_path)
    _wait_for(lambda: _lines(out / "progress.jsonl") > 3, proc, "finished games")
    rc, left = _stop(proc, signal.SIGINT)
    text = err.read_text()
    assert rc == 130, text
    assert left == [], "workers outlived the stop"
    assert "stopped by Ctrl-C" in text and "--resume" in text and "Traceback" not in text
    kept = _lines(out / "progress.jsonl") - 1
    assert 3 <= kept < 160 and f"{kept} of 160 games finished" in text
    assert not (out / "summary.json").exists()

    again = CliRunner().invoke(app, args[:-2] + ["--workers", "1", "--out", str(out)])
    assert again.exit_code == 2 and "already holds results" in again.output  # no --force
    other = CliRunner().invoke(app, [*args, "--resume", "--seed", "6"])
    assert other.exit_code == 2 and "another run" in other.output

    res = CliRunner().invoke(app, [*args, "--resume", "--json"])
    assert res.exit_code == 0, res.output
    resumed = json.loads((out / "summary.json").read_text())
    fresh_dir = tmp_path / "fresh"
    res = CliRunner().invoke(app, [*args[:-1], str(fresh_dir), "--workers", "1"])
    assert res.exit_code == 0, res.output
    assert resumed == json.loads((fresh_dir / "summary.json").read_text())
    assert resumed["games"] == 160


@pytest.mark.slow
def test_sigterm_stops_analyze_and_resume_gives_the_same_report(tmp_path):
    out = tmp_path / "a"
    args = ["analyze", "fantan", "-n", "4", "--games", "60", "--seed", "2", "--workers", "2",
            "--compare", "opening=seven-of-diamonds,any-seven", "--out", str(out)]
    proc, err = _start(args, tmp_path)
    _wait_for(lambda: _lines(out / "progress.jsonl") > 3, proc, "finished games")
    rc, left = _stop(proc, signal.SIGTERM)
    text = err.read_text()
    assert rc == 143, text
    assert left == [], "workers outlived their parent"
    assert "stopped by SIGTERM" in text and "Traceback" not in text
    assert not (out / "report.json").exists()
    res = CliRunner().invoke(app, [*args, "--resume"])
    assert res.exit_code == 0, res.output
    fresh = tmp_path / "fresh"
    res = CliRunner().invoke(app, [*args[:-1], str(fresh)])
    assert res.exit_code == 0, res.output
    assert (out / "report.json").read_text() == (fresh / "report.json").read_text()
    assert (out / "games.csv").read_text() == (fresh / "games.csv").read_text()


@pytest.mark.slow
def test_sigterm_stops_simulate_and_resume_writes_the_same_records(tmp_path):
    # Enough games that the run cannot end between its first records and the SIGTERM
    # (200 took about a second here, and once finished first on a busy machine).
    games = 1000
    out = tmp_path / "games.jsonl"
    args = ["simulate", "fantan", "-n", "4", "--games", str(games), "--bots", "heuristic",
            "--rule", "rounds=1", "--seed", "3", "--workers", "2", "--out", str(out)]
    proc, err = _start(args, tmp_path)
    _wait_for(lambda: _lines(out) > 0, proc, "records")
    rc, left = _stop(proc, signal.SIGTERM)
    text = err.read_text()
    assert rc == 143, text
    assert left == [], "workers outlived their parent"
    assert "stopped by SIGTERM" in text and "--resume" in text and "Traceback" not in text
    kept = _lines(out)
    assert 0 < kept < games and f"{kept} of {games} games finished" in text
    refused = CliRunner().invoke(app, args)
    assert refused.exit_code == 2 and "already holds records" in refused.output
    assert _lines(out) == kept  # nothing overwritten
    res = CliRunner().invoke(app, [*args, "--resume", "--json"])
    assert res.exit_code == 0, res.output
    resumed = json.loads(res.stdout)
    fresh = tmp_path / "fresh.jsonl"
    res = CliRunner().invoke(app, [*args[:-1], str(fresh), "--workers", "1", "--json"])
    assert res.exit_code == 0, res.output
    assert out.read_bytes() == fresh.read_bytes()
    assert {k: v for k, v in resumed.items() if k != "out"} == \
        {k: v for k, v in json.loads(res.stdout).items() if k != "out"}


def test_out_onto_existing_results_needs_force(tmp_path):
    out = tmp_path / "t"
    args = ["tournament", "fanti", "-n", "2", "--bots", "random", "--games", "2",
            "--out", str(out)]
    assert CliRunner().invoke(app, args).exit_code == 0
    before = (out / "records.jsonl").read_text()
    res = CliRunner().invoke(app, [*args[:-3], "1", "--out", str(out)])
    assert res.exit_code == 2 and "already holds results" in res.output
    assert (out / "records.jsonl").read_text() == before  # untouched
    res = CliRunner().invoke(app, [*args[:-3], "1", "--out", str(out), "--force"])
    assert res.exit_code == 0, res.output
    assert _lines(out / "records.jsonl") == 2  # one deal, two rotations
    res = CliRunner().invoke(app, [*args, "--force", "--resume"])
    assert res.exit_code == 2 and "give one of them" in res.output
    sim = tmp_path / "s.jsonl"
    sargs = ["simulate", "fanti", "-n", "2", "--games", "2", "--out", str(sim)]
    assert CliRunner().invoke(app, sargs).exit_code == 0
    res = CliRunner().invoke(app, sargs)
    assert res.exit_code == 2 and "already holds records" in res.output
    assert CliRunner().invoke(app, [*sargs, "--force"]).exit_code == 0
