"""The command line's results and words, each with the case that once went wrong.

Every bot name works in every command; round results are itemised (FA-9, FT-7, FT-8)
from ``Round.score_detail()``; the starting table when a bot moves first, a winner mark
that is not Fanti's Star, a pace; ``verify`` numbering, ``--json`` and summary, and the
grammar of "You".
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

import parlour.cli.commands  # noqa: F401  (registers the commands)
from parlour import record
from parlour.cli import app, play_session
from parlour.games.fanti.rules import FANTI
from parlour.match import Match, Shuffler
from playout import random_playout

runner = CliRunner()
MOVES = "1\n" * 400


def ok(res) -> None:
    assert res.exit_code == 0, res.output
    assert "Traceback" not in res.output


# --- 5: every bot name in every command ----------------------------------------------


@pytest.mark.parametrize("bot", ["hard:3", "ismcts:3", "pimc:3"])
def test_search_names_with_a_budget_work_in_simulate_and_play(bot, tmp_path):
    ok(runner.invoke(app, ["simulate", "fanti", "-n", "2", "-g", "1", "--bots", bot,
                           "--rule", "rounds=1"]))
    ok(runner.invoke(app, ["play", "fanti", "--seed", "1", "--bots", bot, "--rule", "rounds=1",
                           "--save", str(tmp_path / "g.json")], input=MOVES))


def test_a_bad_budget_name_lists_the_names(tmp_path):
    res = runner.invoke(app, ["simulate", "fanti", "-n", "2", "-g", "1", "--bots", "hard:x"])
    assert res.exit_code == 2 and "unknown bot 'hard:x'" in res.stderr
    assert "e.g. hard:400" in res.stderr


# --- 6: itemised round results ----------------------------------------------------


def _tied_fanti_record(tmp_path: Path) -> tuple[Path, Match]:
    """A 2-player Fanti game of one round that ended 26-26 in cards (found by seed)."""
    for seed in range(400):
        m = random_playout("fanti", 2, seed, {"rounds": 1})
        piles = m.rounds[0].piles
        if piles[0].bit_count() == piles[1].bit_count() == 26:
            path = tmp_path / "tie.json"
            path.write_text(record.dumps(m))
            return path, m
    raise AssertionError("no 26-26 round in 400 seeds")


def test_fanti_26_26_tie_is_explained_in_replay(tmp_path):
    """FA-9: the round result names the tie and the rule applied, beside every item."""
    path, m = _tied_fanti_record(tmp_path)
    res = runner.invoke(app, ["replay", str(path)])
    ok(res)
    names = m.seats
    assert f"Most cards: 26 each for {names[0]} and {names[1]}; nobody scores" in res.stdout
    assert "26 cards, tied for the most" in res.stdout
    assert "Leaf cards" in res.stdout


def test_fan_tan_chips_result_shows_ante_pot_and_payments(tmp_path):
    """FT-7 chips: a loser's items include the ante; the pot and each payment follow."""
    m = random_playout("fantan", 4, 5, {"rounds": 1, "stakes": "chips"})
    path = tmp_path / "chips.json"
    path.write_text(record.dumps(m))
    res = runner.invoke(app, ["replay", str(path)])
    ok(res)
    out = res.stdout
    assert "Ante" in out and "1 chip" in out and "The pot:" in out
    assert " pays " in out and "(cards left)" in out
    winner = m.rounds[0].winner
    assert f"{m.seats[winner]} 🏆" in out or "🏆" in out


def test_play_shows_the_itemised_result(tmp_path):
    res = runner.invoke(app, ["play", "fanti", "--seed", "4", "--rule", "rounds=1",
                              "--bots", "greedy", "--save", str(tmp_path / "g.json")],
                        input=MOVES)
    ok(res)
    assert "Round result" in res.stdout and "Leaf cards" in res.stdout
    assert "total" in res.stdout


# --- 7: following the game ----------------------------------------------------------


def _first_seat(seed: int, players: int = 2) -> int:
    m = Match.new(FANTI, players, FANTI.rules(players), shuffler=Shuffler(seed))
    return m.rounds[0].current_player


