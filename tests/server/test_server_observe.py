"""Observability (#36): ``/readyz`` beside ``/healthz``, Prometheus ``/metrics``, and
structured JSON logs with an access line per request."""

from __future__ import annotations

import io
import json
import logging

from server_kit import play_bot_table
from sqlalchemy import create_engine

from parlour.server.logs import JsonFormatter


def test_readyz_answers_ready_when_the_database_answers_and_the_bots_are_up(client):
    r = client.get("/readyz")
    assert r.status_code == 200, r.text
    assert r.json() == {"status": "ready", "database": "ok", "bots": "ready"}
    assert client.get("/healthz").json()["status"] == "ok"


def test_readyz_is_503_in_the_error_shape_when_the_database_is_away(make_app):
    """A database that refuses connections (nothing listens on port 1) makes the process
    not ready, while /healthz still says it is alive."""
    client = make_app(ready_every=0.0)
    store = client.app.state.service.store
    real = store.engine
    store.engine = create_engine("postgresql+psycopg://parlour@127.0.0.1:1/parlour")
    try:
        r = client.get("/readyz")
    finally:
        store.engine.dispose()
        store.engine = real
    assert r.status_code == 503
    assert r.json() == {"error": "not_ready", "message": "the database does not answer"}
    assert r.headers["retry-after"] == "1"
    assert client.get("/healthz").status_code == 200
    assert client.get("/readyz").status_code == 200  # back when the database is


def test_readyz_asks_the_database_at_most_every_ready_every(make_app):
    client = make_app(ready_every=3600.0)
    assert client.get("/readyz").status_code == 200
    store = client.app.state.service.store
    real, store.engine = store.engine, None  # asking it now would fail
    try:
        assert client.get("/readyz").status_code == 200  # the kept answer
    finally:
        store.engine = real


def _samples(text: str) -> dict[str, float]:
    out = {}
    for line in text.splitlines():
        if line and not line.startswith("#"):
            name, value = line.rsplit(" ", 1)
            out[name] = float(value)
    return out


def test_metrics_count_tables_moves_commits_and_hold_no_ids(client):
    play_bot_table(client, "fantan", 3, "random", 1)
    r = client.get("/metrics")
    assert r.status_code == 200
    assert r.headers["content-type"].startswith("text/plain")
    s = _samples(r.text)
    assert s['parlour_tables{state="over"}'] >= 1
    assert s['parlour_tables{state="playing"}'] == 0
    assert s["parlour_connections"] >= 0
    assert s["parlour_pool_questions_held"] == 0  # nobody waits for a pairing (1 each: test_hardening_pools)
    assert s['parlour_moves_total{by="bot"}'] >= 3
    assert s["parlour_db_commit_seconds_count"] >= 3
    assert s['parlour_bot_think_seconds_count{job="choose"}'] >= 3
    assert 'parlour_move_seconds_bucket{le="0.1"}' in s
    for table_id in client.app.state.service.tables:  # no table id in any label
        assert table_id not in r.text


def test_metrics_time_the_garbage_collectors_pauses(client):
    import gc

    gc.collect()
    s = _samples(client.get("/metrics").text)
    assert s['parlour_gc_pause_seconds_count{generation="2"}'] >= 1


def test_a_refusal_at_a_limit_is_counted_by_its_code(make_app):
    client = make_app(max_body_bytes=100)

    def count() -> float:
        return _samples(client.get("/metrics").text).get(
            'parlour_refusals_total{limit="too_large"}', 0.0)

    before = count()
    r = client.post("/api/tables", content=b"x" * 500, headers={"content-type": "application/json"})
    assert r.status_code == 413
    assert count() == before + 1


def test_metrics_can_be_switched_off(make_app):
    assert make_app(metrics=False).get("/metrics").status_code == 404


def test_each_request_logs_one_json_line_with_the_route_and_no_query(client):
    out = io.StringIO()
    handler = logging.StreamHandler(out)
    handler.setFormatter(JsonFormatter())
    access = logging.getLogger("parlour.access")
    access.addHandler(handler)
    old = access.level
    access.setLevel(logging.INFO)
    try:
        r = client.get("/api/tables/nosuchtable?key=sekrit")
    finally:
        access.removeHandler(handler)
        access.setLevel(old)
    assert r.status_code == 404
    lines = out.getvalue().splitlines()
    assert len(lines) == 1, lines
    line = json.loads(lines[0])
    assert line["event"] == "request" and line["level"] == "info"
    assert line["time"].endswith("Z") and "T" in line["time"]
    assert line["method"] == "GET" and line["status"] == 404
    assert line["route"] == "/api/tables/{table_id}" and line["table"] == "nosuchtable"
    assert line["request_id"] == r.headers["x-request-id"]
    assert "sekrit" not in lines[0]


def test_a_log_line_carries_the_table_and_an_error_its_kind():
    record = logging.LogRecord("parlour.server", logging.WARNING, __file__, 1,
                               "table taken over", None, None)
    record.table = "abc123"
    line = json.loads(JsonFormatter().format(record))
    assert {k: line[k] for k in ("level", "event", "table", "logger")} == {
        "level": "warning", "event": "table taken over", "table": "abc123",
        "logger": "parlour.server"}
