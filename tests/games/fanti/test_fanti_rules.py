"""Fanti rules engine against the seed text and RULINGS FA-2 .. FA-9 (FA-1 names: test_cards;
FA-10 matches: test_match).

Tables and hands are dealt from decks built with ``deal_helpers.fanti_deck`` (FA-3).
In most tests seat 0 deals, so seat 1 moves first (FA-4).
"""

from __future__ import annotations

import random

import pytest

from deal_helpers import fanti_deck, masks
from parlour import cards
from parlour.game import IllegalMove, move_card, move_take, play
from parlour.games.fanti.rules import FANTI, VALUE, FantiRound, collections, score_piles

C = cards.from_code


def deal(table: list[str], hand: list[str], players: int = 2, gtg: bool = True,
         ties: str = "none") -> FantiRound:
    """A round where seat 1 (first to move, seat 0 deals) holds ``hand``."""
    rules = FANTI.rules(players, {"guardian_takes_guardians": gtg, "ties": ties})
    return FANTI.new_round(rules, players, 0, fanti_deck(players, 0, table, [{1: hand}]))


def choices(r: FantiRound, code: str) -> list[list[str]]:
    """Every legal way to play ``code`` now, as sorted lists of the cards it takes."""
    c = C(code)
    return sorted(sorted(cards.codes(move_take(m))) for m in r.legal_moves()
                  if move_card(m) == c)


def state(r: FantiRound) -> tuple:
    return (list(r.hands), r.table, list(r.piles), r.dealt, r.turn, r.last_collector,
            r.over, list(r.history))


# --- players, values, deal, turns (FA-2, FA-3, FA-4) ------------------------------------


@pytest.mark.parametrize("players", [1, 5])
def test_fa2_two_to_four_players(players):
    """FA-2: Fanti takes 2 to 4 players."""
    with pytest.raises(ValueError, match="2 to 4 players"):
        FANTI.rules(players)


def test_fa2_values_ace_one_numbers_face_pictures_none():
    """FA-2: A = 1, 2..10 face value, J Q K no value."""
    for c in range(52):
        r = cards.rank_of(c)
        assert VALUE[c] == (r + 1 if r <= 9 else 0)
    # a King and a Queen on the table never count towards 11
    assert collections(C("AH"), masks("KC", "QD", "JS")) == []
    assert collections(C("10H"), masks("KC", "QD", "AS")) == [masks("AS")]


def table_after(table: int, move: int) -> int:
    """The table after ``move``: its take removed, or its card added when it takes nothing."""
    take = move_take(move)
    return table & ~take if take else table | cards.bit(move_card(move))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_fa3_deal_table_first_then_one_at_a_time_from_after_the_dealer(players):
    """FA-3: the first 4 cards go face up to the table, then 4 to each seat one at a time
    from the seat after the dealer; when every hand is empty, 4 more each the same way
    and nothing to the table; 48 cards make 6, 4 or 3 deals."""
    deck = list(range(52))
    random.Random(players).shuffle(deck)
    dealer = players - 1
    r = FANTI.new_round(FANTI.rules(players), players, dealer, deck)
    assert r.table == cards.mask_of(deck[:4])
    rng, deals, start = random.Random(0), 0, 4
    while True:
        if r.dealt == start + 4 * players:  # a deal just happened
            deals += 1
            for i in range(4 * players):
                assert r.hand((dealer + 1 + i) % players) >> deck[start + i] & 1
            assert all(r.hand(s).bit_count() == 4 for s in range(players))
            start = r.dealt
        if r.is_over:
            break
        m = rng.choice(r.legal_moves())
        expected_table = table_after(r.table, m)
        r.apply(m)
        if not r.is_over:
            assert r.table == expected_table
    assert deals == 48 // (4 * players)


def test_fa4_seat_after_dealer_plays_first_and_turns_continue_across_redeals():
    """FA-4: the seat after the dealer starts; turns go clockwise straight across redeals."""
    deck = list(range(52))
    random.Random(5).shuffle(deck)
    r = FANTI.new_round(FANTI.rules(3), 3, 1, deck)
    rng = random.Random(1)
    for k in range(48):
        assert r.current_player == (2 + k) % 3
        r.apply(rng.choice(r.legal_moves()))
    assert r.is_over and r.current_player == -1


def test_fa4_no_pass_in_fanti():
    """FA-4: a turn is exactly one card from the hand; there is no pass."""
    r = deal(["2C", "3D", "5H", "8S"], ["6H", "KD", "QC", "4C"])
    assert "no pass" in r.why_illegal(52)


# --- what a card collects (FA-5) and the choice (FA-6) ------------------------------------


