"""benchmarks/paired_records.py: two tournaments of the same deals compared deal by deal,
from the records `parlour tournament --out` writes."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from typer.testing import CliRunner

from parlour.cli import commands  # noqa: F401  (registers the commands)
from parlour.cli.app import app

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = str(ROOT / "benchmarks" / "paired_records.py")


def tournament(tmp_path: Path, bots: str, players: int = 4, seed: int = 1) -> tuple[Path, dict]:
    out = tmp_path / f"{bots.replace(',', '-')}-{players}-{seed}"
    res = CliRunner().invoke(app, ["tournament", "fantan", "--players", str(players), "--bots",
                                   bots, "--games", "6", "--seed", str(seed), "--out", str(out),
                                   "--json"])
    assert res.exit_code == 0, res.output
    return out / "records.jsonl", json.loads(res.stdout.strip().splitlines()[-1])


def paired(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, SCRIPT, *args], capture_output=True, text=True,
                          timeout=60)


def test_each_run_matches_its_tournament_and_the_difference_is_paired(tmp_path):
    a, sa = tournament(tmp_path, "random,heuristic")
    b, sb = tournament(tmp_path, "heuristic,heuristic")
    run = paired(str(a), str(b), "--json")
    assert run.returncode == 0, run.stderr
    out = json.loads(run.stdout)
    assert out["deals"] == 6 and out["players"] == 4
    assert out["random (first)"][0] == round(sa["bots"][0]["win_rate"], 4)
    # the line-up of heuristics only: each seat a quarter, whatever the deal
    assert out["heuristic (second)"][0] == 0.25
    diff = out["second_minus_first"]
    assert diff[0] == round(0.25 - sa["bots"][0]["win_rate"], 4) and diff[1] <= diff[0] <= diff[2]
    same = json.loads(paired(str(a), str(a), "--json").stdout)
    assert same["second_minus_first"] == [0.0, 0.0, 0.0]


def test_runs_of_other_deals_or_bad_files_are_refused_in_words(tmp_path):
    a, _ = tournament(tmp_path, "random,heuristic")
    other_seed, _ = tournament(tmp_path, "random,heuristic", seed=2)
    junk = tmp_path / "junk.jsonl"
    junk.write_text("{not a record\n")
    binary = tmp_path / "binary.jsonl"
    binary.write_bytes(bytes(range(256)))
    for args, words in (((a, other_seed), "differ in seed"),
                        ((a, tmp_path / "nowhere.jsonl"), "cannot be read"),
                        ((a, junk), "line 1: not a tournament record"),
                        ((a, tmp_path), "cannot be read"),
                        ((a, binary), "not text")):
        run = paired(*map(str, args))
        assert run.returncode == 2 and words in run.stderr, run.stderr
        assert "Traceback" not in run.stderr and run.stdout == ""
