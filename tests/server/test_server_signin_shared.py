"""Issue #32 item 2: sign-in attempts limited per name and per address over every
process of a cluster (two apps on one database here), with nothing that tells an
account's name from a name nobody has (``server/accounts.py``, ``server/quotas.py``)."""

from __future__ import annotations

import re

import pytest
from server_kit import Browser, service

pytestmark = pytest.mark.timeout(180)
PW = "correct horse battery"


def two_processes(make_app, tmp_path, **limits):
    shared = dict(db_url=f"sqlite:///{tmp_path}/cluster.sqlite3", cluster=True, lease=30.0,
                  trusted_proxies=["testclient"], **limits)
    return make_app(instance="A", **shared), make_app(instance="B", **shared)


def attempt(client, name, password="nope nope", addr="198.51.100.7"):
    return Browser(client).post("/api/session", json={"name": name, "password": password},
                                headers={"X-Forwarded-For": addr})


def words(r):
    return r.json()["error"], re.sub(r"\d+", "S", r.json()["message"])


def test_one_names_attempts_are_counted_over_both_processes(make_app, tmp_path):
    a, b = two_processes(make_app, tmp_path, signin_name_burst=4,
                         signin_name_per_minute=0.5, signin_burst=1000)
    assert Browser(a).post("/api/accounts", json={"name": "Anna", "password": PW}
                           ).status_code == 201
    # Four attempts in all, from four addresses, alternating between the processes.
    codes = [attempt(p, "anna", addr=f"203.0.113.{i}").status_code
             for i, p in enumerate([a, b, a, b])]
    assert codes == [401] * 4
    refused = [attempt(p, "Anna", PW, addr="192.0.2.9") for p in (a, b)]  # right, too late
    assert [r.status_code for r in refused] == [429, 429]
    # The same for a name nobody has: the same words, status and wait.
    for i, p in enumerate([b, a, b, a]):
        assert attempt(p, "Nobody", addr=f"203.0.114.{i}").status_code == 401
    ghost = [attempt(p, "nobody", addr="192.0.2.10") for p in (a, b)]
    for known, unknown in zip(refused, ghost, strict=True):  # (the wait ran on between)
        assert words(known) == words(unknown) == ("rate_limited", "too many sign-in "
                                                  "attempts: try again in S s")
        assert 1 <= int(known.headers["Retry-After"]) <= 120
        assert 1 <= int(unknown.headers["Retry-After"]) <= 120
    # The buckets are rows of the shared table, keyed by an HMAC: no name in the clear.
    keys = [k for k in service(a).store.engine.connect().exec_driver_sql(
        "SELECT key FROM limits").scalars()]
    assert any(k.startswith("signin-name:") for k in keys)
    assert not any("anna" in k.lower() or "nobody" in k.lower() for k in keys)


def test_one_addresss_attempts_are_counted_over_both_processes(make_app, tmp_path):
    a, b = two_processes(make_app, tmp_path, signin_burst=3, signin_per_minute=0.5,
                         signin_name_burst=1000)
    codes = [attempt(p, f"Someone {i}").status_code for i, p in enumerate([a, b, a])]
    assert codes == [401, 401, 401]
    for p in (b, a):
        r = attempt(p, "Someone else")
        assert r.status_code == 429 and int(r.headers["Retry-After"]) >= 1
    assert attempt(b, "Someone else", addr="198.51.101.7").status_code == 401  # another one