def test_fa5_fa6_number_card_several_sets_player_chooses():
    """FA-5, FA-6: 6H on 2C 3D 5H 8S can take 5H or 2C+3D; the player picks exactly one."""
    r = deal(["2C", "3D", "5H", "8S"], ["6H", "KD", "QC", "4C"])
    assert choices(r, "6H") == [["2C", "3D"], ["5H"]]
    r.apply(play(C("6H"), masks("2C", "3D")))
    assert r.piles[1] == masks("6H", "2C", "3D")  # FA-7: played card goes with them
    assert r.table == masks("5H", "8S")
    assert r.last_collector == 1


def test_fa5_three_card_set_and_exactness():
    """FA-5: a set makes exactly 11 with the played card, never more or less."""
    r = deal(["AC", "2D", "3H", "9S"], ["5H", "KD", "QC", "JC"])
    # 5 needs 6: A+2+3; 9 alone is too much, 2+3 too little
    assert choices(r, "5H") == [["2D", "3H", "AC"]]


def test_fa6_same_ranks_different_suits_are_different_choices():
    """FA-6: two sets with the same ranks but different suits are different choices."""
    r = deal(["5H", "5S", "2C", "9D"], ["6C", "KD", "QC", "4C"])
    assert choices(r, "6C") == [["5H"], ["5S"]]
    r2 = deal(["5H", "5S", "AC", "AD"], ["10C", "KD", "QC", "4C"])
    assert choices(r2, "10C") == [["AC"], ["AD"]]


def test_fa5_ace_takes_an_ace_or_a_set_summing_to_ten():
    """FA-5: an Ace takes one Ace from the table, or a set whose values sum to 10."""
    r = deal(["AH", "9S", "6C", "4D"], ["AC", "KD", "QC", "JC"])
    assert choices(r, "AC") == [["4D", "6C"], ["9S", "AH"], ["AH"]]
    r2 = deal(["AH", "AS", "10C", "KD"], ["AC", "KS", "QC", "JC"])
    assert choices(r2, "AC") == [["10C"], ["AH"], ["AS"]]


@pytest.mark.parametrize(("played", "same"), [("KC", "K"), ("QC", "Q")])
def test_fa5_scout_and_mystic_take_only_their_own_rank(played, same):
    """FA-5: a Scout (K) takes exactly one Scout, a Mystic (Q) one Mystic; else discard."""
    with_match = deal([f"{same}H", f"{same}S", "5C", "JD"], [played, "2D", "3D", "4D"])
    assert choices(with_match, played) == [[f"{same}H"], [f"{same}S"]]
    other = "Q" if same == "K" else "K"
    without = deal([f"{other}H", "5S", "6C", "JD"], [played, "2D", "3D", "4D"])
    assert choices(without, played) == [[]]  # discarded onto the table (FA-6)
    without.apply(play(C(played)))
    assert without.table == masks(f"{other}H", "5S", "6C", "JD", played)
    assert without.piles == [0, 0] and without.last_collector == -1


@pytest.mark.parametrize("gtg", [True, False])
def test_fa5_guardian_sweeps_all_but_scouts_and_mystics(gtg):
    """FA-5 ``guardian_takes_guardians``: a Guardian takes every table card but Scouts and
    Mystics in one move, Guardians too when true, and leaves Guardians when false."""
    r = deal(["KH", "QS", "JD", "2C"], ["JC", "2D", "3D", "4D"], gtg=gtg)
    assert choices(r, "JC") == ([["2C", "JD"]] if gtg else [["2C"]])
    r.apply(play(C("JC"), masks("2C", "JD") if gtg else masks("2C")))
    assert r.table == (masks("KH", "QS") if gtg else masks("KH", "QS", "JD"))
    numbers = deal(["AH", "10S", "5C", "KD"], ["JC", "2D", "3D", "4D"], gtg=gtg)
    assert choices(numbers, "JC") == [["10S", "5C", "AH"]]


@pytest.mark.parametrize("gtg", [True, False])
def test_fa5_guardian_on_scouts_mystics_and_guardians(gtg):
    """FA-5: on a table of Scouts, Mystics and Guardians only, the Guardian takes the
    Guardians (``true``) or nothing at all (``false``: it is discarded)."""
    r = deal(["KH", "QS", "JD", "JS"], ["JC", "2D", "3D", "4D"], gtg=gtg)
    assert choices(r, "JC") == ([["JD", "JS"]] if gtg else [[]])


def test_fa5_guardian_on_a_table_of_only_scouts_and_mystics_takes_nothing():
    """FA-5: if the sweep is no card at all, the Guardian takes nothing: it is discarded."""
    for gtg in (True, False):
        r = deal(["KH", "QS", "KD", "QC"], ["JC", "2D", "3D", "4D"], gtg=gtg)
        assert choices(r, "JC") == [[]]
        r.apply(play(C("JC")))
        assert r.table == masks("KH", "QS", "KD", "QC", "JC")
        assert r.last_collector == -1


