"""``parlour admin export-records``: the finished tables as records for ``parlour dataset``,
only when the operator opts in (``record_export``), never a game still in play."""

from __future__ import annotations

import json

from server_kit import Seat, create
from typer.testing import CliRunner

import parlour.cli.commands  # noqa: F401  (registers the commands)
from parlour import record
from parlour.cli.app import app
from parlour.envs import dataset


def test_finished_tables_export_as_records_only_when_the_operator_opts_in(
        make_app, tmp_path, monkeypatch):
    client = make_app()
    done = create(client, "fanti", 2, ["greedy", "random"], rules={"rounds": 1})
    s = Seat(client, done["table"], watch=done["watch"])
    s.until_state(lambda st: st["table"]["status"] == "over")
    s.close()
    waiting = create(client, "fanti", 2, ["person", "random"], rules={"rounds": 1})
    client.__exit__(None, None, None)  # the server stops; its database stays
    db = tmp_path / "db0.sqlite3"
    out = tmp_path / "records.jsonl"

    def export(*extra: str):
        return CliRunner().invoke(app, ["admin", "export-records", "--db", str(db),
                                        "--out", str(out), *extra])

    monkeypatch.delenv("PARLOUR_RECORD_EXPORT", raising=False)
    refused = export()
    assert refused.exit_code == 2 and "record_export" in refused.output
    assert not out.exists()
    monkeypatch.setenv("PARLOUR_RECORD_EXPORT", "1")
    ok = export()
    assert ok.exit_code == 0, ok.output
    lines = out.read_text().splitlines()
    assert len(lines) == 1  # the finished table only, never the one still waiting
    data = json.loads(lines[0])
    assert data["seats"] == ["Player 1", "Player 2"] and "meta" not in data
    assert record.load(data).is_over
    assert waiting["table"] not in out.read_text()
    again = export()
    assert again.exit_code == 2 and "exists" in again.output
    summary = dataset.build([out], tmp_path / "d")
    assert summary["games"] == 1 and summary["rows"] > 0
