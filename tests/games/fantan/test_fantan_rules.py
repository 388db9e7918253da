"""Fan Tan rules engine against the seed text and RULINGS FT-1 .. FT-10.

Decks are built so seats get chosen cards under FT-1 (``deal_helpers.fantan_deck``);
the scripted 8-player rounds of ``scenarios`` have scores worked out by hand.
"""

from __future__ import annotations

import re

import pytest

import scenarios as S
from deal_helpers import fantan_deck, masks
from parlour import cards
from parlour.game import PASS, IllegalMove
from parlour.games.fantan.rules import FANTAN, FanTanRound

C = cards.from_code


def new_round(players: int, dealer: int, hands: dict[int, list[str]],
              **given) -> FanTanRound:
    return FANTAN.new_round(FANTAN.rules(players, given), players, dealer,
                            fantan_deck(players, dealer, hands))


def codes(moves: list[int]) -> list[str]:
    return ["pass" if m == PASS else cards.code(m) for m in moves]


# --- the deal (FT-1) -----------------------------------------------------------------


@pytest.mark.parametrize("players", range(3, 9))
def test_ft1_deck_card_i_goes_to_seat_dealer_plus_1_plus_i(players):
    """FT-1: the whole deck is dealt one at a time from the seat after the dealer."""
    for dealer in range(players):
        deck = list(range(51, -1, -1))
        r = FANTAN.new_round(FANTAN.rules(players), players, dealer, deck)
        for i, c in enumerate(deck):
            assert r.hand((dealer + 1 + i) % players) >> c & 1
        assert sum(r.hand(s).bit_count() for s in range(players)) == 52


@pytest.mark.parametrize(("players", "dealer", "sizes"), [
    (3, 0, [17, 18, 17]),
    (4, 2, [13, 13, 13, 13]),
    (5, 2, [10, 10, 10, 11, 11]),
    (6, 5, [9, 9, 9, 9, 8, 8]),
    (7, 0, [7, 8, 8, 8, 7, 7, 7]),
    (8, 3, [6, 6, 6, 6, 7, 7, 7, 7]),
])
def test_ft1_uneven_deal_seats_dealt_first_hold_one_more(players, dealer, sizes):
    """FT-1: with 52 not divisible by n, the seats dealt first hold one card more."""
    r = FANTAN.new_round(FANTAN.rules(players), players, dealer, range(52))
    assert [r.hand(s).bit_count() for s in range(players)] == sizes


@pytest.mark.parametrize("players", [2, 9])
def test_ft1_three_to_eight_players(players):
    """FT-1: Fan Tan takes 3 to 8 players; other counts are refused clearly."""
    with pytest.raises(ValueError, match="3 to 8 players"):
        FANTAN.rules(players)
    with pytest.raises(ValueError, match="3 to 8 players"):
        FANTAN.new_round(FANTAN.rules(4), players, 0, range(52))


def test_dealer_must_be_a_seat():
    with pytest.raises(ValueError, match="dealer"):
        FANTAN.new_round(FANTAN.rules(4), 4, 4, range(52))


# --- the seed's narrative ----------------------------------------------------------------

DAN = ["4D", "10H", "JS", "QC", "KH", "2C", "3C", "AC", "2S", "3S", "4S", "AS", "2H"]
NARRATIVE = {0: ["7D", "9D"], 1: ["8D", "6D"], 2: ["7C", "5D"], 3: DAN}


def test_seed_narrative_anna_ben_clara_dan():
    """The seed's example, FT-3/FT-4/FT-5: Anna leads 7D, Ben 8D, Clara 7C, Dan passes
    holding 4D, 10H and picture cards, Anna 9D, Ben 6D, then 5D is legal."""
    anna, ben, clara, dan = range(4)
    r = new_round(4, dan, NARRATIVE)
    assert r.current_player == anna
    assert codes(r.legal_moves()) == ["7D"]
    r.apply(C("7D"))
    assert r.current_player == ben
    r.apply(C("8D"))
    r.apply(C("7C"))
    assert r.current_player == dan
    assert codes(r.legal_moves()) == ["pass"]  # nothing of Dan's fits
    assert r.why_illegal(C("4D")) == "4D does not fit on the table (FT-3)"
    r.apply(PASS)
    assert r.passes == [0, 0, 0, 1]  # he writes down a point
    r.apply(C("9D"))
    r.apply(C("6D"))
    assert r.current_player == clara
    assert "5D" in codes(r.legal_moves())
    r.apply(C("5D"))
    assert codes(r.legal_moves()) == ["4D"]  # Dan is back in the game
    assert r.table == masks("7D", "8D", "7C", "9D", "6D", "5D")


