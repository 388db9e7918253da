"""Tournaments: duplicate deals, determinism across workers, records, the CLI."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from parlour import record
from parlour.arena.tournament import Tournament
from parlour.cli import commands  # noqa: F401  (registers the commands)
from parlour.cli.app import app


def test_every_deal_is_played_once_per_rotation_with_the_same_cards():
    t = Tournament("fantan", 4, ["heuristic", "random"], 3, seed=2)
    res = t.run()
    assert len(res.games) == 12
    for d in range(3):
        games = [g for g in res.games if g.deal == d]
        decks = {json.loads(g.record)["rounds"][0]["deck"].__str__() for g in games}
        assert len(decks) == 1
        heur_seats = sorted(g.entries.index(0) for g in games)
        assert heur_seats == [0, 1, 2, 3]


def test_same_seed_same_results_with_any_number_of_workers():
    t = Tournament("fanti", 2, ["heuristic", "greedy"], 4, seed=3)
    one = t.run(workers=1)
    two = t.run(workers=2)
    assert one.summary() == two.summary()
    assert one.records() == two.records()


def test_records_are_valid_and_games_default_to_one_round():
    res = Tournament("fantan", 3, ["greedy", "random"], 2, seed=5).run()
    for line in res.records():
        m = record.load(json.loads(line))
        assert m.is_over and len(m.rounds) == 1
        assert json.loads(line)["meta"]["arena"]["seed"] == 5
    multi = Tournament("fanti", 2, ["greedy"], 1, rules={"rounds": 2}).run()
    assert all(len(json.loads(line)["rounds"]) == 2 for line in multi.records())


def test_summary_counts_games_and_shared_wins():
    s = Tournament("fantan", 4, ["heuristic", "random"], 5, seed=8).run().summary()
    assert s["games"] == 20 and s["deals"] == 5 and s["players"] == 4
    bots = {b["name"]: b for b in s["bots"]}
    assert bots["heuristic"]["games"] == 20 and bots["random"]["games"] == 60
    assert sum(b["wins"] for b in s["bots"]) == pytest.approx(20)
    assert sum(x["wins"] for x in s["seats"]) == pytest.approx(20)
    for b in s["bots"]:
        assert b["ci95"][0] <= b["win_rate"] <= b["ci95"][1]
        assert set(b) >= {"name", "games", "wins", "win_rate", "ci95", "mean_score", "rating"}


def test_cli_tournament_json_and_out(tmp_path):
    out = tmp_path / "t"
    res = CliRunner().invoke(app, ["tournament", "fantan", "--players", "4", "--bots",
                                   "heuristic,random", "--games", "3", "--seed", "1",
                                   "--out", str(out), "--json"])
    assert res.exit_code == 0, res.output
    summary = json.loads(res.stdout.strip().splitlines()[-1])
    assert summary["game"] == "fantan" and summary["deals"] == 3
    assert [b["name"] for b in summary["bots"]] == ["heuristic", "random"]
    for name in ("records.jsonl", "summary.json", "win_rates.png", "scores.png"):
        assert (out / name).stat().st_size > 0
    entries = list(record.read_entries(out / "records.jsonl"))
    assert len(entries) == 12 and all(record.check_entry(e) for e in entries)


@pytest.mark.parametrize(("args", "message"), [
    (["--bots", "nosuchbot"], "error: unknown bot 'nosuchbot' for fanti; choose one of: "),
    (["--rule", "ties=maybe"], 'error: rule \'ties\' must be "none" | "shared", not "maybe"'),
    (["--games", "0"], "error: "),
])
def test_cli_tournament_rejects_bad_input(args, message):
    """A bad value is one plain line on standard error and exit status 2: no traceback,
    nothing played, nothing on standard output."""
    r = CliRunner().invoke(app, ["tournament", "fanti", "--players", "2", "--games", "1",
                                 *args])
    assert r.exit_code == 2, r.output
    assert isinstance(r.exception, SystemExit)  # typer.Exit, not an escaped error
    assert r.stderr.startswith(message) and r.stderr.count("\n") == 1, r.stderr
    assert "Traceback" not in r.output and r.stdout == ""


def test_cli_analyze_writes_a_markdown_report(tmp_path):
    out = tmp_path / "a"
    res = CliRunner().invoke(app, ["analyze", "fantan", "--players", "4", "--games", "4",
                                   "--compare", "opening=seven-of-diamonds,any-seven",
                                   "--out", str(out)])
    assert res.exit_code == 0, res.output
    text = (out / "report.md").read_text()
    assert "opening=seven-of-diamonds" in text and "opening=any-seven" in text
    assert "first player wins" in text and "passes per round" in text
    assert (out / "seat_advantage.png").exists() and (out / "score_distribution.png").exists()
    data = json.loads((out / "report.json").read_text())
    assert [v["rules"]["opening"] for v in data["variants"]] == ["seven-of-diamonds",
                                                                 "any-seven"]
