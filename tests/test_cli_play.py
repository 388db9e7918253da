"""``parlour play``: whole games with scripted input, bad input, quitting, usage errors."""

from __future__ import annotations

import json
import sys
import types
from pathlib import Path

import pytest
from typer.testing import CliRunner

import parlour.cli.commands  # noqa: F401  (registers the commands)
from parlour import cards, record, speech
from parlour.cli import app
from parlour.games.fantan.rules import FANTAN
from parlour.games.fanti.rules import FANTI
from parlour.match import Match, Shuffler

runner = CliRunner()
MOVES = "1\n" * 400  # always the first legal move, more than any game needs


def first_round(game, players: int, seed: int, rules: dict):
    """The first round ``parlour play --seed`` deals: ``Shuffler(seed)`` (C-3)."""
    return Match.new(game, players, rules, shuffler=Shuffler(seed)).rounds[0]


def saved(path: Path) -> Match:
    return record.load(record.parse_json(path.read_text(encoding="utf-8")))


def reject_lines(output: str) -> list[str]:
    return [line for line in output.splitlines() if "✗" in line]


def test_fantan_whole_game_with_bad_input(tmp_path):
    """Unreadable text, a card not held, a card that does not fit (FT-3) and a pass while a
    card fits (FT-5) each get a one-line reason; the
    game then finishes and its record checks."""
    seed, rules = 13, {"rounds": 2}
    hand = first_round(FANTAN, 4, seed, FANTAN.rules(4, rules)).hand(0)
    assert not hand >> cards.parse("7D") & 1  # so the table is open at our first turn
    stuck = next(c for c in cards.iter_cards(hand) if cards.rank_of(c) in (0, 1, 2, 10, 11, 12))
    absent = next(c for c in range(52) if not hand >> c & 1)
    script = f"xyz\n{cards.code(absent)}\n{cards.code(stuck).lower()}\np\n" + MOVES
    out = tmp_path / "game.json"
    res = runner.invoke(app, ["play", "fantan", "--seed", str(seed), "--rule", "rounds=2",
                              "--bots", "greedy", "--save", str(out)], input=script)
    assert res.exit_code == 0, res.output
    rejects = reject_lines(res.output)
    assert len(rejects) == 4
    assert "'xyz' is not a card" in rejects[0]
    assert f"you do not hold {cards.code(absent)}" in rejects[1]
    # the engine's reasons in the reader's words: card names, no ruling ids
    assert "does not fit on the table" in rejects[2] and "FT-3" not in rejects[2]
    assert "cannot pass while holding a playable card" in rejects[3] and "FT-5" not in rejects[3]
    assert "Score sheet" in res.output
    assert "with a total of" in res.output
    assert f"Record saved to {out}" in res.output
    m = saved(out)
    assert m.is_over and len(m.rounds) == 2
    assert m.meta["seed"] == seed and m.meta["human_seat"] == 0


def test_fanti_whole_game_with_bad_input(tmp_path):
    """Fanti: no pass (FA-4), a card not held, a take of cards not on the table (FA-5),
    unreadable text; Fanti names are shown (FA-1); the record checks."""
    seed, rules = 5, {"rounds": 1}
    hand = first_round(FANTI, 2, seed, FANTI.rules(2, rules)).hand(0)
    mine = list(cards.iter_cards(hand))
    absent = next(c for c in range(52) if not hand >> c & 1)
    bad_take = f"{cards.code(mine[0])} take {cards.code(mine[1])}"
    script = f"pass\n{cards.code(absent)}\n{bad_take}\n?!\n" + MOVES
    out = tmp_path / "fanti.json"
    res = runner.invoke(app, ["play", "fanti", "--seed", str(seed), "--rule", "rounds=1",
                              "--bots", "random", "--save", str(out)], input=script)
    assert res.exit_code == 0, res.output
    rejects = reject_lines(res.output)
    assert len(rejects) == 4
    assert "Fanti has no pass" in rejects[0]
    assert f"you do not hold {cards.code(absent)}" in rejects[1]
    assert f"{speech.card_name(mine[1])} not on the table" in rejects[2]
    assert "is not a card or a move number" in rejects[3]
    assert "Your hand:" in res.output and "Deck:" in res.output and "Leaf" in res.output
    assert "Round result" in res.output
    assert saved(out).is_over


