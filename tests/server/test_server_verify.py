"""``parlour verify FILE`` and ``POST /api/verify``: every deal commitment, per round."""

from __future__ import annotations

import json

from server_kit import Seat, create
from typer.testing import CliRunner

from parlour.cli.app import app
from parlour.cli.commands import verify_command as _verify  # noqa: F401  (registers the command)


def finished_record(client) -> dict:
    j = create(client, "fantan", 3, ["greedy", "greedy", "random"], rules={"rounds": 2})
    s = Seat(client, j["table"], watch=j["watch"])
    s.until_state(lambda st: st["table"]["status"] == "over")
    return client.get(f"/api/tables/{j['table']}/record").json()


def test_verify_reports_every_round(client, tmp_path):
    rec = finished_record(client)
    good = tmp_path / "good.json"
    good.write_text(json.dumps(rec))
    run = CliRunner().invoke(app, ["verify", str(good)])
    assert run.exit_code == 0, run.output
    assert "round 1: ok" in run.output and "round 2: ok" in run.output
    assert "verified" in run.output

    bad = json.loads(json.dumps(rec))
    bad["rounds"][1]["salt"] = "0" * 64
    path = tmp_path / "bad.jsonl"
    path.write_text(json.dumps(rec) + "\n" + json.dumps(bad) + "\n")
    run = CliRunner().invoke(app, ["verify", str(path)])
    assert run.exit_code == 1
    assert "record 1 (line 2) round 2: mismatch" in run.output  # records from 0
    assert "record 0 (line 1): verified" in run.output
    assert "2 records in" in run.output and "1 verified, 1 not verified" in run.output

    api = client.post("/api/verify", json=bad).json()
    assert api["ok"] is False
    assert [r["status"] for r in api["rounds"]] == ["ok", "mismatch"]
    assert client.post("/api/verify", json=rec).json()["ok"] is True


def test_verify_without_commitments_fails(tmp_path):
    from parlour import record
    from parlour.bots import make_bot
    from parlour.games.fanti.rules import FANTI
    from parlour.match import Match, Shuffler

    m = Match.new(FANTI, 2, {"rounds": 1}, shuffler=Shuffler(1))
    m.play_out([make_bot("random", "fanti", i) for i in range(2)], Shuffler(2))
    path = tmp_path / "sim.json"
    path.write_text(record.dumps(m))
    run = CliRunner().invoke(app, ["verify", str(path)])
    assert run.exit_code == 1 and "no commitment" in run.output
