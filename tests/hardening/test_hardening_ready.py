"""``/readyz`` with a real PostgreSQL stopped and started again under the server (#36):
not ready (503, the error shape) while it is away, ready again when it is back, and
``/healthz`` alive throughout."""

from __future__ import annotations

import pytest
from hardening_kit import Postgres
from starlette.testclient import TestClient

from parlour.server import Settings, create_app


@pytest.mark.timeout(120)
def test_readyz_follows_a_stopped_postgresql():
    pg = Postgres()
    try:
        app = create_app(Settings(db_url=pg.sqlalchemy_url, bot_workers=0, ready_every=0.0,
                                  allowed_hosts=["testserver"], gc_freeze_every=0.0))
        with TestClient(app) as client:
            assert client.get("/readyz").status_code == 200
            pg.stop("fast")
            r = client.get("/readyz")
            assert r.status_code == 503, r.text
            assert r.json() == {"error": "not_ready", "message": "the database does not answer"}
            assert client.get("/healthz").status_code == 200
            pg.start()
            assert client.get("/readyz").status_code == 200
    finally:
        pg.cleanup()
