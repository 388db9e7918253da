"""``parlour analyze``: a crossed grid of variants, paired differences from the baseline,
the findings in words, rules switched off (``--ablate``), CSV and Parquet per game."""

from __future__ import annotations

import csv
import json

import pytest
from typer.testing import CliRunner

from parlour.arena import findings, stats
from parlour.arena.analyze import analyze
from parlour.cli import commands  # noqa: F401  (registers the commands)
from parlour.cli.app import app


def _run(tmp_path, *args: str) -> dict:
    out = tmp_path / "a"
    res = CliRunner().invoke(app, ["analyze", *args, "--out", str(out)])
    assert res.exit_code == 0, res.output
    return json.loads((out / "report.json").read_text())


def test_comparing_rounds_plays_whole_games_of_that_many_rounds(tmp_path):
    # Finding 10: `--compare rounds=1,3` gave two identical columns (one round was
    # played whatever the rounds).
    data = _run(tmp_path, "fanti", "-n", "2", "--games", "6", "--bots", "random",
                "--compare", "rounds=1,3")
    one, three = data["variants"]
    assert one["rules"]["rounds"] == 1 and three["rules"]["rounds"] == 3
    assert one["scores"] != three["scores"]
    assert three["scores"]["max"] > one["scores"]["max"] or \
        three["scores"]["mean"] > 2 * one["scores"]["mean"]


def test_several_compares_are_crossed_into_a_grid(tmp_path):
    # Finding 10: a second --compare silently replaced the first.
    data = _run(tmp_path, "fantan", "-n", "4", "--games", "3", "--bots", "random",
                "--compare", "opening=seven-of-diamonds,any-seven", "--compare", "rounds=1,2")
    assert [v["label"] for v in data["variants"]] == [
        "opening=seven-of-diamonds, rounds=1", "opening=seven-of-diamonds, rounds=2",
        "opening=any-seven, rounds=1", "opening=any-seven, rounds=2"]
    # three cells against the baseline, each on three quantities (first mover, moves,
    # passes)
    assert len(data["differences"]) == 9
    assert {d["cell"] for d in data["differences"]} == {1, 2, 3}
    text = (tmp_path / "a" / "report.md").read_text()
    assert text.rstrip().splitlines()[-1].startswith("- ")  # ends with the findings
    assert "## Findings" in text and "(instead of seven-of-diamonds)" in text
    assert (tmp_path / "a" / "differences.png").stat().st_size > 0


def test_the_same_key_twice_and_a_compared_fixed_rule_are_refused(tmp_path):
    r = CliRunner().invoke(app, ["analyze", "fantan", "--compare", "rounds=1,2",
                                 "--compare", "rounds=3"])
    assert r.exit_code == 2 and "compared twice" in r.output
    r = CliRunner().invoke(app, ["analyze", "fantan", "--compare", "rounds=1,2",
                                 "--rule", "rounds=2"])
    assert r.exit_code == 2 and "both compared and fixed" in r.output


def test_paired_interval_of_differences():
    mean, ci = stats.paired_ci([1.0, 1.0, 1.0])
    assert mean == 1.0 and ci == (1.0, 1.0)
    mean, ci = stats.paired_ci([0.0, 1.0, 0.0, 1.0])
    assert mean == 0.5 and ci is not None and ci[0] < 0.5 < ci[1]
    half = stats.Z95 * (1 / 3) ** 0.5 / 2  # sd of 0,1,0,1 is sqrt(1/3); sqrt(4) = 2
    assert ci == pytest.approx((0.5 - half, 0.5 + half))
    assert stats.paired_ci([0.3]) == (0.3, None)


def test_a_variant_against_itself_differs_by_exactly_nothing():
    report = analyze("fantan", 4, 5, {}, bots=["random"], seed=1)
    from parlour.arena.analyze import RoundFacts

    facts = [RoundFacts(**g) for g in report["games"]]
    diffs = findings.differences("fantan", 4, [facts, facts], ())
    assert all(d["difference"] == 0 and d["ci95"] == [0, 0] for d in diffs)


