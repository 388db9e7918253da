"""Hints in points (#36 finding 8): Fan Tan's hints give each move's expected penalty or
chips beside its chance to win, rank by it, and say when moves are equal; in
``parlour play`` and on the server. The positions are seeded heuristic games."""

from __future__ import annotations

import pytest
from rich.console import Console

from parlour import render
from parlour.bots import make_bot
from parlour.bots.hints import EQUAL, in_points, rich_hints
from parlour.games import get_game
from parlour.match import Shuffler
from parlour.present import presenter


def _view(seed: int, ply: int, stakes: str = "points"):
    """Seat 0's view after ``ply`` moves of a seeded 4-player round of heuristic bots."""
    g = get_game("fantan")
    r = g.new_round(g.rules(4, {"rounds": 1, "stakes": stakes}), 4, 0, Shuffler(seed).deck())
    bots = [make_bot("heuristic", "fantan", s) for s in range(4)]
    while len(r.history) < ply:
        p = r.current_player
        r.apply(bots[p].choose(r.view(p)))
    assert r.current_player == 0
    return r.view(0)


def test_fan_tan_counts_hints_in_points_and_fanti_does_not():
    assert in_points("fantan") and not in_points("fanti")


def test_same_chance_to_win_but_different_points():
    # Another seat is about to go out: every move has no chance to win, yet one costs
    # less -- the old hint showed 0.00 for both and could not choose.
    hints = rich_hints("fantan", _view(1, 45), "easy", seed=1, seconds=None)
    assert len(hints) >= 2
    assert len({h.value for h in hints}) == 1
    assert hints[1].points - hints[0].points > 0.1  # lowest expected penalty first
    assert not hints[1].equal_to_best
    text = _table(hints)
    assert "penalty points" in text and "just as good" not in text


def test_two_moves_of_equal_value_are_said_to_be_equal():
    hints = rich_hints("fantan", _view(1, 49), "easy", seed=1, seconds=None)
    assert abs(hints[0].points - hints[1].points) < EQUAL
    assert hints[1].equal_to_best
    assert "just as good" in _table(hints)


def _table(hints) -> str:
    view_rules = get_game("fantan").rules(4, {"rounds": 1})
    out = Console(width=120, record=True, color_system=None)
    out.print(render.moves_table("fantan", [h.move for h in hints], {h.move: h for h in hints},
                                 hints[0].move, "", view_rules))
    return out.export_text()


@pytest.mark.parametrize(("stakes", "value", "words"), [
    ("points", 5.306, "5.31 penalty points"), ("chips", -1.5, "-1.50 chips"),
    ("chips", 2.0, "+2.00 chips")])
def test_the_expectation_is_said_in_the_game_s_currency(stakes, value, words):
    rules = get_game("fantan").rules(4, {"stakes": stakes})
    assert presenter("fantan").expected_text(rules, value) == words


def test_chips_hints_rank_the_most_chips_first():
    hints = rich_hints("fantan", _view(1, 45, "chips"), "easy", seed=1, seconds=None)
    points = [h.points for h in hints]
    assert points == sorted(points, reverse=True)
