"""Fixtures for the server tests: an app per test on its own temporary SQLite file."""

from __future__ import annotations

import warnings
from collections.abc import Callable, Iterator
from typing import Any

import pytest

warnings.filterwarnings("ignore", message=".*httpx2.*")

from server_kit import Oracle, check_http  # noqa: E402
from starlette.testclient import TestClient  # noqa: E402

from parlour.server import Settings, create_app  # noqa: E402


@pytest.fixture
def make_app(tmp_path) -> Iterator[Callable[..., TestClient]]:
    """``make_app(**settings)``: a running app (lifespan entered) on its own SQLite file,
    whose every message is checked by the hidden-card oracle. Bots think in a thread
    here (``bot_workers=0``: quick to start); the worker pool has its own tests, and
    the browser and hardening servers use it."""
    clients: list[TestClient] = []

    def make(**kw: Any) -> TestClient:
        base = dict(db_url=f"sqlite:///{tmp_path}/db{len(clients)}.sqlite3", bot_delay=0.0,
                    round_pause=0.0, grace=30.0, testing=True, rate_per_second=500.0, allowed_hosts=["testserver"],
                    max_seats_per_address=8, public_seats_per_address=8, reclaim_after=0.0,
                        max_tables_per_class=100_000, create_per_minute=6000.0, create_burst=1000,
                    bot_workers=0, gc_freeze_every=0.0, arrival_lag_ms=0.0,  # own tests
                    rate_burst=500)  # bots move instantly here: no human pace
        base.update(kw)
        client = TestClient(create_app(Settings(**base)))
        client.__enter__()
        # Every message of every test is checked for hidden cards (server_kit.Oracle).
        client.oracle = Oracle()
        client.app.state.service.hub.observers.append(client.oracle)
        # ... and every HTTP answer about people (server_kit.check_http).
        plain = client.request

        def checked(method: str, url: Any, *args: Any, **kwargs: Any) -> Any:
            response = plain(method, url, *args, **kwargs)
            check_http(client, url, response)
            return response

        client.request = checked
        clients.append(client)
        return client

    yield make
    for c in clients:
        for seat in c.__dict__.get("seats", []):
            seat.close()
        c.__exit__(None, None, None)
    for c in clients:
        assert c.oracle.leaks == [], c.oracle.leaks[:5]


@pytest.fixture
def client(make_app) -> TestClient:
    return make_app()


