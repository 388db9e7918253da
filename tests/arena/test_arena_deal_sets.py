"""Frozen evaluation deal sets with published hashes, and the results file format
(docs/arena.md, "Deal sets")."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from parlour.arena import deals
from parlour.arena.tournament import RESULTS_FORMAT, Tournament
from parlour.cli import commands  # noqa: F401  (registers the commands)
from parlour.cli.app import app


def test_published_hashes_are_the_deals() -> None:
    found = deals.deal_set("standard-100")
    for n, published in found.sha256.items():
        assert deals.deals_hash(found.seed, found.deals, n) == published
    assert deals.check(deals.deal_set("STANDARD-1000"), 4) == \
        deals.SETS["standard-1000"].sha256[4]
    # the first 100 deals of standard-1000 are standard-100's (same seed)
    assert deals.deals_hash(2026, 100, 3) == found.sha256[3]


def test_a_tournament_on_a_deal_set_reports_it(tmp_path) -> None:
    out = tmp_path / "t"
    result = CliRunner().invoke(app, ["tournament", "fanti", "--deals", "standard-100",
                                      "--bots", "greedy,random", "--out", str(out), "--json"])
    assert result.exit_code == 0, result.output
    summary = json.loads(result.output.strip().splitlines()[-1])
    assert summary["format"] == RESULTS_FORMAT and summary["deal_set"] == "standard-100"
    assert summary["deal_sha256"] == deals.SETS["standard-100"].sha256[2]
    assert summary["seed"] == 2026 and summary["deals"] == 100 and summary["games"] == 200
    assert json.loads((out / "summary.json").read_text()) == summary  # the results file
    # the same as the plain tournament of that seed and size
    plain = Tournament("fanti", 2, ["greedy", "random"], 100, seed=2026).run().summary()
    assert plain["bots"] == summary["bots"] and plain["deal_set"] is None


def test_deal_sets_are_refused_in_words(monkeypatch) -> None:
    runner = CliRunner()
    result = runner.invoke(app, ["tournament", "fanti", "--deals", "standard-100", "--games", "5"])
    assert result.exit_code == 2 and "drop --games and --seed" in result.output
    result = runner.invoke(app, ["tournament", "fanti", "--deals", "mine"])
    assert result.exit_code == 2 and "no deal set 'mine'; published: standard-100" in result.output
    monkeypatch.setitem(deals.SETS, "standard-100", deals.DealSet(
        "standard-100", 2026, 100, {2: "0" * 64}))
    with pytest.raises(ValueError, match="not the published ones"):
        Tournament("fanti", 2, ["random"], 0, deal_set="standard-100")
    with pytest.raises(ValueError, match="publishes no hash for 3 players"):
        Tournament("fanti", 3, ["random"], 0, deal_set="standard-100")