# --- rows and ace order (FT-2, FT-3) ---------------------------------------------------

SPADES = ["7S", "6S", "5S", "4S", "3S", "2S", "8S", "9S", "10S", "JS", "QS", "KS", "AS"]


@pytest.mark.parametrize("ace", ["low", "high"])
def test_ft2_ft3_rows_grow_one_unbroken_run_from_the_seven(ace):
    """FT-2, FT-3: a 7 starts its row; then only the card just below the lowest or just
    above the highest card of the row fits. A low: A below 2; A high: A above K."""
    r = new_round(4, 0, {1: SPADES}, ace=ace, opening="any-seven", strict=False)

    def spade_plays() -> list[str]:
        return sorted(c for c in codes(r.legal_moves()) if c.endswith("S"))

    def seat1_plays(code: str) -> None:
        r.apply(C(code))
        for _ in range(3):
            r.apply(PASS)

    assert spade_plays() == ["7S"]
    seat1_plays("7S")
    assert spade_plays() == ["6S", "8S"]
    for c in ["6S", "5S", "4S", "3S"]:
        seat1_plays(c)
    seat1_plays("2S")
    assert spade_plays() == (["8S", "AS"] if ace == "low" else ["8S"])
    for c in ["8S", "9S", "10S", "JS", "QS"]:
        seat1_plays(c)
    assert spade_plays() == (["AS", "KS"] if ace == "low" else ["KS"])
    r.apply(C("KS"))
    for _ in range(3):
        r.apply(PASS)
    assert spade_plays() == ["AS"]
    assert r.why_illegal(C("9S")) is not None  # one card per turn, one row per suit


@pytest.mark.parametrize("ace", ["low", "high"])
def test_ft2_a_card_beyond_a_gap_never_fits(ace):
    """FT-3: with only 7H down, 5H and 9H do not fit; 6H and 8H do."""
    r = new_round(3, 2, {0: ["7D", "7H"], 1: ["6H", "5H", "8H", "9H"]}, ace=ace,
                  opening="any-seven")
    r.apply(C("7H"))
    assert sorted(codes(r.legal_moves())) == ["6H", "8H"]
    assert "does not fit" in r.why_illegal(C("5H"))
    assert "does not fit" in r.why_illegal(C("9H"))


@pytest.mark.parametrize("ace", ["low", "high"])
def test_ft2_where_the_ace_fits_in_a_row_played_out_by_two_seats(ace):
    """FT-2: A high (2 .. K A): the ace fits only above the K, never below the 2, and the
    row reads 2 .. K A; A low: the ace fits below the 2 and never above the K.

    Seat 0 builds hearts upward from 7H, seat 1 downward to 2H; seat 2 only passes.
    """
    r = new_round(3, 2, {0: ["7H", "8H", "9H", "10H", "JH", "QH", "KH", "AH"],
                         1: ["6H", "5H", "4H", "3H", "2H"]},
                  ace=ace, opening="any-seven", strict=False)

    def hearts() -> list[str]:
        return sorted(c for c in codes(r.legal_moves()) if c.endswith("H"))

    for up, down in [("7H", "6H"), ("8H", "5H"), ("9H", "4H"), ("10H", "3H"), ("JH", "2H")]:
        r.apply(C(up))
        r.apply(C(down))
        r.apply(PASS)
    # the row is 2H .. JH: below the 2 is the ace's place only when the ace is low
    assert hearts() == (["AH", "QH"] if ace == "low" else ["QH"])
    if ace == "high":
        assert "does not fit" in r.why_illegal(C("AH"))
    if ace == "low":
        r.apply(C("AH"))
        assert r.view(0).to_json()["rows"]["H"][0] == "AH"
        return
    for up in ("QH", "KH"):
        r.apply(C(up))
        r.apply(PASS)
        r.apply(PASS)
    assert hearts() == ["AH"]
    r.apply(C("AH"))
    assert r.view(2).to_json()["rows"]["H"] == ["2H", "3H", "4H", "5H", "6H", "7H", "8H",
                                               "9H", "10H", "JH", "QH", "KH", "AH"]


# --- openings (FT-4) ----------------------------------------------------------------------


