"""``--backend`` and ``--ray-address`` of ``parlour tournament`` and ``parlour analyze``
are checked before any game: a wrong one is one line and exit 2, not a silent local run
or minutes of Ray retrying behind a progress bar that never moves."""

from __future__ import annotations

import socket

import pytest
from typer.testing import CliRunner

import parlour.cli.commands  # noqa: F401  (registers the commands)
from parlour.cli import app


def _closed_port() -> int:
    with socket.socket() as s:  # bound, never listening: a connection is refused
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


COMMANDS = {
    "tournament": ["tournament", "fanti", "--players", "2", "--games", "1"],
    "analyze": ["analyze", "fanti", "--players", "2", "--games", "1"],
}


@pytest.mark.parametrize("command", sorted(COMMANDS))
@pytest.mark.parametrize("extra,said", [
    (["--backend", "nope"], "--backend must be local or ray, not 'nope'"),
    (["--backend", "ray", "--ray-address", "nonsense"], "--ray-address must be HOST:PORT"),
    (["--backend", "ray", "--ray-address", "127.0.0.1:THEPORT"],
     "no Ray cluster answers at 127.0.0.1:THEPORT: Connection refused"),
])
def test_a_bad_backend_or_cluster_is_refused_before_any_game(command, extra, said):
    port = str(_closed_port())
    args = COMMANDS[command] + [a.replace("THEPORT", port) for a in extra]
    res = CliRunner().invoke(app, args)
    assert res.exit_code == 2, res.output
    assert res.exception is None or isinstance(res.exception, SystemExit)
    assert said.replace("THEPORT", port) in " ".join(res.output.split())
    assert "Traceback" not in res.output and "round wins" not in res.output
