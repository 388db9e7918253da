"""benchmarks/strength_table.py: one row per saved line, each with its target's verdict
(issue #15's targets), from tournament and paired-run summaries alike."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def table(folder: Path) -> list[str]:
    run = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "strength_table.py"),
                          str(folder)], capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    return run.stdout.splitlines()


def test_rows_and_verdicts_from_both_kinds_of_summary(tmp_path):
    tournament = {"deals": 1000, "fair_share": 0.25, "lineup": ["hard"] + ["heuristic"] * 3,
                  "bots": [{"win_rate": 0.297, "ci95": [0.288, 0.306]}]}
    (tmp_path / "fantan4-hard-vs-heuristic.json").write_text(json.dumps(tournament))
    pair = {"players": 2, "opponents": "hard", "seed": 1, "deals": 1000,
            "expert": {"win": 0.516, "ci": [0.5044, 0.5276]}, "slices": {"0:300": 0.525}}
    (tmp_path / "fanti2-expert-vs-hard-1000.json").write_text(json.dumps(pair))
    (tmp_path / "broken.json").write_text("{not json")
    lines = table(tmp_path)
    assert len(lines) == 4  # header, rule, one row each; the broken file is skipped
    assert lines[2].startswith("| fantan4-hard-vs-heuristic | hard, heuristic, heuristic, heuristic | 29.7% |")
    assert lines[2].endswith(">= 34% and CI low > 32.0%: NOT met |")
    # the 1,000-deal run of the line `fanti2-expert-vs-hard` is judged by that line's target
    assert lines[3] == ("| fanti2-expert-vs-hard-1000 | expert, hard | 51.6% | 50.4%-52.8% | "
                        "1000 | 50.0% | CI low > 50.0%: met |")


def test_chart_draws_the_lines_with_a_target(tmp_path):
    tournament = {"deals": 1000, "fair_share": 0.25, "lineup": ["hard"] + ["heuristic"] * 3,
                  "bots": [{"win_rate": 0.30, "ci95": [0.291, 0.31]}]}
    (tmp_path / "fantan4-hard-vs-heuristic.json").write_text(json.dumps(tournament))
    # a comparison without a target is listed in the table but not drawn
    (tmp_path / "fantan4-infer-none.json").write_text(json.dumps(tournament))
    png = tmp_path / "out" / "strength.png"
    run = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "strength_table.py"),
                          str(tmp_path), "--png", str(png)],
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    assert "drew 1 lines" in run.stdout
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_bad_arguments_are_refused_in_words(tmp_path):
    script = str(ROOT / "benchmarks" / "strength_table.py")
    for args, words in (([str(tmp_path / "nowhere")], "is not a folder"),
                        ([str(tmp_path), "--png", str(tmp_path / "x.txt")], "must end in .png")):
        run = subprocess.run([sys.executable, script, *args], capture_output=True,
                             text=True, timeout=60)
        assert run.returncode == 2
        assert words in run.stderr and "Traceback" not in run.stderr