@pytest.mark.parametrize("strict", [True, False])
def test_ft4_holder_of_seven_of_diamonds_opens_and_may_not_pass(strict):
    """FT-4: the 7D holder moves first whoever deals; on the empty table only 7D is legal
    and that opening is never a pass, even with ``strict: false``."""
    for holder in range(5):
        r = new_round(5, 1, {holder: ["7D", "7C", "6D"]}, strict=strict)
        assert r.current_player == holder
        assert codes(r.legal_moves()) == ["7D"]
        assert "7D" in r.why_illegal(PASS) and "FT-4" in r.why_illegal(PASS)
        assert "FT-4" in r.why_illegal(C("7C"))
        with pytest.raises(IllegalMove):
            r.apply(PASS)
        assert r.history == [] and r.passes == [0] * 5
        r.apply(C("7D"))
        assert r.current_player == (holder + 1) % 5  # play continues clockwise


def test_ft4_any_seven_seat_after_dealer_opens_with_a_seven():
    """FT-4 ``any-seven``: the seat after the dealer moves first; on the empty table only
    7s are legal and a player with no 7 passes."""
    r = new_round(4, 2, {3: ["7H", "7S", "6H", "8S"], 0: ["AC"]}, opening="any-seven")
    assert r.current_player == 3
    assert codes(r.legal_moves()) == ["7H", "7S"]
    assert "does not fit" in r.why_illegal(C("6H"))
    r.apply(C("7S"))
    assert r.current_player == 0
    assert r.table == masks("7S")


def test_ft4_any_seven_player_without_a_seven_passes():
    """FT-4 ``any-seven``: while the table is empty a player with no 7 can only pass."""
    sevens = ["7C", "7D", "7H", "7S"]
    r = new_round(4, 0, {3: sevens}, opening="any-seven")
    for seat in (1, 2):
        assert r.current_player == seat
        assert codes(r.legal_moves()) == ["pass"]
        r.apply(PASS)
    assert codes(r.legal_moves()) == sevens


# --- passing (FT-5) ---------------------------------------------------------------------


def test_ft5_strict_true_forbids_passing_with_a_playable_card():
    """FT-5 ``strict: true``: a player who has a legal card must play; the refusal names it."""
    r = new_round(4, 3, NARRATIVE, strict=True)
    r.apply(C("7D"))
    before = (list(r.hands), r.table, list(r.passes), list(r.history), r.turn)
    reason = r.why_illegal(PASS)
    assert reason is not None and "8D" in reason and "6D" in reason and "FT-5" in reason
    with pytest.raises(IllegalMove, match="FT-5"):
        r.apply(PASS)
    assert (list(r.hands), r.table, list(r.passes), list(r.history), r.turn) == before
    assert PASS not in r.legal_moves()


def test_ft5_strict_false_allows_withholding():
    """FT-5 ``strict: false``: a pass is legal while holding a legal card."""
    r = new_round(4, 3, NARRATIVE, strict=False)
    r.apply(C("7D"))
    assert codes(r.legal_moves())[-1] == "pass"
    r.apply(PASS)
    assert r.passes == [0, 1, 0, 0] and r.current_player == 2


def test_ft5_a_pass_moves_the_turn_to_the_next_seat():
    """FT-5: every pass costs its penalty and the turn moves on."""
    r = new_round(4, 3, NARRATIVE)
    for m in ("7D", "8D", "7C"):
        r.apply(C(m))
    r.apply(PASS)
    assert r.current_player == 0 and r.passes[3] == 1


# --- the end of the round (FT-6) and scoring (FT-7, FT-8) -------------------------------


def test_ft6_round_ends_when_a_hand_is_emptied_and_further_moves_are_refused():
    """FT-6: the round ends the moment a player plays their last card; they win it."""
    r = S.play(S.B_HANDS, S.B_MOVES[:-1])
    assert not r.is_over and r.score() is None
    r.apply(C("QD"))
    assert r.is_over and r.winner == 0 and r.current_player == -1
    assert r.legal_moves() == []
    assert r.why_illegal(PASS) == "the round is over"
    with pytest.raises(IllegalMove, match="over"):
        r.apply(C("KD"))


def test_ft7_seed_scoring_example_two_five_nine_cards_after_one_pass_each():
    """FT-7: losers left with 2, 5 and 9 cards after one pass each write 3, 6 and 10; the
    winner writes 0 (their own passes are not charged).

    A real 4-player deal cannot end this way (the 9-card loser had at most 5 turns, so
    the winner at most 6 plays of 13), so the end state is set directly and scored.
    """
    r = new_round(4, 0, {})
    r.hands = [0, masks("2C", "3C"), masks("2D", "3D", "4D", "5D", "6D"),
               masks("2H", "3H", "4H", "5H", "6H", "8H", "9H", "10H", "JH")]
    r.passes = [1, 1, 1, 1]
    r.winner = 0
    assert r.score() == [0, 3, 6, 10]


