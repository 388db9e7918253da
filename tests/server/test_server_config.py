"""``parlour serve`` settings: option, then ``PARLOUR_*`` environment, then TOML file.

The documented variables used to do nothing when ``serve`` had an option of the same
setting (the option's default overrode them: ``PARLOUR_DB=postgresql://…`` served
``./parlour.sqlite3``); each is checked here through the resolver ``serve`` uses, and
``PARLOUR_DB`` end to end through a real ``serve`` process.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from parlour.server.config import ConfigError, report, resolve

NO_OPTIONS: dict[str, object] = {}

# (variable, value, setting, expected value) for every variable docs/web.md and
# docs/deploy.md name
DOCUMENTED = [
    ("PARLOUR_DB", "postgresql://u:pw@db/parlour", "db_url",
     "postgresql+psycopg://u:pw@db/parlour"),
    ("PARLOUR_DB", "tables.sqlite3", "db_url", "sqlite:///tables.sqlite3"),
    ("PARLOUR_GRACE", "5", "grace", 5.0),
    ("PARLOUR_BOT_DELAY", "0.1", "bot_delay", 0.1),
    ("PARLOUR_ROUND_PAUSE", "1.5", "round_pause", 1.5),
    ("PARLOUR_IDLE_EXPIRY", "7200", "idle_expiry", 7200.0),
    ("PARLOUR_ORIGINS", "https://a.example, https://b.example", "allowed_origins",
     ["https://a.example", "https://b.example"]),
    ("PARLOUR_TESTING", "1", "testing", True),
    ("PARLOUR_CLUSTER", "1", "cluster", True),
    ("PARLOUR_LEASE", "4", "lease", 4.0),
    ("PARLOUR_NOTIFY", "0", "notify", False),
    ("PARLOUR_POLL_EVERY", "0.5", "poll_every", 0.5),
    ("PARLOUR_POLL_LISTENING", "9", "poll_listening", 9.0),
    ("PARLOUR_INSTANCE", "web-2", "instance", "web-2"),
    ("PARLOUR_DB_TIMEOUT", "2", "db_timeout", 2.0),
    ("PARLOUR_DB_START_WAIT", "30", "db_start_wait", 30.0),
    ("PARLOUR_KEY_SECRET", "s3cret", "key_secret", "s3cret"),
    ("PARLOUR_PUBLIC_URL", "https://tables.example/", "public_url", "https://tables.example"),
    ("PARLOUR_TRUSTED_PROXIES", "10.0.0.1,10.0.0.2", "trusted_proxies",
     ["10.0.0.1", "10.0.0.2"]),
    ("PARLOUR_HOST", "0.0.0.0", "host", "0.0.0.0"),
    ("PARLOUR_PORT", "9000", "port", 9000),
    ("PARLOUR_LISTENERS", "2", "listeners", 2),
    ("PARLOUR_WS_DEFLATE", "1", "ws_deflate", True),
]


def value_of(resolved, name):
    return getattr(resolved.listen if hasattr(resolved.listen, name) else resolved.settings,
                   name)


@pytest.mark.parametrize("var,text,name,expected", DOCUMENTED,
                         ids=[f"{d[0]}={d[1]}" for d in DOCUMENTED])
def test_each_documented_variable_sets_its_setting(var, text, name, expected):
    r = resolve(NO_OPTIONS, {var: text})
    assert value_of(r, name) == expected
    assert r.sources[name] == f"the environment variable {var}"


def test_an_option_not_given_leaves_the_environment_alone():
    """``serve`` passes ``None`` for an option not given: the environment stands."""
    r = resolve({"db_url": None, "grace": None, "allowed_origins": None, "cluster": None},
                {"PARLOUR_DB": "x.sqlite3", "PARLOUR_GRACE": "7", "PARLOUR_ORIGINS": "https://o"})
    assert (r.settings.db_url, r.settings.grace) == ("sqlite:///x.sqlite3", 7.0)
    assert r.settings.allowed_origins == ["https://o"]


def test_option_beats_environment_beats_file(tmp_path):
    f = tmp_path / "parlour.toml"
    f.write_text('grace = 11\nbot_delay = 0.2\nround_pause = 2.5\ndb = "f.sqlite3"\n'
                 'origins = ["https://f.example"]\ncluster = true\n')
    env = {"PARLOUR_GRACE": "22", "PARLOUR_BOT_DELAY": "0.3", "PARLOUR_CONFIG": str(f)}
    r = resolve({"grace": 33.0}, env)
    assert r.settings.grace == 33.0 and r.sources["grace"] == "the option --grace"
    assert r.settings.bot_delay == 0.3
    assert r.sources["bot_delay"] == "the environment variable PARLOUR_BOT_DELAY"
    assert r.settings.round_pause == 2.5
    assert r.sources["round_pause"] == f"the config file {f}"
    assert r.settings.db_url == "sqlite:///f.sqlite3" and r.raw_db == "f.sqlite3"
    assert r.settings.allowed_origins == ["https://f.example"] and r.settings.cluster
    # --set is an option too, and --config names the file over PARLOUR_CONFIG
    other = tmp_path / "other.toml"
    other.write_text("grace = 44\n")
    r = resolve({}, env, str(other), {"bot_delay": "0.9"})
    assert (r.settings.grace, r.settings.bot_delay) == (22.0, 0.9)
    assert r.settings.round_pause == 3.0  # the other file does not set it


def test_the_report_names_each_source_and_hides_passwords_and_secrets():
    r = resolve({"grace": 5.0}, {"PARLOUR_DB": "postgresql://u:hunter2@db/p",
                                 "PARLOUR_KEY_SECRET": "topsecret", "PARLOUR_BOT_DELAY": "0.6"})
    lines = report(r)
    text = "\n".join(lines)
    assert "hunter2" not in text and "topsecret" not in text
    assert "db_url = postgresql+psycopg://u:***@db/p  (from the environment variable " \
           "PARLOUR_DB)" in lines
    assert "key_secret = ***  (from the environment variable PARLOUR_KEY_SECRET)" in lines
    assert "grace = 5  (from the option --grace)" in lines
    assert not any(line.startswith("bot_delay") for line in lines)  # given, but the default


@pytest.mark.parametrize("source,said", [
    ("env", "setting grace: 'soon' is not a valid value"),
    ("file", "setting grace: 'soon' is not a valid value"),
    ("set", "setting grace: 'soon' is not a valid value"),
])
def test_a_bad_value_names_its_source(tmp_path, source, said):
    f = tmp_path / "c.toml"
    f.write_text('grace = "soon"\n')
    env = {"PARLOUR_GRACE": "soon"} if source == "env" else {}
    with pytest.raises(ConfigError) as e:
        resolve({}, env, str(f) if source == "file" else None,
                {"grace": "soon"} if source == "set" else None)
    assert said in str(e.value)
    assert {"env": "PARLOUR_GRACE", "file": str(f), "set": "--set grace"}[source] in str(e.value)


@pytest.mark.parametrize("content,env,said", [
    ("grace = \n", {}, "is not valid TOML"),
    ("no_such_thing = 1\n", {}, "no setting 'no_such_thing'"),
    ("", {"PARLOUR_PORT": "70000"}, "not a port"),
    ("", {"PARLOUR_PUBLIC_URL": "tables.example"}, "must start with http"),
    ("", {"PARLOUR_GRACE": "-1"}, "must not be negative"),
    (None, {}, "cannot read the config file"),
])
def test_a_bad_file_or_value_is_one_line_and_exit_2(tmp_path, monkeypatch, content, env, said):
    import parlour.cli.commands  # noqa: F401  (registers the commands)
    from parlour.cli import app

    f = tmp_path / "c.toml"
    if content is not None:
        f.write_text(content)
    for k, v in env.items():
        monkeypatch.setenv(k, v)
    res = CliRunner().invoke(app, ["serve", "--config", str(f), "--db", "sqlite://"])
    assert res.exit_code == 2, res.output
    assert res.exception is None or isinstance(res.exception, SystemExit)
    assert said in res.output
    assert len(res.output.strip().splitlines()) == 1, res.output
    assert "open http" not in res.output


def _port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_serve_uses_parlour_db_and_says_where_its_settings_came_from(tmp_path):
    """The operator's case: ``PARLOUR_DB`` names the database, and no
    ``./parlour.sqlite3`` is made in the working directory."""
    db = tmp_path / "from-env.sqlite3"
    conf = tmp_path / "parlour.toml"
    conf.write_text("round_pause = 1\n")
    env = {**os.environ, "PARLOUR_DB": str(db), "PARLOUR_GRACE": "5",
           "PARLOUR_PORT": str(_port()), "PARLOUR_CONFIG": str(conf), "PARLOUR_BOT_WORKERS": "0"}
    proc = subprocess.Popen([sys.executable, "-c", "from parlour.cli import main; main()",
                             "serve", "--bot-delay", "0.2"], env=env, cwd=tmp_path,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    lines: list[str] = []
    try:
        assert proc.stdout is not None
        for line in proc.stdout:  # ends when the server prints its address
            lines.append(line.rstrip())
            if "open http" in line:
                break
    finally:
        proc.terminate()
        proc.wait(timeout=30)
    out = "\n".join(lines)
    assert f"database: sqlite:///{db}" in out, out
    assert "grace = 5  (from the environment variable PARLOUR_GRACE)" in out
    assert "bot_delay = 0.2  (from the option --bot-delay)" in out
    assert f"round_pause = 1  (from the config file {conf})" in out
    assert db.exists() and not Path(tmp_path / "parlour.sqlite3").exists()
