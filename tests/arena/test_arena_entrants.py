"""Entering your own agent: a weights file, a Python callable, an external command
(docs/arena.md, "Entering your own agent"; parlour.bots.entrants)."""

from __future__ import annotations

import json
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from parlour.arena.tournament import Tournament
from parlour.bots import make_bot
from parlour.bots.base import BotFailed
from parlour.cli import commands  # noqa: F401  (registers the commands)
from parlour.cli.app import app
from parlour.envs.learned import LAYERS, weights_path

AGENT = textwrap.dedent('''
    def lowest(view):
        """The first legal move: a callable taking a view."""
        return view.legal[0]

    def factory(game, seed):
        from parlour.envs.policy import PolicyBot, first_legal
        return PolicyBot(game, first_legal, seed)

    def cheat(view):
        return "not a move"
''')

PROGRAM = textwrap.dedent('''
    import json, sys
    for line in sys.stdin:
        req = json.loads(line)
        assert req["protocol"] == "parlour-bot/1" and req["view"]["seat"] == req["seat"]
        # the last legal move, once as its index and once as the move itself
        pick = len(req["legal"]) - 1
        print(pick if req["view"]["hand_counts"][req["seat"]] % 2 else
              json.dumps(req["legal"][pick]), flush=True)
''')


@pytest.fixture
def entrants(tmp_path: Path) -> dict[str, str]:
    (tmp_path / "agent.py").write_text(AGENT)
    (tmp_path / "program.py").write_text(PROGRAM)
    with np.load(weights_path("fantan", 4)) as d:  # the shipped network, as a user's file
        np.savez(tmp_path / "mine.npz", **{k: d[k] for k in LAYERS})
    return {"callable": f"{tmp_path / 'agent.py'}:lowest",
            "factory": f"{tmp_path / 'agent.py'}:factory",
            "weights": str(tmp_path / "mine.npz"),
            "command": f"cmd:{sys.executable} {tmp_path / 'program.py'}",
            "cheat": f"{tmp_path / 'agent.py'}:cheat"}


def test_a_tournament_takes_a_callable_a_weights_file_and_a_command(entrants) -> None:
    bots = [entrants["callable"], entrants["weights"], entrants["command"], entrants["factory"]]
    result = CliRunner().invoke(app, ["tournament", "fantan", "--players", "4", "--bots",
                                      ",".join(bots), "--games", "3", "--seed", "1", "--json"])
    assert result.exit_code == 0, result.output
    summary = json.loads(result.output.strip().splitlines()[-1])
    assert [b["name"] for b in summary["bots"]] == bots  # listed under their own names
    assert sum(b["wins"] for b in summary["bots"]) == pytest.approx(12)
    # the weights file is the shipped network: it plays exactly as ``learned`` does
    learned = Tournament("fantan", 4, [entrants["callable"], "learned", entrants["command"],
                                       entrants["factory"]], 3, seed=1).run().summary()
    assert learned["bots"][1]["wins"] == summary["bots"][1]["wins"]
    assert learned["bots"][1]["name"] == "learned"


def test_the_python_api_and_workers_take_entrants(entrants) -> None:
    bots = [entrants["command"], entrants["callable"]]
    one = Tournament("fanti", 2, bots, 2, seed=3).run().summary()
    two = Tournament("fanti", 2, bots, 2, seed=3).run(workers=2).summary()
    assert one == two and one["lineup"] == bots


def test_simulate_and_analyze_take_entrants(entrants) -> None:
    bots = f"{entrants['callable']},{entrants['command']},{entrants['weights']},random"
    result = CliRunner().invoke(app, ["simulate", "fantan", "-n", "4", "--games", "2",
                                      "--bots", bots, "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["bots"] == bots.split(",")
    result = CliRunner().invoke(app, ["analyze", "fantan", "-n", "4", "--games", "2",
                                      "--bots", f"{entrants['command']},random"])
    assert result.exit_code == 0, result.output


def test_a_module_function_on_the_path(entrants, tmp_path, monkeypatch) -> None:
    monkeypatch.syspath_prepend(str(tmp_path))
    bot = make_bot("agent:lowest", "fantan", 0)
    assert bot.name == "agent:lowest"
    assert type(make_bot("hard:50", "fantan", 0)).__name__ != "FunctionBot"  # still search


@pytest.mark.parametrize(("bots", "words"), [
    ("nosuchmodule:play,random", "no Python module 'nosuchmodule'"),
    ("/nowhere/x.npz,random", "no weights file at /nowhere/x.npz"),
    ("cmd:no-such-program-here,random", "no program 'no-such-program-here'"),
    ("learned,random", "4 players only, not 3"),
])
def test_entrants_that_cannot_play_are_refused_in_words(bots, words) -> None:
    result = CliRunner().invoke(app, ["tournament", "fantan", "--players", "3", "--bots", bots,
                                      "--games", "1"])
    assert result.exit_code == 2
    assert words in result.output and "Traceback" not in result.output


def test_weights_of_another_table_size_are_refused(entrants) -> None:
    result = CliRunner().invoke(app, ["tournament", "fantan", "--players", "3", "--bots",
                                      entrants["weights"], "--games", "1"])
    assert result.exit_code == 2
    assert "takes 181 inputs" in result.output


def test_an_agent_that_breaks_off_a_game_stops_it_in_words(entrants, tmp_path) -> None:
    result = CliRunner().invoke(app, ["tournament", "fantan", "--bots",
                                      f"{entrants['cheat']},random", "--games", "1"])
    assert result.exit_code == 1
    assert "which is not a legal move now" in result.output
    (tmp_path / "mute.py").write_text("import sys\nfor line in sys.stdin:\n    print('[]')\n")
    bot = make_bot(f"cmd:{sys.executable} {tmp_path / 'mute.py'}", "fantan", 0)
    from parlour.games import get_game
    from parlour.match import Match, Shuffler

    r = Match.new(get_game("fantan"), 4, {"rounds": 1}, shuffler=Shuffler(1)).rounds[-1]
    with pytest.raises(BotFailed, match="not a legal move"):
        bot.choose(r.view(r.current_player))
    bot.close()