def test_ft7_points_pass_and_cards_left_winner_zero():
    """FT-7 points: each pass 1, each card left 1, the winner 0. (Scenario B, with the
    withholding fines of FT-8 on top for seats 1 and 3.)"""
    r = S.play(S.B_HANDS, S.B_MOVES, stakes="points")
    assert r.passes == [0, 5, 5, 5, 5, 5, 5, 0]
    assert [h.bit_count() for h in r.hands] == [0, 6, 6, 6, 7, 7, 7, 2]
    assert r.score() == [0, 5 + 6 + 15, 5 + 6, 5 + 6 + 15, 12, 12, 12, 2]


def test_ft8_points_withholding_costs_three_on_top_and_the_winner_writes_zero():
    """FT-8 points: +3 per withholding pass on top of the pass's own point; the winner,
    who withheld 8D once, still writes 0 (FT-7)."""
    r = S.play(S.A_HANDS, S.A_MOVES, stakes="points")
    assert r.score() == [0, 6 + 6 + 18, 12, 12, 6 + 7 + 18, 13, 6 + 7 + 18, 1]


def _a_with_seat7_withholding_6d() -> list[tuple[int, str]]:
    """Scenario A's script, but seat 7 passes once holding the playable 6D (not a 7)."""
    down = iter(S.DIAMONDS_DOWN)
    plays = ["7D", "pass", "8D", "9D", "10D", "JD", "QD"]
    moves: list[tuple[int, str]] = []
    for turn, own in enumerate(plays):
        moves.append((0, own))
        if turn == len(plays) - 1:
            break
        for seat in range(1, S.PLAYERS):
            moves.append((seat, ("pass" if turn == 0 else next(down)) if seat == 7 else "pass"))
    return moves


@pytest.mark.parametrize(("stakes", "seat7", "winner"), [("points", 1 + 2 + 3, 0),
                                                         ("chips", -(1 + 1 + 3) - 2,
                                                          -6 + 110 + 41)])
def test_ft8_withholding_a_card_that_is_not_a_seven_is_fined_too(stakes, seat7, winner):
    """FT-8: *every* pass made while holding a legal card is fined, not only a withheld 7.

    Scenario A with one change: on its first turn seat 7 passes holding 6D, which fits
    under 7D, then plays the diamonds down one turn late (5 plays, AD and KD left).
    Points: seat 7 writes 1 pass + 2 cards + 3 fine = 6. Chips: seat 7 antes 1, puts in
    1 for the pass and 3 for the fine, and pays the winner 2 for its cards; the pot is
    scenario A's 106 plus that pass and fine (110), and the winner takes 40 + 1 chips for
    cards left; no 7 was withheld by seat 7, so no 5-chip payments.
    """
    r = S.play(S.A_HANDS, _a_with_seat7_withholding_6d(), stakes=stakes)
    assert r.is_over and r.winner == 0
    score = r.score()
    assert score[7] == seat7
    assert score[0] == (0 if stakes == "points" else winner)


def test_ft8_withholding_fines_exist_only_when_strict_is_false():
    """FT-8, FT-5: under ``strict: true`` the withholding passes of scenario A are illegal."""
    r = FANTAN.new_round(S.rules(strict=True), 8, 3, S.deck(S.A_HANDS))
    r.apply(C("7D"))
    with pytest.raises(IllegalMove, match="7H"):
        r.apply(PASS)


def test_ft7_ft8_chips_antes_passes_cards_and_fines_by_hand():
    """FT-7 chips and FT-8 fines, scenario A, every number by hand.

    Antes: seats 0-3 were dealt 6 cards (fewer than 7) and ante 2; seats 4-7 ante 1.
    Pot = antes + passes + 3 per withholding = 6+26+8+8+25+7+25+1 = 106, to the winner.
    Cards left pay the winner 6+6+6+7+7+7+1 = 40. Fines for withheld 7s: seat 1 (7H)
    pays 5 to seat 2 (6H) and 5 to seat 3 (8H), six times; seat 4 (7S) holds 6S itself,
    so only seat 5 (8S) gets 5, six times; seat 6 holds 6C and 8C: nothing moves.
    The winner's own 3-chip fine goes into the pot it takes back.
    """
    r = S.play(S.A_HANDS, S.A_MOVES, stakes="chips")
    assert r.score() == [
        -6 + 106 + 40,        # winner: ante 2, 1 pass, 3 fine; takes pot and cards
        -26 - 6 - 60,         # 7H withheld six times
        -8 - 6 + 30,          # holder of 6H
        -8 - 6 + 30,          # holder of 8H
        -25 - 7 - 30,         # 7S withheld, offender holds 6S
        -7 - 7 + 30,          # holder of 8S
        -25 - 7,              # 7C withheld, offender holds 6C and 8C
        -1 - 1,               # played every turn
    ]


