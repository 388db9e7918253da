"""benchmarks/*.py: a bad argument is one usage line and exit status 2, before any work,
never a traceback (benchmarks/bench_args.py and the checks of each script)."""

from __future__ import annotations

import argparse
import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _bench_args():
    spec = importlib.util.spec_from_file_location("bench_args", ROOT / "benchmarks" / "bench_args.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


bench_args = _bench_args()

# (script, arguments, what the error line says); each used to end in a traceback, or
# (hostile_mix) to ignore the option and start a server
CASES = [
    ("batch_step_profile", ["fantan", "99"], "Fan Tan takes 3 to 8 players, not 99"),
    ("batch_step_profile", ["nosuch"], "unknown game 'nosuch'"),
    ("batch_bench", ["--batch", "64,x"], "argument --batch: must be whole numbers of 1 or more"),
    ("cluster_notify", ["--tables", "0"], "argument --tables: must be at least 1, not 0"),
    ("compare_revisions", ["--against", "/nonexistent"], "--against /nonexistent: no parlour"),
    ("env_speed", ["--players", "99"], "Fan Tan takes 3 to 8 players, not 99"),
    ("fantan_cheat_ceiling", ["--opponents", "nosuch"], "unknown bot 'nosuch' for fantan"),
    ("fantan_screen", ["--deals", "0:-5"], "argument --deals: must be FIRST:END with 0 <= FIRST < END"),
    ("fantan_search_speed", ["--bot", "nosuch"], "argument --bot: unknown bot 'nosuch' for fantan"),
    ("fanti_inference_accuracy", ["--players", "99"], "Fanti takes 2 to 4 players, not 99"),
    ("fanti_paired", ["--deals", "0:-5"], "argument --deals: must be FIRST:END with 0 <= FIRST < END"),
    ("fanti_paired", ["--variants", "nosuch"], "argument --variants: unknown bot 'nosuch' for fanti"),
    ("hint_calibration", ["--opponents", "nosuch"], "argument --opponents: unknown bot 'nosuch'"),
    ("hostile_mix", ["--nosuch"], "unrecognized arguments: --nosuch"),
    ("inference_accuracy", ["--positions", "-1"], "argument --positions: must be at least 1, not -1"),
    ("load_sweep", ["--step", "0"], "argument --step: must be at least 1, not 0"),
    ("server_move_cpu", ["--tables", "0"], "argument --tables: must be at least 1, not 0"),
    ("step_bench", ["--configs", "fantan:99"], "Fan Tan takes 3 to 8 players, not 99"),
    ("vector_speed", ["--num-envs", "0"], "argument --num-envs: must be at least 1, not 0"),
    ("web_quickplay", ["--runs", "0"], "argument --runs: must be at least 1, not 0"),
]


@pytest.mark.parametrize(("script", "args", "says"), CASES,
                         ids=[f"{s} {' '.join(a)}" for s, a, _ in CASES])
def test_a_bad_argument_is_one_usage_line(script, args, says):
    run = subprocess.run([sys.executable, f"benchmarks/{script}.py", *args], cwd=ROOT,
                         stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=60)
    assert "Traceback" not in run.stdout + run.stderr, run.stderr
    assert run.returncode == 2, run.stderr
    assert run.stdout == ""
    lines = run.stderr.strip().splitlines()
    assert lines[0].startswith("usage: ")
    assert lines[-1].startswith(f"{script}.py: error: "), run.stderr
    assert says in lines[-1]


def test_positive_and_nonnegative():
    assert bench_args.positive("1") == 1
    assert bench_args.positive("200") == 200
    assert bench_args.nonnegative("0") == 0
    for fn, text, says in ((bench_args.positive, "0", "must be at least 1, not 0"),
                           (bench_args.positive, "-3", "must be at least 1, not -3"),
                           (bench_args.positive, "x", "must be a whole number, not 'x'"),
                           (bench_args.positive, "1.5", "must be a whole number"),
                           (bench_args.nonnegative, "-1", "must be 0 or more, not -1"),
                           (bench_args.nonnegative, "", "must be a whole number, not ''")):
        with pytest.raises(argparse.ArgumentTypeError, match=says):
            fn(text)


def test_positives():
    assert bench_args.positives("64,1024,16384") == [64, 1024, 16384]
    for text in ("0", "64,,3", "64,x", "-1"):
        with pytest.raises(argparse.ArgumentTypeError, match="whole numbers of 1 or more"):
            bench_args.positives(text)


def test_deal_range():
    assert bench_args.deal_range("0:200") == (0, 200)
    assert bench_args.deal_range("5:6") == (5, 6)
    for text in ("0:-5", "5:5", "7:3", "-1:4"):
        with pytest.raises(argparse.ArgumentTypeError, match="0 <= FIRST < END"):
            bench_args.deal_range(text)
    for text in ("-3", "x", "1:x", "1:2:3", ""):
        with pytest.raises(argparse.ArgumentTypeError, match="must be FIRST:END, two whole"):
            bench_args.deal_range(text)


def _parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(prog="bench")
    ap.add_argument("--deals", type=bench_args.deal_range, default="0:200")
    ap.add_argument("--games", type=bench_args.positive, default=10)
    return ap


def test_types_in_a_parser(capsys):
    a = _parser().parse_args([])
    assert a.deals == (0, 200) and a.games == 10  # a string default goes through the type
    with pytest.raises(SystemExit) as e:
        _parser().parse_args(["--games", "0"])
    assert e.value.code == 2
    assert capsys.readouterr().err.splitlines()[-1] == (
        "bench: error: argument --games: must be at least 1, not 0")


def test_checked_turns_a_value_error_into_a_usage_error(capsys):
    ap = _parser()
    assert bench_args.checked(ap, int, "12") == 12

    def refuse(n: int) -> None:
        raise ValueError(f"Fan Tan takes 3 to 8 players, not {n}")

    with pytest.raises(SystemExit) as e:
        bench_args.checked(ap, refuse, 99)
    assert e.value.code == 2
    assert capsys.readouterr().err.splitlines()[-1] == (
        "bench: error: Fan Tan takes 3 to 8 players, not 99")


def test_players_and_bots_by_the_library_s_own_checks(capsys):
    ap = _parser()
    bench_args.check_players(ap, "fanti", 2)
    bench_args.check_bots(ap, "fantan", ["hard:200", "heuristic", "random"], "--bots")
    for call, says in (
            (lambda: bench_args.check_players(ap, "fantan", 99),
             "bench: error: Fan Tan takes 3 to 8 players, not 99"),
            (lambda: bench_args.check_players(ap, "nosuch", 4),
             "bench: error: unknown game 'nosuch'"),
            (lambda: bench_args.check_players(ap, "fanti", 5, "--lineup"),
             "bench: error: argument --lineup: Fanti takes 2 to 4 players, not 5"),
            (lambda: bench_args.check_bots(ap, "fanti", ["heuristic", "nosuch"], "--bots"),
             "bench: error: argument --bots: unknown bot 'nosuch' for fanti")):
        with pytest.raises(SystemExit) as e:
            call()
        assert e.value.code == 2
        assert capsys.readouterr().err.splitlines()[-1].startswith(says)
