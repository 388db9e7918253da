"""Fanti's itemised round score (FA-8, FA-9), from hand-built piles and a played round.

Expected values are worked out here from FA-9: +2 most cards, +1 most Leaf (clubs)
cards, +1 Leaf 2 (2C), +1 Star 10 (10D); a tie for most gives nobody the bonus under
``ties: none`` and every tied player the bonus under ``ties: shared``.
"""

from __future__ import annotations

import random

import pytest

from deal_helpers import masks, worded
from parlour import cards
from parlour.games.fanti.rules import FANTI, LEAVES, FantiRound


def ended(piles: list[int], ties: str, table: int = 0, last: int = -1) -> FantiRound:
    """A round set directly to its end with these piles (as FA-8 leaves them)."""
    players = len(piles)
    r = FANTI.new_round(FANTI.rules(players, {"ties": ties}), players, 0, range(52))
    r.hands = [0] * players
    r.piles = list(piles)
    r.table = table
    r.last_collector = last
    r.dealt = 52
    r.is_over = True
    return r


def items(detail: dict, seat: int) -> dict[str, tuple[str, int]]:
    return {i["what"]: (i["detail"], i["points"]) for i in detail["seats"][seat]["items"]}


# Two players, 26 cards each: seat 0 has 5 Leaf cards and Star 10, seat 1 has the
# other 8 Leaf cards, Leaf 2 among them.
CLUBS = [cards.card(r, cards.CLUBS) for r in range(13)]
SEAT0_CLUBS = cards.mask_of(CLUBS[2:7])                     # 3C..7C: 5 Leaf cards
SEAT1_CLUBS = LEAVES & ~SEAT0_CLUBS                          # AC, 2C, 8C..KC: 8
TIE_26_0 = SEAT0_CLUBS | masks("10D") | cards.mask_of(range(13 + 10, 13 + 13)) \
    | cards.mask_of(range(26, 26 + 13)) | cards.mask_of(range(39, 39 + 4))
TIE_26_1 = cards.FULL_DECK & ~TIE_26_0


def test_the_hand_built_piles_are_a_26_26_split():
    assert TIE_26_0.bit_count() == 26 and TIE_26_1.bit_count() == 26
    assert (TIE_26_0 & LEAVES).bit_count() == 5 and TIE_26_1 >> cards.from_code("2C") & 1


@pytest.mark.parametrize(("ties", "totals", "tie_words"), [
    ("none", [1, 2], "nobody scores"),     # seat 0: Star 10; seat 1: most Leaf, Leaf 2
    ("shared", [3, 4], "each scores 2"),   # and +2 each for the shared most cards
])
def test_fa9_26_26_cards_tie_under_both_tie_rules(ties, totals, tie_words):
    """FA-9: 26 cards each is a tie for most cards; the note says which rule applied."""
    d = worded(ended([TIE_26_0, TIE_26_1], ties))
    assert [e["total"] for e in d["seats"]] == totals
    (note,) = d["notes"]
    assert note["rule"] == "FA-9" and note["seats"] == [0, 1]
    assert note["text"].startswith("Most cards: 26 each for Seat 0 and Seat 1")
    assert tie_words in note["text"]
    seat0, seat1 = items(d, 0), items(d, 1)
    card_item = "Most cards" if ties == "shared" else "Cards"
    assert seat0[card_item][1] == seat1[card_item][1] == (2 if ties == "shared" else 0)
    assert seat0[card_item][0].startswith("26 cards")
    assert seat0["Leaf cards"] == ("5 Leaf cards", 0)
    assert seat1["Most Leaf cards"] == ("8 Leaf cards", 1)
    assert seat0["Star 10"] == ("collected", 1) and "Leaf 2" not in seat0
    assert seat1["Leaf 2"] == ("collected", 1) and "Star 10" not in seat1