def test_fa5_collections_function_lists_every_way():
    """FA-5: ``collections`` is the list the engine offers (a 4 here has two ways)."""
    table = masks("7C", "7D", "3S", "4H")
    assert sorted(collections(C("4S"), table)) == sorted([masks("7C"), masks("7D"),
                                                           masks("3S", "4H")])


def test_fa6_collecting_is_compulsory_a_discard_is_refused():
    """FA-6: a card that can collect must collect; its discard is refused, nothing changes."""
    r = deal(["2C", "3D", "5H", "8S"], ["6H", "KD", "QC", "4C"])
    before = state(r)
    reason = r.why_illegal(play(C("6H")))
    assert "must (FA-6)" in reason and "5H" in reason and "2C+3D" in reason
    with pytest.raises(IllegalMove, match="FA-6"):
        r.apply(play(C("6H")))
    assert state(r) == before


def test_fa6_only_one_exact_collection_at_a_time():
    """FA-6: a take that is not exactly one legal collection is refused."""
    r = deal(["2C", "3D", "5H", "8S"], ["6H", "KD", "QC", "4C"])
    before = state(r)
    for bad in (masks("2C", "3D", "5H"), masks("2C"), masks("8S"), masks("9S")):
        assert r.why_illegal(play(C("6H"), bad)) is not None
        with pytest.raises(IllegalMove):
            r.apply(play(C("6H"), bad))
    assert "not on the table" in r.why_illegal(play(C("6H"), masks("9S")))
    assert "not a collection" in r.why_illegal(play(C("6H"), masks("2C")))
    assert "collects nothing" in r.why_illegal(play(C("KD"), masks("8S")))
    assert "not in seat 1's hand" in r.why_illegal(play(C("9H")))
    for junk in (play(C("6H"), 1 << 60), -1, True, 2**80):
        assert r.why_illegal(junk) == "not a Fanti move"
    assert state(r) == before


def test_fa7_collected_piles_are_public_in_every_view():
    """FA-7: the played card and what it collects go to the player's pile, seen by all."""
    r = deal(["2C", "3D", "5H", "8S"], ["6H", "KD", "QC", "4C"])
    r.apply(play(C("6H"), masks("5H")))
    for seat in (0, 1):
        v = r.view(seat)
        assert v.piles[1] == masks("6H", "5H")
        assert v.to_json()["piles"][1] == ["5H", "6H"]
        assert v.hand == r.hand(seat)
    other_hand = r.hand(1)
    text = repr(r.view(0).to_json())
    for c in cards.iter_cards(other_hand):
        assert f"'{cards.code(c)}'" not in text


# --- end of round (FA-8) and scoring (FA-9) -------------------------------------------------


def play_out(r: FantiRound, seed: int) -> list[tuple[int, int]]:
    rng = random.Random(seed)
    while not r.is_over:
        r.apply(rng.choice(r.legal_moves()))
    return r.history


@pytest.mark.parametrize("seed", range(6))
def test_fa8_leftovers_go_to_the_last_collector(seed):
    """FA-8: the round ends when deck and hands are empty; table cards go to whoever made
    the last collection of the round."""
    players = 2 + seed % 3
    deck = list(range(52))
    random.Random(seed).shuffle(deck)
    r = FANTI.new_round(FANTI.rules(players), players, 0, deck)
    rng = random.Random(seed)
    while r.dealt < 52 or sum(h.bit_count() for h in r.hands) > 1:
        r.apply(rng.choice(r.legal_moves()))
    last_move = rng.choice(r.legal_moves())
    take = move_take(last_move)
    collector = r.current_player if take else r.last_collector
    assert collector >= 0  # somebody always collects (see the next test)
    expected = r.piles[collector] | table_after(r.table, last_move)
    if take:
        expected |= take | cards.bit(move_card(last_move))
    r.apply(last_move)
    assert r.is_over and r.table == 0
    assert r.piles[collector] == expected
    assert sum(p.bit_count() for p in r.piles) == 52


def test_fa8_leftovers_go_to_nobody_when_nobody_collected():
    """FA-8: if nobody collected all round, the table cards go to nobody.

    With a full deck this cannot happen (all four Scouts are played or on the table, and
    the second one to arrive must take the first), so the state before the last play is
    set directly: every hand empty but one card that collects nothing.
    """
    r = deal(["KH", "QS", "KD", "QC"], ["JC", "2D", "3D", "4D"])
    r.hands = [0, masks("5C")]
    r.table = masks("KH", "QS", "7D")
    r.dealt, r.turn, r._legal = 52, 1, None
    r.apply(play(C("5C")))
    assert r.is_over
    assert r.piles == [0, 0] and r.table == masks("KH", "QS", "7D", "5C")
    assert r.score() == [0, 0]  # nobody has "most" of anything