def test_paired_differences_are_narrower_than_the_cells_own_intervals():
    report = analyze("fantan", 5, 60, {}, [("opening", ["seven-of-diamonds", "any-seven"])],
                     bots=["heuristic"], seed=3)
    d = next(x for x in report["differences"] if x["key"] == "moves")
    assert d["ci95"] is not None and d["ci95"][0] <= d["difference"] <= d["ci95"][1]
    first = next(x for x in report["differences"] if x["key"] == "first_player")
    a, b = (v["first_player"] for v in report["variants"])
    assert first["difference"] == pytest.approx(b["win_rate"] - a["win_rate"])


def test_a_finding_is_one_plain_sentence():
    report = {"variants": [{"chosen": {"opening": "seven-of-diamonds"}},
                           {"chosen": {"opening": "any-seven"}}],
              "differences": [
                  {"cell": 1, "key": "first_player", "label": "the first mover's win rate",
                   "kind": "share", "baseline": 0.221, "value": 0.177,
                   "difference": -0.044, "ci95": [-0.062, -0.026]},
                  {"cell": 1, "key": "moves", "label": "moves per round", "kind": "mean",
                   "baseline": 60.0, "value": 60.1, "difference": 0.1, "ci95": [-0.5, 0.7]}],
              "ablations": []}
    assert findings.sentences(report) == [
        "opening=any-seven (instead of seven-of-diamonds) lowers the first mover's win rate "
        "by 4.4 points [2.6, 6.2] (from 22.1% to 17.7%).",
        "opening=any-seven (instead of seven-of-diamonds) does not measurably change moves "
        "per round (each 95% interval of the difference includes zero)."]


def test_ablate_measures_a_rule_the_kit_declares(tmp_path):
    data = _run(tmp_path, "fanti", "-n", "2", "--games", "30", "--bots", "random",
                "--ablate", "final-sweep")
    (a,) = data["ablations"]
    assert a["key"] == "final-sweep" and a["who"] == "the last collector"
    assert a["applied"] == 30 and a["worth_ci95"] is not None
    # the sweep only adds cards to the last collector's pile: never worth less than 0
    assert a["points_with"] >= a["points_without"] and a["worth"] >= 0
    (sentence,) = [s for s in data["findings"] if s.startswith("The final sweep")]
    assert "to the last collector" in sentence and "win rate" in sentence
    rows = list(csv.DictReader((tmp_path / "a" / "games.csv").open()))
    assert len(rows) == 30 and int(rows[0]["final-sweep_score_with"]) >= int(
        rows[0]["final-sweep_score_without"])


def test_ablate_names_only_what_the_game_offers():
    r = CliRunner().invoke(app, ["analyze", "fantan", "--ablate", "final-sweep"])
    assert r.exit_code == 2 and "no rule switch" in r.output and "Traceback" not in r.output
    r = CliRunner().invoke(app, ["analyze", "fanti", "--ablate", "final-sweep",
                                 "--rule", "rounds=2"])
    assert r.exit_code == 2 and "single rounds" in r.output


def test_per_game_results_as_csv_and_parquet(tmp_path):
    import pyarrow.parquet as pq

    _run(tmp_path, "fantan", "-n", "3", "--games", "4", "--bots", "random",
         "--compare", "opening=seven-of-diamonds,any-seven")
    rows = list(csv.DictReader((tmp_path / "a" / "games.csv").open()))
    table = pq.read_table(tmp_path / "a" / "games.parquet")
    assert len(rows) == table.num_rows == 8
    assert {"variant", "opening", "deal", "first_mover", "winners", "score_0", "score_2",
            "first_mover_win", "passes"} <= set(table.column_names)
    assert table.column("opening").to_pylist() == ["seven-of-diamonds"] * 4 + ["any-seven"] * 4
    assert [r["deal"] for r in rows] == ["0", "1", "2", "3"] * 2
