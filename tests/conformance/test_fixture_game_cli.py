"""One folder is enough: the fixture game (tests/fixture_games/gin_lite, a package with
only ``rules.py`` and ``bots.py``) runs through the real ``parlour`` command -- a separate
process that knows the game only from ``PARLOUR_GAMES`` -- for ``simulate``,
``tournament`` (random and its own greedy bot), ``check`` and ``replay``."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parents[1]
FIXTURE_ENV = {
    "PARLOUR_GAMES": "fixture_games.gin_lite",
    "PYTHONPATH": os.pathsep.join(filter(None, [str(TESTS), os.environ.get("PYTHONPATH")])),
    "COLUMNS": "120",
}


def parlour(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    """``parlour ARGS`` in a fresh interpreter that registers the fixture game."""
    return subprocess.run(
        [sys.executable, "-c", "from parlour.cli import main; main()", *args],
        cwd=cwd, env={**os.environ, **FIXTURE_ENV}, capture_output=True, text=True,
        timeout=300, check=False)


@pytest.fixture(scope="module")
def records(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("ginlite") / "games.jsonl"
    res = parlour("simulate", "ginlite", "--players", "2", "--games", "6", "--seed", "3",
                  "--bots", "greedy,random", "--out", str(out), cwd=out.parent)
    assert res.returncode == 0, res.stderr
    assert "6 games of ginlite" in res.stdout and "Traceback" not in res.stderr
    return out


def test_simulate_writes_one_finished_record_per_game(records):
    lines = records.read_text().splitlines()
    assert len(lines) == 6
    for line in lines:
        data = json.loads(line)
        assert data["game"] == "ginlite" and len(data["rounds"]) == data["rules"]["rounds"] == 3
        assert data["winners"] and all("score" in rd for rd in data["rounds"])


def test_check_accepts_them_and_rejects_a_changed_score(records, tmp_path):
    res = parlour("check", str(records), cwd=tmp_path)
    assert res.returncode == 0, res.stdout + res.stderr
    assert "6 of 6 records valid" in res.stdout
    data = json.loads(records.read_text().splitlines()[0])
    data["rounds"][0]["score"][0] += 1
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data))
    res = parlour("check", str(bad), cwd=tmp_path)
    assert res.returncode == 1 and "differs from the moves'" in res.stdout


def test_replay_shows_the_game_to_its_end(records, tmp_path):
    res = parlour("replay", str(records), "--index", "1", cwd=tmp_path)
    assert res.returncode == 0, res.stderr
    data = json.loads(records.read_text().splitlines()[1])
    last = data["rounds"][-1]["moves"]
    assert "Gin Lite" in res.stdout
    assert f"{len(last)}. {data['seats'][last[-1]['seat']]} " in res.stdout
    assert f"wins with a total of {max(data['totals'])}" in res.stdout
    assert "Traceback" not in res.stderr


def test_tournament_of_random_and_greedy(tmp_path):
    res = parlour("tournament", "ginlite", "--players", "2", "--bots", "greedy,random",
                  "--games", "4", "--seed", "1", "--json", cwd=tmp_path)
    assert res.returncode == 0, res.stderr
    assert "greedy" in res.stdout and "random" in res.stdout
    assert "Traceback" not in res.stderr


def test_the_fixture_game_passes_the_conformance_suite(tmp_path):
    """The conformance suite, run in a fresh pytest that registers the fixture game only
    through PARLOUR_GAMES, checks it like the product games: every variant, every bot."""
    if "fixture_games.gin_lite" in os.environ.get("PARLOUR_GAMES", ""):
        pytest.skip("this is the nested run")
    here = TESTS / "conformance"
    res = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
         "-n", "0", "-k", "ginlite or gin_lite", str(here / "test_conformance_rules.py"),
         str(here / "test_conformance_bots.py"), str(TESTS / "fixture_games")],
        cwd=TESTS.parent, env={**os.environ, **FIXTURE_ENV}, capture_output=True, text=True,
        timeout=600, check=False)
    assert res.returncode == 0, res.stdout[-3000:]
    summary = res.stdout.strip().splitlines()[-1]
    passed = int(summary.split(" passed")[0].split()[-1])
    # 12 variants, the copy test, 2 bots x (legal, no peek), the game's own 5 rules tests
    assert passed >= 12 + 1 + 2 * 2 + 5, summary


def test_simulate_random_bots_use_the_step_engine_without_a_kernel(tmp_path):
    """``auto`` picks the batch engine only for a game whose kit has a kernel; asking for
    it for one without is a one-line error."""
    res = parlour("simulate", "ginlite", "-n", "3", "-g", "2", "-b", "random", cwd=tmp_path)
    assert res.returncode == 0, res.stderr
    assert "step engine" in res.stdout
    res = parlour("simulate", "ginlite", "-n", "2", "-g", "2", "-b", "random",
                  "--engine", "batch", cwd=tmp_path)
    assert res.returncode == 2 and "Traceback" not in res.stderr
    assert res.stderr.startswith("error: Gin Lite has no batch engine; use --engine step")