def test_eof_mid_game_saves_a_valid_unfinished_record(tmp_path):
    out = tmp_path / "eof.json"
    res = runner.invoke(app, ["play", "fantan", "--seed", "3", "--bots", "greedy",
                              "--save", str(out)], input="1\n1\n")
    assert res.exit_code == 0
    assert "saved the unfinished game" in res.output and str(out) in res.output
    m = saved(out)
    assert not m.is_over and m.rounds and "totals" not in json.loads(out.read_text())


def test_ctrl_c_mid_game_saves_and_exits_130(tmp_path, monkeypatch):
    """KeyboardInterrupt at the prompt: the unfinished record is saved, exit status 130."""
    from rich.console import Console

    answers = iter(["1", "1", "1"])

    def fake_input(self, prompt="", **kw):
        try:
            return next(answers)
        except StopIteration:
            raise KeyboardInterrupt from None

    monkeypatch.setattr(Console, "input", fake_input)
    out = tmp_path / "int.json"
    res = runner.invoke(app, ["play", "fanti", "--seed", "9", "--bots", "greedy",
                              "--save", str(out)])
    assert res.exit_code == 130
    assert "Interrupted: saved the unfinished game (round 1 of 5" in res.output
    m = saved(out)
    assert not m.is_over
    assert sum(1 for s, _ in m.rounds[0].history if s == 0) == 3


def test_quit_command_saves(tmp_path):
    out = tmp_path / "q.json"
    res = runner.invoke(app, ["play", "fanti", "--seed", "2", "--save", str(out),
                              "--bots", "greedy"], input="q\n")
    assert res.exit_code == 0
    assert not saved(out).is_over


