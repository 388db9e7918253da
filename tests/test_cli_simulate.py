"""``parlour simulate`` and :mod:`parlour.simulate`: reproducible bot-only games (C-3)."""

from __future__ import annotations

from typer.testing import CliRunner

import parlour.cli.commands  # noqa: F401  (registers the commands)
from parlour import record
from parlour.cli import app
from parlour.simulate import (
    GameResult,
    SimConfig,
    Summary,
    choose_engine,
    derive_seed,
    play_game,
    run,
    run_chunks,
)

runner = CliRunner()


def simulate(tmp_path, name: str, *extra: str):
    out = tmp_path / name
    res = runner.invoke(app, ["simulate", "fantan", "--players", "4", "--games", "12",
                              "--seed", "7", "--rule", "rounds=2", "--bots",
                              "greedy,random,greedy,random", "--out", str(out), *extra])
    assert res.exit_code == 0, res.output
    return res, out.read_bytes()


def test_same_seed_gives_byte_identical_output_whatever_the_workers(tmp_path):
    """C-3: records and summary depend on (seed, game index) only, not on --workers."""
    res1, data1 = simulate(tmp_path, "one.jsonl", "--workers", "1")
    res2, data2 = simulate(tmp_path, "two.jsonl", "--workers", "2")
    assert data1 == data2
    summary1 = res1.stdout.replace("one.jsonl", "X")
    assert summary1 == res2.stdout.replace("two.jsonl", "X")
    lines = data1.decode().splitlines()
    assert len(lines) == 12
    for i, line in enumerate(lines):
        m = record.load(record.parse_json(line))
        assert m.is_over and m.meta["game_index"] == i


def test_summary_table_and_other_seed(tmp_path):
    res, data = simulate(tmp_path, "a.jsonl")
    assert "12 games of fantan, 4 players, 24 rounds" in res.stdout
    assert "mean moves per round" in res.stdout and "win %" in res.stdout
    other = runner.invoke(app, ["simulate", "fantan", "-n", "4", "-g", "12", "--seed", "8",
                                "--rule", "rounds=2", "--out", str(tmp_path / "b.jsonl")])
    assert other.exit_code == 0
    assert (tmp_path / "b.jsonl").read_bytes() != data


def test_summary_splits_shared_wins():
    cfg = SimConfig("fanti", 2, 2, bots=("random", "random"))
    s = Summary.of(cfg, [
        GameResult(0, "", (5, 5), (0, 1), ((2, 3), (3, 2)), (24, 24)),
        GameResult(1, "", (6, 4), (0,), ((6, 4),), (24,)),
    ])
    assert s.wins == [1.5, 0.5] and sum(s.wins) == s.games
    assert s.rounds == 3 and s.mean_round_score == [11 / 3, 3.0]
    assert s.mean_moves_per_round == 24.0


def test_game_depends_only_on_seed_and_index():
    cfg = SimConfig("fanti", 3, 5, seed=4, bots=("greedy",) * 3, rules={"rounds": 1})
    direct = play_game(cfg, 3)
    assert list(run(cfg, workers=1, chunk=2))[3] == direct
    assert derive_seed(4, 3, "deal") == derive_seed("4", "3", "deal")  # stable, unsalted


def test_usage_errors(tmp_path):
    cases = [
        (["fanti", "-n", "1", "-g", "1"], "Fanti takes 2 to 4 players, not 1"),
        (["fanti", "-n", "2", "-g", "0"], "--games must be at least 1"),
        (["fanti", "-n", "2", "-g", "1", "-w", "0"], "--workers must be at least 1"),
        (["fanti", "-n", "3", "-g", "1", "--bots", "greedy,random"], "--bots needs one name"),
        (["fantan", "-n", "4", "-g", "1", "--rule", "stakes=gold"], "rule 'stakes' must be"),
    ]
    for args, message in cases:
        res = runner.invoke(app, ["simulate", *args])
        assert res.exit_code == 2, args
        assert message in res.stderr
    res = runner.invoke(app, ["simulate", "fanti", "-g", "1"])  # --players is required
    assert res.exit_code == 2


