"""benchmarks/fantan_policy_es.py: its starting weights are the heuristic, exactly."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_starting_weights_play_as_the_heuristic_and_training_reports(tmp_path):
    """With the heuristic's weights the learner makes the heuristic's choices, so on
    duplicate deals the same seat wins in every rotation: exactly 25.00% at 4 players
    (a feature or weight out of order breaks it). A short run writes its result."""
    out = tmp_path / "es.json"
    run = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "fantan_policy_es.py"), "--generations",
         "2", "--deals", "100", "--test", "400", "--population", "6", "--out", str(out)],
        capture_output=True, text=True, timeout=600, cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    assert "heuristic's weights on 400 test deals: 25.00%" in run.stdout
    result = json.loads(out.read_text())
    assert result["heuristic"] == 0.25
    assert result["training_rounds"] == 2 * 6 * 100 * 4
    assert len(result["weights"]) == 20


def test_bad_options_are_answered_in_words():
    for args in (["--generations", "0"], ["--players", "9"], ["--out", "/"]):
        run = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "fantan_policy_es.py"),
                              *args], capture_output=True, text=True, timeout=120)
        assert run.returncode != 0
        assert "Traceback" not in run.stderr
        assert "must be" in run.stderr or "not a file" in run.stderr