def test_default_save_name_is_announced(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    res = runner.invoke(app, ["play", "fantan", "--seed", "1", "--bots", "greedy"], input="q\n")
    files = list(tmp_path.glob("parlour-fantan-*.json"))
    assert len(files) == 1 and files[0].name in res.output


def test_strict_false_offers_pass_with_its_fine(tmp_path):
    """FT-5, FT-8: with strict=false a pass is offered beside playable cards, fine stated."""
    res = runner.invoke(app, ["play", "fantan", "--seed", "4", "--rule", "strict=false",
                              "--rule", "rounds=1", "--bots", "greedy",
                              "--save", str(tmp_path / "s.json")], input="q\n")
    assert "pass (1 penalty point now, and a fine of 3 penalty points" in res.output
    assert "withholding (FT-8)" in res.output


def test_live_deal_without_seed(tmp_path):
    """C-3: no --seed deals from the secure source; the record still checks."""
    out = tmp_path / "live.json"
    res = runner.invoke(app, ["play", "fantan", "--players", "3", "--bots", "random",
                              "--save", str(out)], input="q\n")
    assert res.exit_code == 0
    assert saved(out).meta["seed"] is None


@pytest.mark.parametrize("args, message", [
    (["fanti", "--players", "5"], "Fanti takes 2 to 4 players, not 5"),
    (["fantan", "--players", "2"], "Fan Tan takes 3 to 8 players, not 2"),
    (["fantan", "--rule", "colour=red"], "unknown rule 'colour'; valid rules: rounds="),
    (["fantan", "--rule", "ace=middle"], "rule 'ace' must be \"low\" | \"high\""),
    (["fanti", "--bots", "nobody"], "unknown bot 'nobody' for fanti"),
    (["fanti", "--seat", "2"], "--seat must be from 0 to 1, not 2"),
    (["chess"], "unknown game 'chess'"),
])
def test_usage_errors_are_one_line_with_status_2(args, message, tmp_path):
    res = runner.invoke(app, ["play", *args, "--save", str(tmp_path / "x.json")])
    assert res.exit_code == 2
    assert message in res.stderr
    assert len(res.stderr.strip().splitlines()) == 1
    assert "Traceback" not in res.output


def test_hints_are_shown_when_available(tmp_path, monkeypatch):
    """--hints calls parlour.bots.hints.rich_hints(game, view, level, seed), best first."""
    from parlour.bots.hints import Hint

    calls = []

    def hints(game_name, view, level="hard", seed=0, earlier=()):
        calls.append((game_name, level))
        return [Hint(m, 1.0 - i / 10) for i, m in enumerate(view.legal)]

    monkeypatch.setitem(sys.modules, "parlour.bots.hints",
                        types.SimpleNamespace(rich_hints=hints))
    res = runner.invoke(app, ["play", "fanti", "--seed", "1", "--hints", "--bots", "greedy",
                              "--save", str(tmp_path / "h.json")], input="q\n")
    assert calls and calls[0] == ("fanti", "hard")
    assert "Hint:" in res.output and "◀ suggested" in res.output and "(value 1.00)" in res.output
    assert "100%" in res.output and "chance to win" in res.output


def test_hints_missing_is_a_clear_note(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "parlour.bots.hints", None)  # import fails
    res = runner.invoke(app, ["play", "fanti", "--seed", "1", "--hints", "--bots", "greedy",
                              "--save", str(tmp_path / "h.json")], input="q\n")
    assert res.exit_code == 0
    assert "--hints is not available" in res.stderr


def test_connect_wiring(monkeypatch):
    seen = {}

    def play_remote(url, *, hints=False, cacert=None):
        seen.update(url=url, hints=hints, cacert=cacert)
        return 3

    monkeypatch.setitem(sys.modules, "parlour.netclient",
                        types.SimpleNamespace(play_remote=play_remote,
                                              tls_context=lambda cacert: None))
    res = runner.invoke(app, ["play", "fanti", "--connect", "ws://127.0.0.1:1/t/1", "--hints"])
    assert res.exit_code == 3 and seen == {"url": "ws://127.0.0.1:1/t/1", "hints": True,
                                           "cacert": None}
    res = runner.invoke(app, ["play", "fanti", "--connect", "ws://x", "--players", "3"])
    assert res.exit_code == 2 and "drop --players" in res.stderr
    monkeypatch.setitem(sys.modules, "parlour.netclient", None)
    res = runner.invoke(app, ["play", "fanti", "--connect", "ws://x"])
    assert res.exit_code == 1 and "--connect is not available" in res.stderr


# --- reading what the player types --------------------------------------------------


def fanti_view():
    """Seat 0 to move; table 5H 6H 4D AS; hand 5C AC JD KS (FA-3 deal order)."""
    from deal_helpers import fanti_deck

    deck = fanti_deck(2, 1, table=["5H", "6H", "4D", "AS"],
                      deals=[{0: ["5C", "AC", "JD", "KS"]}])
    r = FANTI.new_round(FANTI.rules(2), 2, 1, deck)
    return r.view(0)


def test_fanti_input_card_and_take():
    """FA-5, FA-6: a card with several collections needs the take; a single way does not."""
    from parlour.cli.move_input import BadInput, read_move
    from parlour.game import play

    view, c = fanti_view(), cards.parse
    with pytest.raises(BadInput, match="5C can collect in 2 ways"):
        read_move("fanti", view, "5c")
    assert read_move("fanti", view, "5c 6h") == play(c("5C"), cards.mask_of([c("6H")]))
    both = cards.mask_of([c("5H"), c("AS")])
    assert read_move("fanti", view, "5♣ take 5h+as") == play(c("5C"), both)
    sweep = cards.mask_of(c(x) for x in ("5H", "6H", "4D", "AS"))
    assert read_move("fanti", view, "G★") == play(c("JD"), sweep)  # FA-1 letters and marks
    assert read_move("fanti", view, "s♠") == play(c("KS"))  # Scout, nothing to collect
    assert read_move("fanti", view, "2") == view.legal[1]
    with pytest.raises(BadInput, match="there is no move 99"):
        read_move("fanti", view, "99")
    with pytest.raises(BadInput, match="you do not hold 7H"):
        read_move("fanti", view, "7h")


def test_fantan_input():
    from parlour.cli.move_input import BadInput, read_move
    from parlour.game import PASS

    r = Match.new(FANTAN, 4, shuffler=Shuffler(13)).rounds[0]
    view = r.view(r.current_player)
    seven = cards.parse("7D")
    assert read_move("fantan", view, "7♦") == seven
    assert read_move("fantan", view, " 7D ") == seven
    assert read_move("fantan", view, "p") == PASS  # the rules then refuse it (FT-4)
    assert r.why_illegal(PASS) is not None
    with pytest.raises(BadInput, match="one card at a time"):
        read_move("fantan", view, "7d 8d")
    with pytest.raises(BadInput, match="is not a card"):
        read_move("fantan", view, "seven")


def test_too_many_bot_names_for_one_computer_seat_reads_as_english():
    res = runner.invoke(app, ["play", "fanti", "--players", "2", "--bots", "hard,hard,hard"])
    assert res.exit_code == 2
    assert ("--bots needs one name (there is one computer seat), not 3"
            in " ".join(res.output.split()))