def test_the_table_is_shown_before_a_bot_moves_first(tmp_path):
    seed = next(s for s in range(50) if _first_seat(s) == 1)
    res = runner.invoke(app, ["play", "fanti", "--seed", str(seed), "--seat", "0",
                              "--bots", "greedy", "--save", str(tmp_path / "g.json")],
                        input="q\n")
    ok(res)
    out = res.stdout
    assert out.index("Table:") < out.index("Bot 1 plays")
    assert out.index("Your hand:") < out.index("Bot 1 plays")


def test_the_winner_mark_is_not_the_star_suit(tmp_path):
    """FA-1 uses ★ for diamonds (Star); the score sheet marks winners otherwise."""
    res = runner.invoke(app, ["play", "fanti", "--seed", "3", "--rule", "rounds=1",
                              "--bots", "greedy", "--save", str(tmp_path / "g.json")],
                        input=MOVES)
    ok(res)
    sheet = res.stdout[res.stdout.rindex("Score sheet"):]
    header = sheet.splitlines()[1]
    assert "🏆" in header and "★" not in header


def test_pace_waits_after_each_bot_move(tmp_path, monkeypatch):
    slept: list[float] = []
    monkeypatch.setattr(play_session.time, "sleep", lambda s: slept.append(s))
    res = runner.invoke(app, ["play", "fanti", "--seed", "1", "--pace", "0.25", "--bots",
                              "random", "--save", str(tmp_path / "g.json")], input="q\n")
    ok(res)
    moves = res.stdout.count("Bot 1 plays")
    assert moves and len(slept) >= moves and all(0 < s <= 0.25 for s in slept)


def test_without_a_terminal_there_is_no_pace(tmp_path, monkeypatch):
    slept: list[float] = []
    monkeypatch.setattr(play_session.time, "sleep", lambda s: slept.append(s))
    ok(runner.invoke(app, ["play", "fanti", "--seed", "1", "--bots", "random",
                           "--save", str(tmp_path / "g.json")], input="q\n"))
    assert slept == []


# --- 8: verify and words ---------------------------------------------------------------


def test_verify_counts_from_0_with_a_summary_and_json(tmp_path):
    m = random_playout("fanti", 2, 1, {"rounds": 1})
    path = tmp_path / "two.jsonl"
    path.write_text(record.dumps(m) + "\n" + record.dumps(m) + "\n")
    res = runner.invoke(app, ["verify", str(path)])
    assert res.exit_code == 1  # simulated games have no commitments
    assert "record 0 (line 1) round 1: no commitment" in res.stdout
    assert "record 1 (line 2)" in res.stdout and "record 2" not in res.stdout
    assert f"2 records in {path}: 0 verified, 2 not verified" in res.stdout
    res = runner.invoke(app, ["verify", "--json", str(path)])
    lines = [json.loads(x) for x in res.stdout.splitlines()]
    assert [x["index"] for x in lines] == [0, 1] and not any(x["ok"] for x in lines)
    assert lines[0]["rounds"] == [{"round": 1, "status": "no commitment", "commit": None}]


def test_replay_of_a_played_game_says_you_play_and_your_hand(tmp_path):
    out = tmp_path / "g.json"
    ok(runner.invoke(app, ["play", "fanti", "--seed", "2", "--rule", "rounds=1", "--bots",
                           "greedy", "--save", str(out)], input=MOVES))
    res = runner.invoke(app, ["replay", str(out), "--seat", "0"])
    ok(res)
    assert "You play" in res.stdout and "You plays" not in res.stdout
    assert "Your hand:" in res.stdout and "You's hand" not in res.stdout


def test_one_move_menu_says_the_only_move(tmp_path):
    from parlour.present import BadInput, presenter

    class View:
        legal = (5,)
        hand = 1 << 5

    with pytest.raises(BadInput, match="the only move is 1"):
        presenter("fantan").read_move(View(), "2")


