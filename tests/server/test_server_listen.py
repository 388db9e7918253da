"""``parlour serve`` listens on several sockets of one port (SO_REUSEPORT): the event
loop accepts one new connection per listening socket on each of its turns."""

from __future__ import annotations

import socket

import pytest

from parlour.cli.commands.serve_command import listening_sockets
from parlour.cli.common import UsageError


def _port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_several_sockets_listen_on_one_port_and_each_takes_connections():
    port = _port()
    socks = listening_sockets("127.0.0.1", port, 4)
    try:
        assert len(socks) == 4
        assert {s.getsockname() for s in socks} == {("127.0.0.1", port)}
        for s in socks:
            s.setblocking(True)
            s.settimeout(0.01)
        clients = [socket.create_connection(("127.0.0.1", port)) for _ in range(64)]
        taken = []
        for s in socks:  # the kernel spread the connections over the sockets
            n = 0
            while True:
                try:
                    conn, _ = s.accept()
                except TimeoutError:
                    break
                conn.close()
                n += 1
            taken.append(n)
        assert sum(taken) == 64 and sum(1 for n in taken if n) >= 2
        for c in clients:
            c.close()
    finally:
        for s in socks:
            s.close()


def test_a_port_in_use_is_refused_in_words_not_shared():
    port = _port()
    held = listening_sockets("127.0.0.1", port, 2)  # another server, say
    try:
        with pytest.raises(UsageError, match="cannot listen on 127.0.0.1:.*in use"):
            listening_sockets("127.0.0.1", port, 4)
    finally:
        for s in held:
            s.close()
    again = listening_sockets("127.0.0.1", port, 1)
    assert len(again) == 1
    again[0].close()


def test_an_address_that_cannot_be_resolved_is_refused_in_words():
    with pytest.raises(UsageError, match="cannot listen on 999.1.1.1:8000: "):
        listening_sockets("999.1.1.1", 8000, 1)


@pytest.mark.parametrize("args,said", [
    (["--port", "-1"], "Invalid value for '--port': Input should be greater than or equal to 1"),
    (["--port", "99999"], "Invalid value for '--port': Input should be less than or equal to 65535"),
    (["--host", "no.such.host.invalid"], "cannot listen on no.such.host.invalid:"),
])
def test_a_bad_address_is_a_usage_error_not_a_traceback(args, said):
    """``--port`` outside 1-65535 and a host that does not resolve end in one line
    (exit 2) before anything is served; 99999 used to be taken modulo 65536."""
    from typer.testing import CliRunner

    import parlour.cli.commands  # noqa: F401  (registers the commands)
    from parlour.cli import app

    res = CliRunner().invoke(app, ["serve", *args, "--db", "sqlite://"])
    assert res.exit_code == 2, res.output
    assert res.exception is None or isinstance(res.exception, SystemExit)
    assert said in " ".join(res.output.split())
    assert "open http" not in res.output


@pytest.mark.parametrize("name,value,said", [
    ("PARLOUR_GC_YOUNG", "abc", "not a valid value"),
    ("PARLOUR_MAX_BODY_BYTES", "-5", "must not be negative"),
])
def test_a_bad_setting_in_the_environment_is_a_usage_error_and_frees_the_port(
        monkeypatch, name, value, said):
    """A bad ``PARLOUR_*`` value is refused in words naming the variable (exit 2, no
    traceback), before serving, and the port it had opened is free again."""
    from typer.testing import CliRunner

    import parlour.cli.commands  # noqa: F401  (registers the commands)
    from parlour.cli import app

    monkeypatch.setenv(name, value)
    port = _port()
    res = CliRunner().invoke(app, ["serve", "--port", str(port), "--db", "sqlite://"])
    assert res.exit_code == 2, res.output
    assert res.exception is None or isinstance(res.exception, SystemExit)
    assert said in res.output and name in res.output
    with socket.socket() as s:  # nobody holds the port
        s.bind(("127.0.0.1", port))


@pytest.mark.parametrize("db,said", [
    ("postgresql://player:sekrit@127.0.0.1:1/parlour",
     "cannot open the database postgresql+psycopg://player:***@127.0.0.1:1/parlour: "),
    ("nosuchdialect://somewhere/x", "cannot use the database nosuchdialect://somewhere/x: "),
])
def test_a_database_that_cannot_be_opened_is_refused_before_serving(db, said):
    """``--db`` that cannot be reached (nothing listens on port 1) or names no known
    database is one line, exit 2, with any password hidden, before the address is
    printed; the port is free again. It used to be a SQLAlchemy traceback at startup."""
    from typer.testing import CliRunner

    import parlour.cli.commands  # noqa: F401  (registers the commands)
    from parlour.cli import app

    port = _port()
    res = CliRunner().invoke(app, ["serve", "--port", str(port), "--db", db,
                                   "--set", "db_start_wait=0.5"])  # two tries, not 10 s
    assert res.exit_code == 2, res.output
    assert res.exception is None or isinstance(res.exception, SystemExit)
    out = " ".join(res.output.split())
    assert said in out and "sekrit" not in out and "open http" not in out
    if db.startswith("postgresql"):  # told once that it waits, then why it gave up
        assert out.count("the database does not answer yet") == 1
    assert "Traceback" not in res.output
    with socket.socket() as s:
        s.bind(("127.0.0.1", port))


def test_a_sqlite_file_of_another_program_is_refused_and_left_as_it_was(tmp_path):
    """A SQLite database whose ``tables`` table is not parlour's: one line, exit 2,
    nothing served, and the file's own table unchanged (no columns added)."""
    import sqlite3

    from typer.testing import CliRunner

    import parlour.cli.commands  # noqa: F401  (registers the commands)
    from parlour.cli import app

    path = tmp_path / "theirs.db"
    with sqlite3.connect(path) as con:
        con.execute("CREATE TABLE tables (x INTEGER)")
        con.execute("INSERT INTO tables VALUES (7)")
    res = CliRunner().invoke(app, ["serve", "--port", str(_port()), "--db", str(path)])
    assert res.exit_code == 2, res.output
    out = " ".join(res.output.split())
    assert f"the database sqlite:///{path} is not a parlour database" in out
    assert "open http" not in out and "Traceback" not in res.output
    with sqlite3.connect(path) as con:
        assert [r[1] for r in con.execute("PRAGMA table_info(tables)")] == ["x"]
        assert con.execute("SELECT x FROM tables").fetchall() == [(7,)]