def test_fa9_scoring_most_cards_most_leaves_2c_10d():
    """FA-9: +2 most cards, +1 most Leaf (clubs), +1 for 2C, +1 for 10D; all add up."""
    piles = [masks("2C", "10D", "3C", "4C", "5H"), masks("6H", "7H"), masks("KS")]
    assert score_piles(piles, shared_ties=False) == [2 + 1 + 1 + 1, 0, 0]
    piles = [masks("2H", "3H", "4H"), masks("2C", "3C"), masks("10D")]
    assert score_piles(piles, shared_ties=False) == [2, 1 + 1, 1]


@pytest.mark.parametrize(("shared", "expected"), [(False, [0, 0, 1]), (True, [2, 2, 1])])
def test_fa9_ties_none_or_shared_for_most_cards(shared, expected):
    """FA-9 ``ties``: a tie for most cards gives the +2 to nobody (``none``) or to every
    tied player (``shared``)."""
    piles = [masks("2H", "3H", "4H"), masks("5H", "6H", "7H"), masks("8C")]
    assert score_piles(piles, shared_ties=shared) == expected


@pytest.mark.parametrize(("shared", "expected"), [(False, [2, 0, 0]), (True, [3, 1, 0])])
def test_fa9_ties_none_or_shared_for_most_leaves(shared, expected):
    """FA-9 ``ties``: a tie for most Leaf cards gives the +1 to nobody or to all tied."""
    piles = [masks("3C", "4H", "5H"), masks("6C", "7H"), masks("8H")]
    assert score_piles(piles, shared_ties=shared) == expected


@pytest.mark.parametrize(("ties", "expected"), [("none", [2, 1]), ("shared", [4, 3])])
def test_fa8_fa9_round_score_is_counted_on_the_final_piles(ties, expected):
    """FA-8 then FA-9: the last play collects 6H, so the cards left on the table (2D, KH)
    go to its player before the round is scored.

    Seat 0 collected 2C 3C 4C AH 8H 9H QD (7 cards, 3 Leaves, 2C); seat 1 10D 9S 7S, then
    5C+6H and the leftovers 2D KH (7 cards, 1 Leaf, 10D). Most cards is a 7-7 tie (+2 to
    nobody, or to both when shared); most Leaves +1 to seat 0; 2C +1 seat 0, 10D +1 seat 1.
    The state before the last play is set directly, as in the FA-8 test above.
    """
    r = deal(["KH", "QS", "KD", "QC"], ["JC", "2D", "3D", "4D"], ties=ties)
    r.hands = [0, masks("5C")]
    r.table = masks("6H", "2D", "KH")
    r.piles = [masks("2C", "3C", "4C", "AH", "8H", "9H", "QD"), masks("10D", "9S", "7S")]
    r.dealt, r.turn, r.last_collector, r._legal = 52, 1, 0, None
    assert r.score() is None
    assert r.legal_moves() == [play(C("5C"), masks("6H"))]  # FA-6: it must collect
    r.apply(play(C("5C"), masks("6H")))
    assert r.is_over and r.table == 0
    assert r.piles[1] == masks("10D", "9S", "7S", "5C", "6H", "2D", "KH")
    assert r.score() == expected


def test_move_json_round_trip_and_strict_parsing():
    m = play(C("6H"), masks("2C", "3D"))
    assert FANTI.move_to_json(m) == {"play": "6H", "take": ["2C", "3D"]}
    assert FANTI.move_from_json({"play": "6H", "take": ["3D", "2C"]}) == m
    assert FANTI.move_to_json(play(C("KD"))) == {"play": "KD", "take": []}
    for bad in ({"play": "6H"}, {"play": "6H", "take": "2C"}, {"play": "6H", "take": ["2C", "2C"]},
                {"play": "6H", "take": ["TH"]}, {"play": "6H", "take": [], "x": 1},
                {"pass": True}):
        with pytest.raises(ValueError):
            FANTI.move_from_json(bad)
    assert FANTI.format_move(m) == "play 6H take 2C+3D"
    assert FANTI.format_move(play(C("KD"))) == "play KD (discard)"


def test_legal_moves_list_belongs_to_the_caller():
    """Trimming the list ``legal_moves()`` returns does not change the round."""
    r = deal(["2C", "3D", "5H", "8S"], ["6H", "KD", "QC", "4C"])
    moves = r.legal_moves()
    n = len(moves)
    moves.clear()
    assert len(r.legal_moves()) == n