def test_leftover_note_counts_in_words():
    """FA-8 note: '1 card ... goes', '3 cards ... go', never 'card(s)'."""
    from rich.text import Text

    from parlour.present import presenter

    class V:
        def __init__(self, table, deck_left, current, last):
            self.table, self.deck_left, self.current_player = table, deck_left, current
            self.last_collector = last

    p = presenter("fanti")
    one = p.move_notes(V(0b11, 0, 0, 0), 2, V(0, 0, -1, 1), ["A", "B"])
    text = " ".join(t.plain if isinstance(t, Text) else str(t) for t in one)
    assert "cards left on the table go to B" in text and "card(s)" not in text


# --- New: replay --review ------------------------------------------------------------


def test_review_judges_each_choice_of_the_seat(tmp_path, monkeypatch):
    """Each turn with a choice gets the engine's values (from the seat's view only), the
    best alternative, and a mark sized by the drop; forced turns are skipped."""
    import types

    from parlour.cli import review

    calls = []

    def hints(game, view, level="hard", seed=0, earlier=()):
        calls.append(view.seat)
        legal = list(view.legal)
        return [(m, 1.0 - 0.15 * i) for i, m in enumerate(legal)]  # the first is best

    monkeypatch.setitem(__import__("sys").modules, "parlour.bots.hints",
                        types.SimpleNamespace(hints=hints, BUDGETS={"medium": None}))
    m = random_playout("fanti", 2, 7, {"rounds": 1})
    rows = list(review.review(m, 1, "medium"))
    r = m.game.new_round(m.rules, 2, m.rounds[0].dealer, m.rounds[0].deck)
    expected = []
    for i, (s, move) in enumerate(m.rounds[0].history, 1):
        legal = r.legal_moves()
        if s == 1 and len(legal) > 1:
            expected.append((i, move, 1.0 - 0.15 * legal.index(move)))
        r.apply(move)
    assert [(x.move, x.played, round(x.value, 6)) for x in rows] == \
        [(i, mv, round(v, 6)) for i, mv, v in expected]
    assert set(calls) == {1}
    marks = {round(x.drop, 6): x.mark for x in rows}
    assert marks.get(0.0, "") == "" and marks.get(0.15, "?") == "?"
    assert marks.get(0.3, "??") == "??" and 0.15 in marks  # a drop of 0.15 was seen
    path = tmp_path / "g.json"
    path.write_text(record.dumps(m))
    res = runner.invoke(app, ["replay", str(path), "--review", "--seat", "1", "--round", "1"])
    ok(res)
    assert "turns reviewed" in res.stdout and "best value" in res.stdout
    res = runner.invoke(app, ["replay", str(path), "--review", "--round", "9"])
    assert res.exit_code == 2 and "--round must be from 1 to 1" in res.stderr


# --- New: play --resume ------------------------------------------------------------------


@pytest.mark.parametrize(("game", "stop_after"), [("fanti", 3), ("fantan", 9)])
def test_resume_continues_exactly_where_the_game_stopped(game, stop_after, tmp_path):
    """Same decks (C-3), same bots with the same seeds: a game stopped and resumed ends
    with the very record of the same game played without a stop."""
    args = ["play", game, "--seed", "11", "--bots", "random", "--rule", "rounds=2"]
    whole = tmp_path / "whole.json"
    ok(runner.invoke(app, [*args, "--save", str(whole)], input=MOVES))
    part = tmp_path / "part.json"
    res = runner.invoke(app, [*args, "--save", str(part)], input="1\n" * stop_after + "q\n")
    ok(res)
    assert f"parlour play --resume {part}" in res.stdout
    assert not record.load(json.loads(part.read_text())).is_over
    res = runner.invoke(app, ["play", "--resume", str(part)], input=MOVES)
    ok(res)
    assert "Resuming" in res.stdout and f"Record saved to {part}" in res.stdout
    a, b = json.loads(whole.read_text()), json.loads(part.read_text())
    assert a["rounds"] == b["rounds"] and a["totals"] == b["totals"]


