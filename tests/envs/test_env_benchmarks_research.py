"""benchmarks/nashconv.py and benchmarks/leaderboard.py: the pieces that make the NashConv
table (a weights file as a bot, rows added to earlier results) and the leaderboard's
choice of games (docs/research.md)."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import exploitability

from parlour.envs.encoding import codec_for
from parlour.envs.observation import encoder_for
from parlour.envs.training import init

ROOT = Path(__file__).resolve().parents[2]


def _script(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, ROOT / "benchmarks" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_merged_adds_rows_and_replaces_a_policy_measured_again():
    nc = _script("nashconv")
    head = {"game": "fanti", "players": 2, "rules": {"pack": "small", "rounds": 1}}
    old = {**head, "rows": [{"policy": "random", "nash_conv": 0.6},
                            {"policy": "cfr-1", "iterations": 1, "nash_conv": 0.6},
                            {"policy": "cfr-2", "iterations": 2, "nash_conv": 0.3}]}
    new = {**head, "rows": [{"policy": "w.npz", "nash_conv": 1.0},
                            {"policy": "random", "nash_conv": 0.5}]}
    rows = nc.merged(old, new)["rows"]
    assert [r["policy"] for r in rows] == ["random", "w.npz", "cfr-1", "cfr-2"]
    assert rows[0]["nash_conv"] == 0.5
    with pytest.raises(SystemExit, match="another game"):
        nc.merged(old, {**new, "players": 3})
    assert nc.label("benchmarks/results/learned-fanti-2p-small.npz") == "learned"
    assert nc.label("agents/mine.npz") == "mine.npz" and nc.label("hard") == "hard"


def test_a_weights_file_is_a_pure_policy_with_a_nash_conv(tmp_path):
    """FA-11: a ``PATH.npz`` entrant on the small Fanti puts all its probability on one
    legal action of every decision, and OpenSpiel measures its NashConv."""
    nc = _script("nashconv")
    game = pyspiel.load_game("python_fanti", {"players": 2, "pack": "small", "rounds": 1})
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    w = init(np.random.default_rng(0), encoder_for("fanti", 2, False).size, 8,
             codec_for("fanti").num_actions)
    path = tmp_path / "w.npz"
    np.savez(path, **w)
    policy = nc.BotPolicy(game, str(path))
    probs = policy.action_probabilities(state)
    assert list(probs.values()) == [1.0] and set(probs) <= set(state.legal_actions())
    value = exploitability.nash_conv(game, policy)
    assert 0.0 <= value <= 2.0


def test_leaderboard_refuses_an_unknown_game_before_any_work():
    run = subprocess.run([sys.executable, "benchmarks/leaderboard.py", "--games", "chess"],
                         cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert run.returncode == 2
    assert "--games: chess not in fantan, fanti" in run.stderr
    assert "Traceback" not in run.stderr
