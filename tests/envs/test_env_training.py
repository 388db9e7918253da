"""A tiny training run of the baseline (seconds): it learns from the vector env, logs
checkpoints, writes weights the ``learned`` bot's policy loads, and repeats exactly."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

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


# --- parlour.envs.training and ``parlour train`` --------------------------------------

def _tiny_weights(size: int = 7, hidden: int = 5, actions: int = 4) -> dict:
    from parlour.envs.training import init

    w = init(np.random.default_rng(0), size, hidden, actions)
    w = {k: v.astype(np.float64) for k, v in w.items()}
    w["wp"] = w["wp"] * 100  # not a near-uniform policy, so the check has something to see
    return w


def _numeric(loss, w: dict, key: str, idx: tuple, eps: float = 1e-6) -> float:
    old = w[key][idx]
    w[key][idx] = old + eps
    hi = loss(w)
    w[key][idx] = old - eps
    lo = loss(w)
    w[key][idx] = old
    return (hi - lo) / (2 * eps)


def test_hand_written_gradients_match_finite_differences() -> None:
    """The imitation and PPO gradients are the derivatives of their losses (every array,
    a few entries each)."""
    from parlour.envs.training import forward, imitation_grads, ppo_grads

    rng = np.random.default_rng(1)
    w = _tiny_weights()
    x = rng.random((6, 7))
    mask = np.array([[1, 1, 0, 1], [1, 0, 1, 1], [0, 1, 1, 0], [1, 1, 1, 1], [1, 0, 0, 1],
                     [0, 1, 0, 1]], bool)
    a = np.array([0, 2, 1, 3, 3, 1])
    ret, known = rng.standard_normal(6), np.array([1, 0, 1, 1, 0, 1], float)

    def il_loss(w):
        _h1, _h2, _p, logp, v = forward(w, x, mask)
        return -logp[np.arange(6), a].mean() + 0.5 * 0.7 * ((v - ret) ** 2 * known).mean()

    old_logp = forward(w, x, mask)[3][np.arange(6), a] + rng.normal(0, 0.3, 6)
    adv = rng.standard_normal(6)

    def ppo_loss(w):
        _h1, _h2, p, logp, v = forward(w, x, mask)
        ratio = np.exp(logp[np.arange(6), a] - old_logp)
        pg = -np.minimum(ratio * adv, np.clip(ratio, 0.8, 1.2) * adv).mean()
        ent = -(p * logp).sum(axis=1).mean()
        return pg + 0.5 * 0.5 * ((v - ret) ** 2).mean() - 0.01 * ent

    g_il = imitation_grads(w, x, mask, a, ret, known, 0.7)[0]
    g_ppo = ppo_grads(w, x, mask, a, old_logp, adv, ret, 0.2, 0.5, 0.01)[0]
    for key in w:
        for idx in [tuple(rng.integers(0, s) for s in w[key].shape) for _ in range(3)]:
            assert g_il[key][idx] == pytest.approx(_numeric(il_loss, w, key, idx), abs=1e-6)
            assert g_ppo[key][idx] == pytest.approx(_numeric(ppo_loss, w, key, idx), abs=1e-6)


CLI_TINY = ["--imitate", "3", "--imitate-envs", "16", "--updates", "2", "--envs", "16",
            "--steps", "8", "--hidden", "16", "--eval-every", "0", "--eval-rounds", "20",
            "--value-warmup", "1", "--seed", "5"]


def test_parlour_train_writes_weights_log_and_curve_and_repeats(tmp_path: Path) -> None:
    """``parlour train``: imitation then PPO in seconds; weights the ``learned`` bot loads,
    a JSON-lines log, a PNG curve; seeded, so a second run gives the same weights."""
    from typer.testing import CliRunner

    import parlour.cli.commands  # noqa: F401
    from parlour.cli import app

    runner = CliRunner()
    outs = []
    for name in ("a", "b"):
        out = tmp_path / f"{name}.npz"
        res = runner.invoke(app, ["train", "fanti", "--players", "2", "--out", str(out),
                                  *CLI_TINY], env={"OPENBLAS_NUM_THREADS": "1"})
        assert res.exit_code == 0, res.output
        assert "trained in" in res.output and "vs heuristic" in res.output
        outs.append(out)
    log = [json.loads(x) for x in outs[0].with_suffix(".jsonl").read_text().splitlines()]
    assert log[0]["config"]["game"] == "fanti" and log[0]["config"]["imitate"] == 3
    assert [r["phase"] for r in log[1:-1]] == ["imitate"] * 3 + ["ppo"] * 2
    assert log[-1]["done"] and 0.0 <= log[-1]["vs_heuristic"] <= 1.0
    assert outs[0].with_suffix(".png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    with np.load(outs[0]) as wa, np.load(outs[1]) as wb:
        assert sorted(wa.files) == sorted(wb.files)
        for k in wa.files:
            np.testing.assert_array_equal(wa[k], wb[k])
        policy = MLPPolicy({k: wa[k] for k in wa.files})
    assert policy.size == 435 - 57  # Fanti 2 players: 264 + 57n observations
    assert policy.actions == 105


@pytest.mark.parametrize(("args", "words"), [
    (["fanti", "--expert", "pimc"], "expert must be a compiled bot"),
    (["fanti", "--opponents", "heuristic,hard"], "opponents must be compiled bots"),
    (["fantan", "--players", "9"], "takes 3 to 8 players"),
    (["fanti", "--out", "weights.txt"], "must name a .npz file"),
    (["fanti", "--out", "/no/such/dir/w.npz"], "does not exist"),
    (["fanti", "--dagger", "1.5"], "dagger must be between 0 and 1"),
    (["fanti", "--imitate", "0", "--updates", "0"], "nothing to train"),
    (["fanti", "--reward", "chips"], "reward must be score or result"),
    (["fanti", "--out", "/tmp"], "must name a .npz file"),
    (["fanti", "--init", "/no/such.npz"], "no such file"),
    (["fanti", "--init", str(Path(__file__).parent)], "is a folder"),
    (["fanti", "--init", __file__], "is not a weights file"),  # a text file, checked first
    (["nosuchgame"], "nosuchgame"),
])
def test_parlour_train_refuses_bad_options_in_words(args: list[str], words: str) -> None:
    from typer.testing import CliRunner

    import parlour.cli.commands  # noqa: F401
    from parlour.cli import app

    res = CliRunner().invoke(app, ["train", *args])
    assert res.exit_code == 2
    assert words in res.output
    assert "Traceback" not in res.output


def test_parlour_train_refuses_weights_without_the_network_arrays(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    import parlour.cli.commands  # noqa: F401
    from parlour.cli import app

    other = tmp_path / "other.npz"
    np.savez(other, w1=np.zeros((2, 2), np.float32))
    res = CliRunner().invoke(app, ["train", "fanti", "--init", str(other), "--out",
                                   str(tmp_path / "w.npz")])
    assert res.exit_code == 2
    assert "lacks b1, w2, b2, wp, bp" in res.output
    assert not (tmp_path / "w.npz").exists()  # refused before any work


def test_win_share_splits_shared_wins_as_the_arena_does() -> None:
    """The training evaluation reads a seat's share of the win back from its "result"
    reward (k winners among n: (n-k)/(k(n-1)) each, the others -1/(n-1))."""
    from parlour.envs.training import win_share

    r = np.array([1.0, 1 / 3, 1 / 9, 0.0, -1 / 3])
    np.testing.assert_allclose(win_share(r, 4), [1.0, 0.5, 1 / 3, 0.25, 0.0])
    np.testing.assert_allclose(win_share(np.array([1.0, 0.0, -1.0]), 2), [1.0, 0.5, 0.0])


def test_parlour_train_refuses_an_out_that_is_a_directory_before_any_work(tmp_path: Path) -> None:
    """A folder named like weights (``w.npz/``) is refused in words before training starts;
    it once trained for the whole run and ended in IsADirectoryError."""
    from typer.testing import CliRunner

    import parlour.cli.commands  # noqa: F401
    from parlour.cli import app

    (tmp_path / "w.npz").mkdir()
    res = CliRunner().invoke(app, ["train", "fanti", "-n", "2", "--out", str(tmp_path / "w.npz"),
                                   "--rule", "pack=small", "--engine", "step"])
    assert res.exit_code == 2
    assert "it is a directory" in res.output and "Traceback" not in res.output
    assert not (tmp_path / "w.jsonl").exists()