def test_resume_refuses_what_it_cannot_continue(tmp_path):
    m = random_playout("fanti", 2, 1, {"rounds": 1})
    over = tmp_path / "over.json"
    over.write_text(record.dumps(m))
    res = runner.invoke(app, ["play", "--resume", str(over)])
    assert res.exit_code == 2 and "not saved by parlour play" in res.stderr
    part = tmp_path / "p.json"
    ok(runner.invoke(app, ["play", "fanti", "--seed", "1", "--save", str(part)], input="q\n"))
    res = runner.invoke(app, ["play", "--resume", str(part), "--players", "3"])
    assert res.exit_code == 2 and "drop --players" in res.stderr
    res = runner.invoke(app, ["play", "fantan", "--resume", str(part)])
    assert res.exit_code == 2 and "holds a game of Fanti" in res.stderr


# --- Polish -------------------------------------------------------------------------------


@pytest.mark.parametrize("width", [40, 30, 80])
def test_fan_tan_rows_never_wrap(width):
    """FT-2 rows: one line per suit at any width from 30 columns; 10 is T when narrow."""
    from rich.console import Console

    from parlour.cards import FULL_DECK
    from parlour.games.fantan.present import Rows

    console = Console(width=width, record=True, color_system=None)
    console.print(Rows(FULL_DECK, False))
    lines = console.export_text().rstrip("\n").splitlines()
    assert len(lines) == 4 and all(len(x) <= width for x in lines)
    assert ("10" in lines[0]) == (width >= 41) and ("T" in lines[0]) == (width < 41)


def test_tournament_table_ranks_by_win_rate_with_the_rating_beside():
    """6 against 15 wins: the table lists greedy first, whatever the ratings say."""
    from rich.console import Console

    from parlour.arena import report

    bots = [{"name": n, "games": 20, "wins": w, "win_rate": w / 20, "ci95": [0.1, 0.9],
             "mean_score": 1.0, "rating": r, "rating_sigma": s}
            for n, w, r, s in (("random", 6, 26.0, 3.1), ("greedy", 15, 24.0, 3.2))]
    summary = {"game": "fanti", "players": 2, "deals": 10, "games": 20,
               "fair_share": 0.5, "bots": bots}
    console = Console(width=120, record=True, color_system=None)
    console.print(report.table(summary))
    text = console.export_text()
    assert text.index("greedy") < text.index("random")
    assert "26.0±3.1" in text and "ranked by win rate" in text


def test_loadtest_report_has_no_raw_python_values():
    from parlour.cli.commands.loadtest_command import report_text

    report = {"elapsed_s": 3.2, "games_finished": 5, "moves": 0, "moves_per_s": 0.0,
              "rtt_ms": {"p50": None, "p90": None, "p99": None, "max": None},
              "rtt_ms_after_arrival": {"p50": None, "p99": None, "n": 0},
              "errors": 0, "error_codes": {}, "failures": [],
              "server_rss_mb": {"start": 80, "peak": None, "end": 81},
              "records_checked": {"ok": 5, "bad": 0}}
    text = report_text(report, 5, "full", "fantan", 4, 1)
    assert "None" not in text and "{" not in text and "round(s)" not in text
    assert "p50 -" in text and "records         5 valid, 0 invalid" in text


def test_help_is_plain_words_with_h():
    for args in (["-h"], ["simulate", "-h"], ["check", "--help"], ["play", "-h"]):
        res = runner.invoke(app, args)
        assert res.exit_code == 0, args
        for raw in ("<bool>", "<int>", "<str>", "{GAME}", "list[Path]", "{file}"):
            assert raw not in res.stdout, (args, raw)
    top = runner.invoke(app, ["-h"]).stdout
    assert "rules" in top and "--install-completion" in top


def test_fan_tan_chips_table_shows_the_pot_during_play():
    """FT-7: 4 players dealt 13 each ante 1 each; two passes make the pot 6."""
    from rich.console import Console

    from parlour.games.fantan.rules import FANTAN
    from parlour.present import presenter

    r = FANTAN.new_round(FANTAN.rules(4, {"stakes": "chips"}), 4, 0, range(52))
    r.passes = [1, 0, 1, 0]
    console = Console(width=100, record=True, color_system=None)
    console.print(presenter("fantan").table(r.view(0), ["A", "B", "C", "D"]))
    assert "Pot: 6 chips" in console.export_text()
