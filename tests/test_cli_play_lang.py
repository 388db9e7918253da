"""``parlour play`` in other languages: a whole game of each game in Persian and Chinese
(the terminal and game catalogs), ``LANG`` as the default, ``--card-names classic``."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

import parlour.cli.commands  # noqa: F401  (registers the commands)
from parlour import record, speech
from parlour.cli import app
from parlour.i18n import t

runner = CliRunner()
MOVES = "1\n" * 400


def words(lang: str, key: str, domain: str, **params) -> str:
    return t(lang, key, domain=domain, **params)


@pytest.mark.parametrize("lang", ["fa", "zh"])
@pytest.mark.parametrize(("game", "players"), [("fanti", 2), ("fantan", 4)])
def test_a_whole_game_in_the_language(tmp_path, lang, game, players):
    """Every screen of a one-round game speaks the language, through to the winner."""
    out = tmp_path / "game.json"
    res = runner.invoke(app, ["play", game, "--lang", lang, "--seed", "5", "-n", str(players),
                              "--rule", "rounds=1", "--bots", "random", "--pace", "0",
                              "--save", str(out)], input=MOVES)
    assert res.exit_code == 0, res.output
    text = res.output
    for key, domain, params in (
            ("session.prompt", "terminal", {}), ("result.title", "game", {}),
            ("sheet.title", "game", {}), ("play.saved", "terminal", {"path": str(out)}),
            ("session.your_hand", "terminal", {})):
        assert words(lang, key, domain, **params) in text, key
    for english in ("Your move", "Round result", "Score sheet", "Record saved", "Your hand",
                    "with a total of"):
        assert english not in text
    m = record.load(record.parse_json(out.read_text(encoding="utf-8")))
    assert m.is_over and m.seats[0] == words(lang, "seat.you", "terminal")


def test_lang_comes_from_the_environment_and_a_bad_one_is_refused(tmp_path):
    res = runner.invoke(app, ["play", "fanti", "--seed", "1", "--rule", "rounds=1",
                              "--bots", "random", "--pace", "0",
                              "--save", str(tmp_path / "a.json")], input=MOVES,
                        env={"LANG": "es_ES.UTF-8", "LC_ALL": ""})
    assert res.exit_code == 0, res.output
    assert "Resultado de la ronda" in res.output and "Round result" not in res.output
    res = runner.invoke(app, ["play", "fanti", "--lang", "xx"], input="")
    assert res.exit_code == 2 and "no language 'xx'" in res.output
    res = runner.invoke(app, ["play", "fanti", "--card-names", "french"], input="")
    assert res.exit_code == 2 and "classic" in res.output


def test_classic_card_names_in_the_terminal(tmp_path):
    """FA-1: the game's names by default, Jack/Queen/King and clubs/diamonds when chosen."""
    args = ["play", "fanti", "--seed", "3", "--rule", "rounds=1", "--bots", "random",
            "--pace", "0"]
    game = runner.invoke(app, [*args, "--save", str(tmp_path / "g.json")], input=MOVES)
    classic = runner.invoke(app, [*args, "--card-names", "classic",
                                  "--save", str(tmp_path / "c.json")], input=MOVES)
    assert game.exit_code == classic.exit_code == 0
    assert "Leaf" in game.output and " of clubs" not in game.output
    assert " of clubs" in classic.output and "Leaf" not in classic.output
    assert speech.current() == speech.Speech("en", "classic")  # reset by conftest after


def test_replay_speaks_the_language_with_classic_names(tmp_path):
    """The records' words in the terminal: ``parlour replay --lang zh --card-names
    classic`` of an English game, every round result and heading in Chinese."""
    path = tmp_path / "g.json"
    played = runner.invoke(app, ["play", "fanti", "--seed", "2", "--rule", "rounds=1",
                                 "--bots", "random", "--pace", "0", "--save", str(path)],
                           input=MOVES)
    assert played.exit_code == 0, played.output
    res = runner.invoke(app, ["replay", str(path), "--lang", "zh", "--card-names", "classic"])
    assert res.exit_code == 0, res.output
    for key, domain in (("result.title", "game"), ("sheet.title", "game"),
                        ("card.suit.clubs.classic", "game")):
        assert words("zh", key, domain) in res.output, key
    assert "Round result" not in res.output and "Leaf" not in res.output
    assert "叶" not in res.output  # Fanti's own "Leaf" in Chinese: not in the classic names


def test_an_illegal_move_is_refused_in_the_language(tmp_path):
    """A refused move is worded in --lang from the engine's key (parlour.refusals): no
    English reason, no ruling id."""
    res = runner.invoke(app, ["play", "fanti", "--lang", "zh", "--seed", "5", "--rule",
                              "rounds=1", "--bots", "random", "--pace", "0",
                              "--save", str(tmp_path / "game.json")], input="pass\nq\n")
    assert words("zh", "refusal.fanti.no_pass", "game").replace("（FA-4）", "") in res.output
    assert "Fanti has no pass" not in res.output and "FA-4" not in res.output
