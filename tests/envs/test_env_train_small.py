"""Training on the solvable variants (FT-12, FA-11): ``parlour train --engine step``.

The compiled vector environment refuses a cut pack; ``parlour train`` says so and trains
there only when told to (``--engine step``, the Python engine), never in silence."""

from __future__ import annotations

import json

import numpy as np
import pytest
from typer.testing import CliRunner

import parlour.cli.commands  # noqa: F401  (registers the commands)
from parlour.bots import make_bot
from parlour.cli import app
from parlour.envs.step_vector import StepVectorEnv
from parlour.games import get_game
from parlour.match import Match, Shuffler

VARIANTS = [("fantan", 3), ("fanti", 2)]  # FT-12 and FA-11: the small packs
TINY = ["--imitate", "3", "--imitate-envs", "8", "--updates", "2", "--envs", "8",
        "--steps", "4", "--hidden", "8", "--eval-every", "0", "--eval-rounds", "10",
        "--value-warmup", "1", "--seed", "5"]


@pytest.mark.parametrize(("game", "players"), VARIANTS)
def test_train_refuses_the_small_pack_on_the_compiled_env_in_words(game, players, tmp_path):
    """FT-12/FA-11: no silent fallback -- without --engine step the cut pack is refused,
    naming the option and the way out, before anything is written."""
    out = tmp_path / "w.npz"
    res = CliRunner().invoke(app, ["train", game, "-n", str(players), "--rule", "pack=small",
                                   "--out", str(out), *TINY])
    assert res.exit_code == 2, res.output
    text = " ".join(res.output.split())
    assert 'pack="small"' in text and "--engine step" in text
    assert "Traceback" not in res.output
    assert not out.exists() and not out.with_suffix(".jsonl").exists()


@pytest.mark.parametrize(("args", "words"), [
    (["--engine", "warp"], "engine must be one of vector, step"),
    (["--rule", "pack=tiny"], "pack"),
    (["--rule", "rounds=2"], "plays one round"),
    (["--engine", "step", "--expert", "nosuchbot"], "nosuchbot"),
])
def test_train_refuses_bad_engine_and_rules_in_words(args, words, tmp_path):
    res = CliRunner().invoke(app, ["train", "fanti", "-n", "2", "--out",
                                   str(tmp_path / "w.npz"), *args])
    assert res.exit_code == 2, res.output
    assert words in " ".join(res.output.split())
    assert "Traceback" not in res.output


@pytest.mark.parametrize(("game", "players"), VARIANTS)
def test_train_on_the_step_engine_learns_the_small_pack_and_repeats(game, players, tmp_path):
    """FT-12/FA-11: a tiny run on the Python engine says which engine it used (output and
    log), repeats bit for bit, and its weights enter as a PATH.npz bot that plays a
    small-pack game through."""
    outs = []
    for name in ("a", "b"):
        out = tmp_path / f"{name}.npz"
        res = CliRunner().invoke(app, ["train", game, "-n", str(players), "--rule",
                                       "pack=small", "--engine", "step", "--out", str(out),
                                       *TINY], env={"OPENBLAS_NUM_THREADS": "1"})
        assert res.exit_code == 0, res.output
        assert "step engine" in res.output and "vs heuristic" in res.output
        outs.append(out)
    log = [json.loads(x) for x in outs[0].with_suffix(".jsonl").read_text().splitlines()]
    assert log[0]["config"]["engine"] == "step"
    assert log[0]["config"]["rules"] == {"pack": "small"}
    assert [r["phase"] for r in log[1:-1]] == ["imitate"] * 3 + ["ppo"] * 2
    with np.load(outs[0]) as wa, np.load(outs[1]) as wb:
        for k in wa.files:
            np.testing.assert_array_equal(wa[k], wb[k])
    g = get_game(game)
    m = Match.new(g, players, {"pack": "small", "rounds": 1}, shuffler=Shuffler(3))
    bots = [make_bot(str(outs[0]), game, s) for s in range(players)]
    assert m.play_out(bots, Shuffler(3)).is_over


@pytest.mark.parametrize(("game", "players"), VARIANTS)
def test_step_vector_env_self_play_is_seeded_zero_sum_and_atomic(game, players):
    def run(seed: int) -> tuple[list[np.ndarray], list[np.ndarray]]:
        env = StepVectorEnv(game, 4, players, seat=None, opponents="self", pack="small")
        obs, info = env.reset(seed=seed)
        seen, ends = [obs], []
        rng = np.random.default_rng(0)
        for _ in range(30):
            a = (rng.random(info["action_mask"].shape) * info["action_mask"]).argmax(1)
            obs, r, term, _trunc, info = env.step(a)
            assert (r == info["rewards"][np.arange(4), info["actor"]]).all()
            if term.any():  # the ended game's result: zero sum, its last observation kept
                assert np.allclose(info["rewards"][term].sum(1), 0.0)
                assert all(info["final_obs"][i] is not None for i in np.flatnonzero(term))
                ends.append(info["rewards"][term])
            seen.append(obs)
        return seen, ends

    a, ends = run(11)
    b, _ = run(11)
    assert ends and all((x == y).all() for x, y in zip(a, b, strict=True))
    env = StepVectorEnv(game, 2, players, opponents="self", pack="small")
    obs, info = env.reset(seed=1)
    bad = info["action_mask"].argmax(1)
    bad[1] = int(np.flatnonzero(~info["action_mask"][1])[0])
    with pytest.raises(ValueError, match="env 1"):
        env.step(bad)
    np.testing.assert_array_equal(env.reset(seed=1)[0], obs)  # and nothing had moved
    assert (env._observe()[0] == obs).all()


@pytest.mark.parametrize(("game", "players"), [("fantan", 4), ("fanti", 2)])
def test_step_vector_env_labels_are_the_bots_moves(game, players):
    """Following ``bot_actions("heuristic")`` plays the heuristic's moves, action by action
    through moves of several actions (full pack: Fanti's collections)."""
    env = StepVectorEnv(game, 3, players, seat=None, opponents="self")
    _obs, info = env.reset(seed=4)
    ref = make_bot("heuristic", game, 0)
    expected: dict[int, object] = {}
    checked = 0
    for _ in range(60):
        for i, s in enumerate(env.sessions):
            if s.pending is None:  # a move starts: what the heuristic plays here
                expected[i] = ref.choose(s.round.view(s.current_seat))
        labels = env.bot_actions("heuristic")
        assert info["action_mask"][np.arange(3), labels].all()
        starts = [len(s.round.history) for s in env.sessions]
        _obs, _r, term, _t, info = env.step(labels)
        for i, s in enumerate(env.sessions):
            if not term[i] and len(s.round.history) > starts[i]:  # the move was made
                assert s.round.history[starts[i]][1] == expected[i]
                checked += 1
    assert checked > 60


def test_step_vector_env_against_bots_plays_the_learner_seat_only():
    env = StepVectorEnv("fanti", 5, 2, seat=1, opponents="greedy", pack="small")
    _obs, info = env.reset(seed=2)
    for _ in range(20):
        assert (info["seat"] == 1).all()
        assert all(s.current_seat == 1 for s in env.sessions)
        _obs, _r, _term, _trunc, info = env.step(info["action_mask"].argmax(1))