# Three players: Leaf 5-5-3; cards 20, 16, 16; seat 2 holds Leaf 2 and Star 10.
LEAF5_0 = cards.mask_of(CLUBS[2:7]) | cards.mask_of(range(13, 13 + 13)) | masks("AH", "2H")
LEAF5_1 = cards.mask_of(CLUBS[7:12]) | cards.mask_of(range(28, 28 + 11))
LEAF5_2 = cards.FULL_DECK & ~(LEAF5_0 | LEAF5_1)


def test_the_leaf_tie_piles_are_as_described():
    counts = [p.bit_count() for p in (LEAF5_0, LEAF5_1, LEAF5_2)]
    leaves = [(p & LEAVES).bit_count() for p in (LEAF5_0, LEAF5_1, LEAF5_2)]
    assert counts == [20, 16, 16] and leaves == [5, 5, 3]
    assert LEAF5_0 >> cards.from_code("10D") & 1 and LEAF5_2 >> cards.from_code("2C") & 1


@pytest.mark.parametrize(("ties", "totals"), [
    ("none", [2 + 1, 0, 1]),       # seat 0: most cards, Star 10; seat 2: Leaf 2
    ("shared", [2 + 1 + 1, 1, 1]),  # and the Leaf bonus to both seats 0 and 1
])
def test_fa9_5_5_leaf_tie_under_both_tie_rules(ties, totals):
    """FA-9: a 5-5 tie for most Leaf cards scores nobody (``none``) or both (``shared``)."""
    d = worded(ended([LEAF5_0, LEAF5_1, LEAF5_2], ties))
    assert [e["total"] for e in d["seats"]] == totals
    (note,) = d["notes"]
    assert note["seats"] == [0, 1] and note["rule"] == "FA-9"
    assert note["text"].startswith("Most Leaf cards: 5 each for Seat 0 and Seat 1")
    assert items(d, 0)["Most cards"] == ("20 cards", 2)
    assert items(d, 2)["Leaf 2"] == ("collected", 1)
    assert d["seats"][0]["pile"] == cards.codes(LEAF5_0)


def test_fa8_nobody_collected_the_table_goes_to_nobody():
    """FA-8: with no collection all round, the table's cards go to nobody, and a tie of
    0 cards each scores nobody (FA-9, ``none``)."""
    r = ended([0, 0], "none", table=masks("2C", "5H"), last=-1)
    d = worded(r)
    assert [e["total"] for e in d["seats"]] == [0, 0]
    fa8 = [n for n in d["notes"] if n["rule"] == "FA-8"]
    assert [{k: n[k] for k in ("text", "rule", "seats")} for n in fa8] == [
        {"text": "Nobody collected this round: the 2 cards on the table "
                 "(Leaf 2, Hearts 5) go to nobody", "rule": "FA-8", "seats": []}]


@pytest.mark.parametrize("seed", range(12))
def test_fa8_leftovers_note_names_the_cards_left_after_the_last_move(seed):
    """FA-8: the note lists exactly the cards on the table after the last move, and the
    seat that made the last collection (tracked here move by move)."""
    rng = random.Random(seed)
    players = 2 + seed % 3
    deck = list(range(52))
    rng.shuffle(deck)
    r = FANTI.new_round(FANTI.rules(players), players, 0, deck)
    last = -1
    while True:
        move = rng.choice(r.legal_moves())
        seat, table = r.current_player, r.table
        take, card = move >> 6, move & 63
        left = table & ~take if take else table | 1 << card
        if take:
            last = seat
        r.apply(move)
        if r.is_over:
            break
    d = worded(r)
    fa8 = [n for n in d["notes"] if n["rule"] == "FA-8"]
    if not left:
        assert fa8 == []
        return
    (note,) = fa8
    names = ", ".join(FANTI.card_name(c) for c in cards.cards_of(left))
    assert f"({names})" in note["text"]
    assert note["seats"] == ([last] if last >= 0 else [])
    if last >= 0:
        assert f"to Seat {last}, who collected last" in note["text"]
    assert r.leftovers() == left


def test_no_detail_while_the_round_is_in_play():
    r = FANTI.new_round(FANTI.rules(2), 2, 0, range(52))
    assert r.score_detail() is None
