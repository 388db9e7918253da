"""``parlour loadtest --procs``: bad values are refused in plain words before any work
(no server started, no traceback), and the split of tables across client processes."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

import parlour.cli.commands  # noqa: F401  (registers the commands)
from parlour.cli import app
from parlour.loadtest import run as load_run
from parlour.loadtest.clients import Stats
from parlour.loadtest.fleet import check_procs, merge, shares

runner = CliRunner()


@pytest.mark.parametrize(("args", "words"), [
    (["--procs", "0"], "--procs must be at least 1 (got 0)"),
    (["--procs", "-2"], "--procs must be at least 1 (got -2)"),
    (["--procs", "65", "--tables", "100"], "--procs must be at most 64 (got 65)"),
    (["--procs", "3", "--tables", "2"], "more client processes than tables (2)"),
])
def test_bad_procs_are_refused_in_words_before_any_work(args, words, monkeypatch):
    started = []
    monkeypatch.setattr(load_run.ServerProcess, "start", lambda self: started.append(self))
    res = runner.invoke(app, ["loadtest", "--duration", "1", *args])
    assert res.exit_code == 2, res.output
    assert words in " ".join(res.output.split())
    assert "Traceback" not in res.output
    assert started == []  # refused before a server was started


def test_procs_that_are_not_a_number_are_a_usage_error():
    res = runner.invoke(app, ["loadtest", "--procs", "two"])
    assert res.exit_code == 2 and "--procs" in res.output and "Traceback" not in res.output


def test_run_load_refuses_bad_procs_too():
    with pytest.raises(ValueError, match="at most one per table|more client processes"):
        load_run.run_load(load_run.LoadConfig(tables=1, procs=2))


def test_tables_are_split_evenly_and_all_played():
    assert shares(5, 2) == [3, 2]
    assert shares(1000, 3) == [334, 333, 333]
    assert shares(4, 4) == [1, 1, 1, 1]
    assert check_procs(2, 5) is None and check_procs(5, 5) is None


def test_merged_stats_add_counts_and_join_lists():
    a, b = Stats(started=10.0), Stats(started=9.5)
    a.rtts, b.rtts = [0.1, 0.2], [0.3]
    a.moves_acked, b.moves_acked = 2, 1
    a.errors["stale"] += 1
    b.errors["stale"] += 2
    b.failures.append("table x seat 1: not finished")
    m = merge([a, b])
    assert m.rtts == [0.1, 0.2, 0.3] and m.moves_acked == 3
    assert m.errors == {"stale": 3} and m.failures == ["table x seat 1: not finished"]
    assert m.started == 9.5


def test_a_url_where_no_server_answers_is_refused_before_any_table(monkeypatch):
    import socket

    with socket.socket() as s:  # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    tried = []
    import parlour.loadtest

    monkeypatch.setattr(parlour.loadtest, "run_load", lambda *a, **k: tried.append(a))
    res = runner.invoke(app, ["loadtest", "--url", f"http://127.0.0.1:{port}",
                              "--tables", "1", "--duration", "1"])
    assert res.exit_code == 2, res.output
    assert f"no parlour server answers at http://127.0.0.1:{port}" in res.output
    assert "Traceback" not in res.output and tried == []


def test_a_started_server_counts_as_ready_only_once_its_bot_workers_are(monkeypatch, tmp_path):
    """The load generator's own server: the run starts when ``/healthz`` says the bot
    workers are ready, not while they are still loading (their start took CPU from
    the first seconds of every run)."""
    import subprocess
    import sys

    import httpx

    from parlour.loadtest import procs

    answers = iter([{"status": "ok", "bots": "starting"}] * 3
                   + [{"status": "ok", "bots": "ready"}])
    asked = []

    def healthz(url, timeout):
        asked.append(url)
        return httpx.Response(200, json=next(answers))

    real_popen = subprocess.Popen
    monkeypatch.setattr(procs.httpx, "get", healthz)
    monkeypatch.setattr(procs.time, "sleep", lambda s: None)
    monkeypatch.setattr(procs.subprocess, "Popen", lambda cmd, **kw: real_popen(
        [sys.executable, "-c", "import time; time.sleep(30)"], **kw))
    server = procs.ServerProcess(workdir=tmp_path)
    try:
        server.start()
        assert len(asked) == 4
    finally:
        server.kill()


def test_the_run_stops_at_its_bound_and_counts_the_games_left_unfinished():
    """--duration bounds the run: a game at human speed (about a move a second) cannot
    finish in 3 s, and is reported unfinished at the bound, not waited for until the
    clients' safety timeout (which said "the run did not end in time", 30 s later)."""
    from parlour.loadtest import LoadConfig, run_load

    r = run_load(LoadConfig(tables=1, duration=3, speed="human", seed=1))
    assert r["games_finished"] == 0 and not r["all_finished"]
    assert "the run did not end in time" not in r["failures"]
    assert any("not finished" in f for f in r["failures"]), r["failures"]
