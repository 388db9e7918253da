"""Cards, codes, decks and shuffling (RULINGS C-1, C-2, C-3, FA-1)."""

from __future__ import annotations

import secrets

import pytest

from parlour import cards, get_game
from parlour.game import check_deck
from parlour.match import Shuffler, commitment


def test_c1_deck_has_52_cards_in_four_suits_of_thirteen_ranks_no_jokers():
    """C-1: 52 distinct canonical codes, A..K in C D H S, no jokers."""
    assert len(cards.ALL_CODES) == 52 == len(set(cards.ALL_CODES))
    assert cards.FULL_DECK.bit_count() == 52
    assert {c[-1] for c in cards.ALL_CODES} == set("CDHS")
    assert [c[:-1] for c in cards.ALL_CODES[:13]] == list(cards.RANKS)


@pytest.mark.parametrize(("code", "rank", "suit"), [
    ("AC", 0, 0), ("7D", 6, 1), ("10H", 9, 2), ("QS", 11, 3), ("KS", 12, 3),
])
def test_c1_canonical_codes_rank_then_suit(code, rank, suit):
    """C-1: a card is suit*13+rank and its code is rank then suit (``10H``, not ``TH``)."""
    c = cards.from_code(code)
    assert c == cards.card(rank, suit) == suit * 13 + rank
    assert (cards.rank_of(c), cards.suit_of(c)) == (rank, suit)
    assert cards.code(c) == code


@pytest.mark.parametrize("typed", ["10h", "Th", "t♥", "10♥", "T♥️", " 10H ", "10H"])
def test_c1_people_may_type_t_lower_case_and_suit_symbols(typed):
    """C-1: what a person types may use T, lower case and ♣ ♦ ♥ ♠ (with emoji selector)."""
    assert cards.code(cards.parse(typed)) == "10H"


@pytest.mark.parametrize("typed", ["", "1H", "11C", "7X", "10", "H10", "joker"])
def test_c1_parse_rejects_non_cards_with_a_hint(typed):
    """C-1: bad input gets a clear error telling how to write a card."""
    with pytest.raises(ValueError, match="rank then suit"):
        cards.parse(typed)


@pytest.mark.parametrize("bad", ["TH", "10h", "7d", "7♦", " 7D", 7, None, ["7D"]])
def test_c1_records_hold_canonical_codes_only(bad):
    """C-1: ``from_code`` (what records use) accepts only the canonical spelling."""
    with pytest.raises(ValueError, match="not a card code"):
        cards.from_code(bad)


def test_masks_round_trip_and_iterate_in_card_order():
    m = cards.mask_from_codes(["QS", "2C", "10D"])
    assert cards.codes(m) == ["2C", "10D", "QS"]
    assert cards.count(m) == 3
    assert list(cards.iter_cards(m)) == sorted(cards.from_code(c) for c in ["QS", "2C", "10D"])
    assert cards.mask_of(cards.cards_of(m)) == m
    assert cards.codes(0) == []


def test_c1_suit_masks_partition_the_deck():
    total = 0
    for s, m in enumerate(cards.SUIT_MASKS):
        assert total & m == 0
        total |= m
        assert {cards.code(c)[-1] for c in cards.iter_cards(m)} == {cards.SUITS[s]}
    assert total == cards.FULL_DECK


def test_c2_a_deal_must_be_a_permutation_of_the_52_cards():
    """C-2: a round is dealt from a full deck; anything else is refused."""
    assert check_deck(range(52)) == tuple(range(52))
    for bad in ([*range(51)], [*range(51), 0], [*range(52), 0]):
        with pytest.raises(ValueError, match="52 cards exactly once"):
            check_deck(bad)
    for name in ("fanti", "fantan"):
        g = get_game(name)
        with pytest.raises(ValueError, match="52 cards"):
            g.new_round(g.rules(4), 4, 0, [*range(51), 0])


def test_c3_seeded_shuffler_is_reproducible_and_seeds_differ():
    """C-3: simulations take an explicit seed and are reproducible bit for bit."""
    a, b, c = Shuffler(42), Shuffler(42), Shuffler(43)
    assert [a.seat(4), a.deck(), a.deck()] == [b.seat(4), b.deck(), b.deck()]
    assert Shuffler(42).deck() != c.deck()
    assert sorted(Shuffler(1).deck()) == list(range(52))


def test_c3_live_shuffler_uses_the_secrets_source():
    """C-3: live games shuffle with ``secrets`` (a cryptographic source)."""
    live = Shuffler.live()
    assert isinstance(live.rng, secrets.SystemRandom)
    d = live.deck()
    assert sorted(d) == list(range(52))


def test_commitment_is_sha256_of_salt_colon_codes():
    """RECORD.md deal commitment: sha256(salt + ":" + ",".join(codes))."""
    import hashlib

    deck = list(range(52))
    salt = "ab" * 16
    text = salt + ":" + ",".join(cards.ALL_CODES)
    assert commitment(deck, salt) == hashlib.sha256(text.encode()).hexdigest()
