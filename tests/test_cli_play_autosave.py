"""``parlour play`` saves after every move, atomically: a killed game resumes from its file,
and a save folder removed mid-game does not lose the game (#36 finding 6)."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

from typer.testing import CliRunner

import parlour.cli.commands  # noqa: F401  (registers the commands)
from parlour import record
from parlour.cli import app
from parlour.cli.autosave import AutoSaver, write_atomic

runner = CliRunner()
MOVES = "1\n" * 400


def _human_moves(path: Path, seat: int = 0) -> int:
    """How many moves the person made in the record at ``path`` (0 while it is unreadable)."""
    try:
        m = record.load(record.parse_json(path.read_text(encoding="utf-8")))
    except (OSError, ValueError):
        return 0
    return sum(1 for r in m.rounds for s, _ in r.history if s == seat)


def _wait_for(predicate, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.05)


def test_sigkill_mid_game_then_resume_finishes_it(tmp_path):
    """The process is killed (SIGKILL: nothing runs at exit) after three of the person's
    moves; the file already holds them, and --resume plays the game to its end."""
    out = tmp_path / "killed.json"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    proc = subprocess.Popen(
        [sys.executable, "-m", "parlour", "play", "fantan", "--seed", "13", "--bots", "greedy",
         "--rule", "rounds=2", "--pace", "0", "--save", str(out)],
        stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
    try:
        proc.stdin.write(b"1\n1\n1\n")
        proc.stdin.flush()
        _wait_for(lambda: _human_moves(out) >= 3 or proc.poll() is not None)
        assert proc.poll() is None, proc.stderr.read().decode()
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait()
    assert proc.returncode == -signal.SIGKILL
    kept = record.load(record.parse_json(out.read_text(encoding="utf-8")))
    assert not kept.is_over and _human_moves(out) >= 3  # (with any automatic passes)
    res = runner.invoke(app, ["play", "--resume", str(out)], input=MOVES)
    assert res.exit_code == 0, res.output
    assert "Resuming" in res.output and "Record saved to" in res.output
    done = record.load(record.parse_json(out.read_text(encoding="utf-8")))
    assert done.is_over
    assert [p.name for p in tmp_path.iterdir()] == [out.name]  # a killed save's temporary gone
    assert done.rounds[0].history[:len(kept.rounds[0].history)] == kept.rounds[0].history


def test_file_is_written_before_the_first_move(tmp_path):
    """The record exists as soon as the game starts, holding each move as it is made."""
    out = tmp_path / "early.json"
    seen: list[int] = []
    answers = iter(["1", "1"])

    def read(prompt: str = "", **kw) -> str:
        seen.append(_human_moves(out))
        try:
            return next(answers)
        except StopIteration:
            raise EOFError from None

    from rich.console import Console
    orig = Console.input
    Console.input = lambda self, prompt="", **kw: read(prompt)  # type: ignore[method-assign]
    try:
        res = runner.invoke(app, ["play", "fantan", "--seed", "3", "--bots", "greedy",
                                  "--save", str(out)])
    finally:
        Console.input = orig  # type: ignore[method-assign]
    assert res.exit_code == 0, res.output
    assert seen[0] == 0 and seen[1] == 1  # the first move was on disk before the second
    assert out.exists()


def test_save_folder_removed_mid_game_is_made_again(tmp_path, monkeypatch):
    """The folder goes away between two moves: the next save makes it again, `q` saves
    and exits 0, and the game is there."""
    folder = tmp_path / "games"
    folder.mkdir()
    out = folder / "g.json"
    from rich.console import Console
    answers = iter(["1", "__remove__", "1", "q"])

    def fake_input(self, prompt="", **kw):
        a = next(answers)
        if a == "__remove__":
            shutil.rmtree(folder)
            a = next(answers)
        return a

    monkeypatch.setattr(Console, "input", fake_input)
    res = runner.invoke(app, ["play", "fanti", "--seed", "2", "--bots", "greedy",
                              "--save", str(out)])
    assert res.exit_code == 0, res.output
    assert _human_moves(out) == 2
    assert "saved the unfinished game" in res.output


def test_unwritable_folder_saves_elsewhere_and_says_so(tmp_path, monkeypatch):
    """When the folder cannot be made again (a file now stands in its place), the game
    goes on, the failure is one line, and `q` saves to the current folder with exit 0."""
    folder = tmp_path / "games"
    folder.mkdir()
    out = folder / "g.json"
    here = tmp_path / "here"
    here.mkdir()
    monkeypatch.chdir(here)
    from rich.console import Console
    answers = iter(["1", "__block__", "1", "q"])

    def fake_input(self, prompt="", **kw):
        a = next(answers)
        if a == "__block__":
            shutil.rmtree(folder)
            folder.write_text("not a folder")
            a = next(answers)
        return a

    monkeypatch.setattr(Console, "input", fake_input)
    res = runner.invoke(app, ["play", "fanti", "--seed", "2", "--bots", "greedy",
                              "--save", str(out)])
    assert res.exit_code == 0, res.output
    assert "Traceback" not in res.output
    assert res.output.count("could not save the game to") == 1
    kept = here / "g.json"
    assert _human_moves(kept) == 2
    assert f"saved to {kept}" in res.output.replace("\n", "")


def test_write_atomic_replaces_whole_file(tmp_path):
    path = tmp_path / "sub" / "r.json"
    write_atomic(path, json.dumps({"a": 1}))
    write_atomic(path, json.dumps({"a": 2}))
    assert json.loads(path.read_text()) == {"a": 2}
    assert [p.name for p in path.parent.iterdir()] == ["r.json"]


def test_autosaver_warns_once_per_failure_run(tmp_path):
    notes: list[str] = []
    blocker = tmp_path / "f"
    blocker.write_text("x")
    saver = AutoSaver(blocker / "r.json", lambda: "{}", notes.append)
    assert not saver() and not saver()
    assert len(notes) == 1
    blocker.unlink()
    assert saver()
    assert len(notes) == 2 and "works again" in notes[1]
