"""Fan Tan's itemised round score (FT-7, FT-8), checked against the rulings' worked
numbers: the seed example (2, 5 and 9 cards after one pass each: 3, 6, 10), and the
scripted scenarios of ``scenarios`` whose chips are worked out by hand in
``test_fantan_rules``.
"""

from __future__ import annotations

import scenarios as S
from deal_helpers import masks, worded
from parlour.games.fantan.rules import FANTAN


def items(detail: dict, seat: int) -> list[tuple[str, str, int, str]]:
    return [(i["what"], i["detail"], i["points"], i["rule"])
            for i in detail["seats"][seat]["items"]]


def test_ft7_seed_example_points_item_by_item():
    """FT-7: losers with 2, 5 and 9 cards after one pass each score 3, 6 and 10; the
    winner writes 0 (end state set directly, as in the rules test)."""
    r = FANTAN.new_round(FANTAN.rules(4), 4, 0, range(52))
    r.hands = [0, masks("2C", "3C"), masks("2D", "3D", "4D", "5D", "6D"),
               masks("2H", "3H", "4H", "5H", "6H", "8H", "9H", "10H", "JH")]
    r.passes = [1, 1, 1, 1]
    r.winner = 0
    r.is_over = True
    d = worded(r)
    assert [e["total"] for e in d["seats"]] == [0, 3, 6, 10]
    assert items(d, 0) == [("Won the round", "played their last card first: no points this round, their passes included",
                            0, "FT-7")]
    assert items(d, 3) == [("Cards left", "9 cards", 9, "FT-7"),
                           ("Passes", "1 pass", 1, "FT-7")]
    assert d["seats"][1]["hand"] == ["2C", "3C"]
    assert d["chips"] is None and d["notes"] == []


def test_ft8_points_withholding_fines_item_by_item():
    """FT-8 points, scenario B: seats 1 and 3 withheld five times: 6 + 5 + 15 = 26."""
    d = worded(S.play(S.B_HANDS, S.B_MOVES, stakes="points"))
    assert items(d, 1) == [
        ("Cards left", "6 cards", 6, "FT-7"),
        ("Passes", "5 passes", 5, "FT-7"),
        ("Withholding fines", "5 passes holding a playable card, 3 points each", 15, "FT-8"),
    ]
    assert items(d, 2) == [("Cards left", "6 cards", 6, "FT-7"), ("Passes", "5 passes", 5, "FT-7")]
    assert [e["total"] for e in d["seats"]] == [0, 26, 11, 26, 12, 12, 12, 2]


def test_ft7_ft8_chips_round_antes_pot_and_payments():
    """FT-7 chips and FT-8 fines, scenario A: antes 2 (seats 0-3, dealt 6) and 1; pot
    6+26+8+8+25+7+25+1 = 106 to the winner with 40 for cards left; seat 1 pays 5 to each
    of seats 2 and 3 six times; seat 4 pays seat 5 six times (it holds 6S itself)."""
    d = worded(S.play(S.A_HANDS, S.A_MOVES, stakes="chips"))
    chips = d["chips"]
    assert chips["ante"] == 1 and chips["antes"] == [2, 2, 2, 2, 1, 1, 1, 1]
    assert chips["pot"] == 106
    left = {p["from"]: p["chips"] for p in chips["payments"] if p["what"] == "cards left"}
    assert left == {1: 6, 2: 6, 3: 6, 4: 7, 5: 7, 6: 7, 7: 1}
    assert all(p["to"] == 0 for p in chips["payments"] if p["what"] == "cards left")
    fines = sorted((p["from"], p["to"], p["chips"]) for p in chips["payments"]
                   if p["what"] != "cards left")
    assert fines == [(1, 2, 30), (1, 3, 30), (4, 5, 30)]
    assert items(d, 0) == [
        ("Ante", "2 chips (dealt a card fewer)", -2, "FT-7"),
        ("Passes", "1 pass, 1 chip to the pot", -1, "FT-7"),
        ("Withholding fines", "1 pass holding a playable card, 3 chips to the pot", -3, "FT-8"),
        ("Cards left by the others", "40 cards", 40, "FT-7"),
        ("The pot", "antes, passes and fines", 106, "FT-7"),
    ]
    assert ("Held back 7♠", "6 times, 5 chips each to the holder of 8♠", -30, "FT-8") \
        in items(d, 4)
    assert ("7♥ held back", "held 8♥: 6 times, 5 chips each", 30, "FT-8") in items(d, 3)
    assert [e["total"] for e in d["seats"]] == [
        -6 + 106 + 40, -26 - 6 - 60, -8 - 6 + 30, -8 - 6 + 30,
        -25 - 7 - 30, -7 - 7 + 30, -25 - 7, -1 - 1]


def test_ft7_chips_four_cards_three_passes_shows_the_ante():
    """FT-7 chips (issue 16's case): a loser left with 4 cards after 3 passes, ante 1,
    loses 1 + 3 + 4 = 8, and the items say so."""
    r = FANTAN.new_round(FANTAN.rules(4, {"stakes": "chips"}), 4, 0, range(52))
    r.hands = [0, masks("2C", "3C", "4C", "5C"), 0, 0]
    r.hands[2], r.hands[3] = masks("2D"), masks("2H")
    r.passes = [0, 3, 0, 0]
    r.winner = 0
    r.is_over = True
    d = worded(r)
    assert items(d, 1) == [("Ante", "1 chip", -1, "FT-7"),
                           ("Passes", "3 passes, 1 chip each to the pot", -3, "FT-7"),
                           ("Cards left", "4 cards, 1 chip each to the winner", -4, "FT-7")]
    assert d["chips"]["pot"] == 4 + 3
    assert d["seats"][0]["total"] == -1 + 6 + 7
