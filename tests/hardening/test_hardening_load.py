"""The short load run (issue #7, item 1) and what it proves about security (item 4).

Ten concurrent 4-seat tables of scripted people play over real WebSockets against a
``parlour serve`` subprocess that ``parlour loadtest``'s harness starts itself. Every
game finishes with no error; then all the captured traffic is checked for hidden
cards, every record is checked (``parlour check``'s reader) and every deal
commitment verified with ``parlour verify``. The long run is
``benchmarks/load_sweep.py`` / ``parlour loadtest --tables 200``.
"""

from __future__ import annotations

import json

import pytest
from hardening_kit import check_moves, check_traffic, record_events
from typer.testing import CliRunner

import parlour.cli.commands  # noqa: F401  -- registers every command
from parlour import record
from parlour.cli import app
from parlour.loadtest import LoadConfig, NotLocal, check_local_url, run_load

pytestmark = [pytest.mark.timeout(180), pytest.mark.slow]


@pytest.fixture(scope="module")
def short_run():
    cfg = LoadConfig(tables=10, duration=90, speed="full", capture=True, seed=7, bot_delay=0.05)
    return run_load(cfg)


def test_ten_tables_finish_with_no_error(short_run):
    r = short_run
    assert r["games_finished"] == 10 and r["all_finished"], r["failures"]
    assert r["errors"] == 0, (r["error_codes"], r["failures"])
    assert r["records_checked"] == {"ok": 10, "bad": 0, "missing": 0}
    assert r["moves"] > 10 * 40 and r["moves"] == r["moves_sent"]
    assert r["rtt_ms"]["n"] == r["moves"] and r["rtt_ms"]["p99"] is not None
    assert r["server_rss_mb"]["peak"] and r["server_rss_mb"]["peak"] > 10
    runs = r["_runs"]
    records = {run.id: run.record_data for run in runs}
    counts = check_moves(runs, records)
    assert counts["acked"] == r["moves"] == counts["recorded_person_moves"]


def test_no_message_to_a_seat_names_a_hidden_card(short_run):
    runs = short_run["_runs"]
    records = {run.id: run.record_data for run in runs}
    checked = check_traffic(runs, records)
    assert checked == short_run["messages_received"] > 10 * 4 * 40


def test_every_live_deal_commitment_verifies(short_run, tmp_path):
    lines = [json.dumps(run.record_data) for run in short_run["_runs"]]
    path = tmp_path / "records.jsonl"
    path.write_text("\n".join(lines) + "\n")
    res = CliRunner().invoke(app, ["verify", str(path)])
    assert res.exit_code == 0, res.output
    assert res.output.count("[ok]") == 10 and "FAILED" not in res.output
    res = CliRunner().invoke(app, ["check", str(path)])
    assert res.exit_code == 0, res.output
    for line in lines:
        data = json.loads(line)
        m = record.load(data)
        assert m.is_over and all(c is not None and c.salt for c in m.commits)
        assert data["meta"]["server"] == "parlour"
        assert len(record_events(data)) == sum(1 + len(rd["moves"]) for rd in data["rounds"])


@pytest.mark.parametrize("url", ["http://10.0.0.8:8000", "http://192.168.1.2/",
                                 "https://example.com", "http://8.8.8.8:80", "ftp://127.0.0.1"])
def test_only_local_servers_are_load_tested(url):
    with pytest.raises(NotLocal):
        check_local_url(url)
    res = CliRunner().invoke(app, ["loadtest", "--url", url, "--tables", "1", "--duration", "1"])
    assert res.exit_code == 2
    assert "refusing" in res.output or "not a server URL" in res.output


@pytest.mark.parametrize("url", ["http://127.0.0.1:8000", "http://localhost:9/",
                                 "http://[::1]:8000", "ws://127.0.0.2:1"])
def test_loopback_urls_are_accepted(url):
    assert check_local_url(url).startswith("http")


def test_two_client_processes_play_every_table_and_their_totals_are_merged():
    """``--procs 2``: five tables split 3 + 2 across two client processes; the report
    counts every table, every confirmed move (table by table) and both loops' lag."""
    r = run_load(LoadConfig(tables=5, duration=90, speed="full", seed=11, bot_delay=0.05,
                            procs=2))
    assert r["games_finished"] == 5 and r["all_finished"], r["failures"]
    assert r["errors"] == 0, (r["error_codes"], r["failures"])
    assert r["records_checked"] == {"ok": 5, "bad": 0, "missing": 0}
    runs = r["_runs"]
    assert len(runs) == 5 and len({run.id for run in runs}) == 5
    assert r["moves"] == sum(run.acked for run in runs) == r["rtt_ms"]["n"] > 5 * 20
    assert r["moves"] == r["moves_sent"]
    assert r["client_procs"] == 2 and len(r["client_loop_lag_ms_per_proc"]) == 2
    assert all(x["p99"] is not None for x in r["client_loop_lag_ms_per_proc"])
    assert len(r["cpu"]["clients_s_per_proc"]) == 2 and r["cpu"]["clients_ms_per_move"] > 0
    assert r["moves_per_s"] and r["elapsed_s"] > 0