# --- the batch engine --------------------------------------------------------------------


def simulate_random(tmp_path, name: str, *extra: str, game: str = "fanti", players: str = "3"):
    out = tmp_path / name
    res = runner.invoke(app, ["simulate", game, "-n", players, "-g", "40", "--seed", "11",
                              "--bots", "random", "--out", str(out), *extra])
    assert res.exit_code == 0, res.output
    return res, out.read_bytes()


def test_batch_engine_records_are_valid_and_reproducible_whatever_the_workers(tmp_path):
    res1, data1 = simulate_random(tmp_path, "one.jsonl", "--engine", "batch")
    res2, data2 = simulate_random(tmp_path, "two.jsonl", "--engine", "batch", "--workers", "2",
                                  "--batch", "7")
    assert data1 == data2  # same games whatever the workers and the batch size
    assert res1.stdout.replace("one.jsonl", "X") == res2.stdout.replace("two.jsonl", "X")
    assert "batch engine" in res1.stdout and "40 games of fanti, 3 players" in res1.stdout
    lines = data1.decode().splitlines()
    assert len(lines) == 40
    for i, line in enumerate(lines):
        m = record.load(record.parse_json(line))  # every move replayed by the step engine
        assert m.is_over and m.seats == ["random 0", "random 1", "random 2"]
        assert m.meta == {"generator": "parlour simulate", "engine": "batch", "seed": 11,
                          "game_index": i, "bots": ["random"] * 3}
    check = runner.invoke(app, ["check", str(tmp_path / "one.jsonl")])
    assert check.exit_code == 0 and "40 valid, 0 invalid" in check.stdout


def test_auto_picks_batch_for_all_random_seats_only(tmp_path):
    res_auto, auto = simulate_random(tmp_path, "auto.jsonl", game="fantan", players="4")
    res_batch, batch = simulate_random(tmp_path, "batch.jsonl", "--engine", "batch",
                                       game="fantan", players="4")
    _, step = simulate_random(tmp_path, "step.jsonl", "--engine", "step", game="fantan",
                              players="4")
    assert auto == batch and "batch engine" in res_auto.stdout
    assert step != batch  # the engines draw from different streams: different games
    assert b'"engine":"batch"' not in step.splitlines()[0]
    mixed = runner.invoke(app, ["simulate", "fantan", "-n", "4", "-g", "2", "--bots",
                                "random,greedy,random,random"])
    assert mixed.exit_code == 0 and "step engine" in mixed.stdout
    cfg = SimConfig("fantan", 4, 1, bots=("random",) * 4, engine="auto")
    assert cfg.resolved_engine() == "batch"
    assert choose_engine("auto", ["random", "greedy"]) == "step"


def test_batch_engine_refuses_other_bots():
    res = runner.invoke(app, ["simulate", "fanti", "-n", "2", "-g", "1", "--engine", "batch",
                              "--bots", "random,greedy"])
    assert res.exit_code == 2
    assert "uniformly random moves only" in res.stderr and "greedy (seat 1)" in res.stderr
    res = runner.invoke(app, ["simulate", "fanti", "-n", "2", "-g", "1", "--engine", "gpu"])
    assert res.exit_code == 2 and "unknown --engine 'gpu'" in res.stderr


def test_batch_chunks_sum_up_like_single_games():
    """Summary.add_chunk (arrays at once) equals Summary.add game by game, exactly."""
    cfg = SimConfig("fanti", 4, 30, seed=2, bots=("random",) * 4, rules={"ties": "shared"},
                    engine="batch", batch=8)
    chunks = list(run_chunks(cfg, chunk=7, records=False))
    fast = Summary.of(cfg, [])
    for ch in chunks:
        fast.add_chunk(ch)
    slow = Summary.of(cfg, run(cfg, chunk=11, records=False))
    assert fast == slow and fast.games == 30 and sum(fast.wins) == 30
