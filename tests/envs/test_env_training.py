"""A tiny training run of the baseline (seconds): it learns from the vector env, logs
checkpoints, writes weights the ``learned`` bot's policy loads, and repeats exactly."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np

from parlour.envs.learned import MLPPolicy

SCRIPT = Path(__file__).resolve().parents[2] / "examples" / "train_ppo.py"


def _train(out: Path, game: str, players: int) -> list[dict]:
    env = {**os.environ, "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1"}
    run = subprocess.run([sys.executable, str(SCRIPT), "--game", game, "--players", str(players),
                          "--updates", "2", "--envs", "16", "--steps", "8", "--hidden", "16",
                          "--minibatch", "64", "--eval-every", "2", "--eval-rounds", "20",
                          "--seed", "3", "--out", str(out)],
                         env=env, capture_output=True, text=True, timeout=600, check=True)
    return [json.loads(line) for line in run.stdout.splitlines()]


def test_a_tiny_run_trains_logs_and_repeats(tmp_path: Path) -> None:
    for game, players in (("fantan", 4), ("fanti", 2)):
        a, b = tmp_path / f"{game}a.npz", tmp_path / f"{game}b.npz"
        log = _train(a, game, players)
        assert [r["update"] for r in log] == [1, 2]
        assert 0.0 <= log[-1]["vs_random"] <= 1.0 and "vs_greedy" in log[-1]
        assert log[-1]["steps"] == 2 * 16 * 8
        _train(b, game, players)
        with np.load(a) as wa, np.load(b) as wb:
            for k in wa.files:
                np.testing.assert_array_equal(wa[k], wb[k])  # seeded: the same weights
            policy = MLPPolicy({k: wa[k] for k in wa.files})
        mask = np.zeros(policy.actions, np.int8)
        mask[[3, 7]] = 1
        assert policy(np.zeros(policy.size, np.float32), mask) in (3, 7)