@pytest.mark.parametrize("hands_moves", [(S.A_HANDS, S.A_MOVES), (S.B_HANDS, S.B_MOVES)])
def test_ft7_chips_are_conserved(hands_moves):
    """FT-7: chips are conserved, a round's deltas sum to 0, fines included."""
    assert sum(S.play(*hands_moves, stakes="chips").score()) == 0


def test_ft8_winner_own_fine_comes_back():
    """FT-8 chips: the winner's own 3-chip fine returns with the pot: scenario A's winner
    nets exactly what it would without paying the fine."""
    r = S.play(S.A_HANDS, S.A_MOVES, stakes="chips")
    paid_in_without_own_fine = 2 + 1
    pot_without_own_fine = 106 - 3
    assert r.score()[0] == -paid_in_without_own_fine + pot_without_own_fine + 40


def test_ft8_fine_holders_are_fixed_at_the_pass():
    """FT-8: the 6 and 8 holders of a withheld 7 are taken as at that pass."""
    r = S.play(S.A_HANDS, S.A_MOVES[:2], stakes="chips")
    (w,) = r.withholdings
    assert (w.seat, w.sevens) == (1, ((C("7H"), 2, 3),))


def test_ft10_view_shows_own_hand_table_counts_and_passes_only():
    """FT-10: everything on the table and every pass is public; a player sees only their
    own hand and the number of cards in every other hand."""
    r = new_round(4, 3, NARRATIVE)
    for m in ("7D", "8D", "7C"):
        r.apply(C(m))
    r.apply(PASS)
    v = r.view(1)
    assert v.hand == r.hand(1) and v.table == r.table
    assert v.hand_counts == (12, 12, 12, 13) and v.passes == (0, 0, 0, 1)
    assert v.legal == ()  # not seat 1's turn
    j = v.to_json()
    others = r.hand(0) | r.hand(2) | r.hand(3)
    text = repr(j)
    for c in cards.iter_cards(others):
        assert f"'{cards.code(c)}'" not in text
    assert j["moves"][-1] == {"seat": 3, "pass": True}
    assert j["rows"]["D"] == ["7D", "8D"] and j["rows"]["C"] == ["7C"]
    assert r.view(0).legal == tuple(r.legal_moves())


def test_moves_outside_the_game_are_refused_with_reasons():
    r = new_round(4, 3, NARRATIVE)
    assert "not in seat 0's hand" in r.why_illegal(C("8D"))
    assert "not a Fan Tan move" in r.why_illegal(99)
    assert "not a Fan Tan move" in r.why_illegal(-1)
    assert "not a Fan Tan move" in r.why_illegal(True)


def test_move_json_round_trip_and_strict_parsing():
    assert FANTAN.move_to_json(PASS) == {"pass": True}
    assert FANTAN.move_to_json(C("10H")) == {"play": "10H"}
    assert FANTAN.move_from_json({"play": "10H"}) == C("10H")
    assert FANTAN.move_from_json({"pass": True}) == PASS
    for bad in ({"pass": 1}, {"pass": False}, {"play": "TH"}, {"play": "7D", "pass": True},
                {}, {"play": "7D", "take": []}):
        with pytest.raises(ValueError):
            FANTAN.move_from_json(bad)
    assert FANTAN.format_move(PASS) == "pass"
    assert FANTAN.format_move(C("7D")) == "play 7D"


def test_ft1_hand_sizes_table_in_docs_matches_the_deal():
    """FT-1: the hand sizes listed in docs/rules.md are the engine's, from the seat after
    the dealer."""
    from pathlib import Path

    text = (Path(__file__).resolve().parents[3] / "docs" / "rules.md").read_text("utf-8")
    rows = dict(re.findall(r"^\| (\d) \| ([\d, ]+?)(?: each)? \|$", text, flags=re.M))
    assert set(rows) == {str(n) for n in range(3, 9)}
    for n in range(3, 9):
        r = FANTAN.new_round(FANTAN.rules(n), n, n - 1, range(52))
        sizes = [r.hand(s).bit_count() for s in range(n)]
        listed = [int(x) for x in rows[str(n)].split(", ")]
        assert sizes == (listed if len(listed) == n else listed * n)
