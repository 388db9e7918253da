"""Gin Lite's own rules tests (GL-1 .. GL-5), from a hand-built deck: a game's folder
holds its tests too."""

from __future__ import annotations

import pytest

from fixture_games.gin_lite.rules import GIN_LITE
from parlour import cards
from parlour.game import IllegalMove

C = cards.from_code
# GL-1 with 2 players and dealer 1: deck card i (i < 10) goes to seat i % 2.
SEAT0 = ["2H", "3H", "4H", "5H", "9C"]
SEAT1 = ["2C", "3C", "4C", "5C", "6D"]
HEAD = [c for pair in zip(SEAT0, SEAT1, strict=True) for c in pair] + ["6H", "7S"]


def new_round(gin_bonus: bool = True):
    deck = [C(c) for c in HEAD] + [c for c in range(52) if cards.code(c) not in HEAD]
    rules = GIN_LITE.rules(2, {"hand": 5, "gin_bonus": gin_bonus})
    return GIN_LITE.new_round(rules, 2, 1, deck)


def test_gl1_gl2_deal_then_the_first_player_draws_the_top_of_the_stock():
    r = new_round()
    assert r.current_player == 0
    assert r.hand(0) == cards.mask_from_codes([*SEAT0, "6H"])  # drew 6H (GL-2)
    assert r.hand(1) == cards.mask_from_codes(SEAT1)
    assert r.view(0).stock_left == 52 - 11


@pytest.mark.parametrize(("bonus", "expected"), [(True, [5 + 3, 4]), (False, [5, 4])])
def test_gl3_gl4_a_discard_to_one_suit_ends_the_round_and_scores(bonus, expected):
    r = new_round(bonus)
    r.apply(C("9C"))  # 2H..6H: gin
    assert r.is_over and r.gin == 0
    assert r.score() == expected
    assert [s["total"] for s in r.score_detail()["seats"]] == expected


def test_gl2_a_card_not_in_hand_is_refused_and_changes_nothing():
    r = new_round()
    with pytest.raises(IllegalMove, match="2C is not in seat 0's hand"):
        r.apply(C("2C"))
    assert r.history == [] and r.hand(0).bit_count() == 6


def test_gl5_a_view_holds_no_other_hand_and_no_stock_card():
    r = new_round()
    r.apply(C("2H"))  # not gin: seat 1 draws 7S
    text = repr(r.view(0).to_json())
    for c in [*SEAT1, "7S"]:
        assert f"'{c}'" not in text
    assert r.view(1).to_json()["discards"] == ["2H"]
