"""Every command that reads or writes files, over hostile paths (issue 16, defects 2-4).

Each command meets a missing path, a directory, a binary file, an empty file, an
unreadable file and an unwritable place. None may end in a traceback; an output that
cannot be written is refused before any work (nothing is played, nothing is lost), with
a one-line message naming the path.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from typer.testing import CliRunner

import parlour.cli.commands  # noqa: F401  (registers the commands)
from parlour import record
from parlour.cli import app
from playout import random_playout

runner = CliRunner()
ROOT = os.geteuid() == 0


def make(kind: str, tmp: Path) -> Path:
    """A path of the given kind under ``tmp``."""
    if kind == "missing":
        return tmp / "nothing-here.json"
    if kind == "directory":
        (tmp / "adir").mkdir()
        return tmp / "adir"
    if kind == "binary":
        (tmp / "bin.json").write_bytes(bytes(range(256)) * 4)
        return tmp / "bin.json"
    if kind == "empty":
        (tmp / "empty.json").write_bytes(b"")
        return tmp / "empty.json"
    if kind == "empty list":
        (tmp / "list.json").write_text("[]\n")
        return tmp / "list.json"
    if kind == "unreadable":
        if ROOT:  # root reads any file: a file whose read fails even for root
            return Path("/proc/self/mem")
        p = tmp / "secret.json"
        p.write_text("{}")
        p.chmod(0)
        return p
    if kind == "deep":  # nested past Python's recursion limit
        (tmp / "deep.json").write_text("[" * 100_000 + "]" * 100_000)
        return tmp / "deep.json"
    if kind == "device":  # endless: read whole it would fill the memory
        return Path("/dev/zero")
    if kind == "unwritable":
        return Path("/proc/parlour-test/out.json")  # /proc takes no new files
    raise ValueError(kind)


def no_traceback(res) -> None:
    assert res.exception is None or isinstance(res.exception, SystemExit), res.exception
    assert "Traceback" not in res.output


# --- inputs ---------------------------------------------------------------------------

READERS = {
    "check": lambda p: ["check", str(p)],
    "verify": lambda p: ["verify", str(p)],
    "replay": lambda p: ["replay", str(p)],
    "play --resume": lambda p: ["play", "--resume", str(p)],
}
# exit status per kind: 2 = cannot be read (bad usage); 1 = read, but holds no valid record
READ_STATUS = {
    "missing": {"check": 2, "verify": 2, "replay": 2, "play --resume": 2},
    "directory": {"check": 2, "verify": 2, "replay": 2, "play --resume": 2},
    "device": {"check": 2, "verify": 2, "replay": 2, "play --resume": 2},
    "unreadable": {"check": 2, "verify": 2, "replay": 2, "play --resume": 2},
    "binary": {"check": 1, "verify": 1, "replay": 1, "play --resume": 2},
    "empty": {"check": 1, "verify": 1, "replay": 1, "play --resume": 2},
    "deep": {"check": 1, "verify": 1, "replay": 1, "play --resume": 2},
    "empty list": {"check": 1, "verify": 1, "replay": 1, "play --resume": 2},
}


@pytest.mark.parametrize("kind", sorted(READ_STATUS))
@pytest.mark.parametrize("command", sorted(READERS))
def test_reading_commands_explain_a_bad_input(command, kind, tmp_path):
    path = make(kind, tmp_path)
    res = runner.invoke(app, READERS[command](path))
    no_traceback(res)
    assert res.exit_code == READ_STATUS[kind][command], res.output
    assert str(path.name) in res.output or str(path) in res.output
    if kind in ("empty", "empty list"):
        assert "no record" in res.output or "holds" in res.output
    if kind == "binary":
        assert "UTF-8" in res.output and "codec" not in res.output
    if kind == "deep":
        assert "nested too deeply" in " ".join(res.output.split())


def test_check_goes_on_after_an_unreadable_file(tmp_path):
    """Defect 4: the other files are still checked, and the summary counts them."""
    good = tmp_path / "good.json"
    good.write_text(record.dumps(random_playout("fanti", 2, seed=1, rules={"rounds": 1})))
    res = runner.invoke(app, ["check", str(make("unreadable", tmp_path)), str(good),
                              str(tmp_path / "nope.json")])
    no_traceback(res)
    assert res.exit_code == 2
    assert "✓" in res.stdout and "good.json: 1 of 1 records valid" in res.stdout
    assert "1 record checked in 1 file: 1 valid, 0 invalid; 2 files could not be read" \
        in res.stdout


# --- outputs --------------------------------------------------------------------------

FILE_WRITERS = {
    "play --save": lambda p: ["play", "fanti", "--seed", "1", "--bots", "random",
                              "--save", str(p)],
    "simulate --out": lambda p: ["simulate", "fanti", "-n", "2", "-g", "1", "--out", str(p)],
    "serve --db": lambda p: ["serve", "--db", str(p), "--port", "1"],
}
DIR_WRITERS = {
    "tournament --out": lambda p: ["tournament", "fanti", "--games", "1", "--bots",
                                   "random", "--out", str(p)],
    "analyze --out": lambda p: ["analyze", "fanti", "--games", "1", "--bots", "random",
                                "--out", str(p)],
}
WORK_SIGNS = ("Round 1", "games of", "tournament", "Balance report", "parlour: open")


def refused(res, path: Path) -> None:
    no_traceback(res)
    assert res.exit_code == 2, res.output
    assert str(path) in res.stderr
    assert len(res.stderr.strip().splitlines()) == 1
    assert not any(sign in res.stdout for sign in WORK_SIGNS), res.stdout


@pytest.mark.parametrize("kind", ["missing folder", "directory", "unwritable", "under a file"])
@pytest.mark.parametrize("command", sorted(FILE_WRITERS))
def test_file_outputs_are_checked_before_any_work(command, kind, tmp_path):
    """Defects 2, 3: a file output that cannot be written is refused at the start."""
    if kind == "missing folder":
        path = tmp_path / "no" / "such" / "folder" / "out.json"
    elif kind == "under a file":
        (tmp_path / "afile").write_text("x")
        path = tmp_path / "afile" / "out.json"
    else:
        path = make(kind, tmp_path)
    res = runner.invoke(app, FILE_WRITERS[command](path), input="1\n" * 200)
    refused(res, path)


@pytest.mark.parametrize("kind", ["binary", "empty", "unwritable", "under a file"])
@pytest.mark.parametrize("command", sorted(DIR_WRITERS))
def test_directory_outputs_are_checked_before_any_work(command, kind, tmp_path):
    """Defect 2: ``--out afile`` (an existing file), ``--out /proc/x``: refused first."""
    if kind == "under a file":
        (tmp_path / "afile").write_text("x")
        path = tmp_path / "afile" / "results"
    else:
        path = make(kind, tmp_path)
    res = runner.invoke(app, DIR_WRITERS[command](path))
    refused(res, path)


def test_play_save_refuses_to_overwrite_another_game(tmp_path):
    """A saved game is never overwritten by a new one (nothing a player did is lost)."""
    old = tmp_path / "old.json"
    old.write_text("keep me")
    res = runner.invoke(app, ["play", "fanti", "--seed", "1", "--save", str(old)], input="q\n")
    refused(res, old)
    assert old.read_text() == "keep me"


def test_serve_refuses_a_file_that_is_not_a_database(tmp_path):
    path = make("binary", tmp_path)
    res = runner.invoke(app, ["serve", "--db", str(path), "--port", "1"])
    refused(res, path)
    assert "not a SQLite database" in res.stderr


def test_an_error_message_with_brackets_is_printed_as_written(capsys):
    """A message is plain text: ``[rl]`` in it is not taken for Rich markup and dropped."""
    import pytest
    import typer

    from parlour.cli.common import fail

    with pytest.raises(typer.Exit):
        fail("training needs the rl extra (pip install 'parlour[rl]')")
    assert "pip install 'parlour[rl]'" in capsys.readouterr().err
