"""The deal has one Python definition per game (the engine's) and one compiled copy.

FT-1/FT-4 (Fan Tan) and FA-3 (Fanti): the compiled ``deal`` of each kernel against the
engine's ``deal_seat``/``deal``/``leader``, and the engine's own hands against
``deal_seat``, over random decks, every dealer and every player count.
"""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from parlour import cards
from parlour.games.fantan import kernel as fantan_kernel
from parlour.games.fantan import rules as fantan_rules
from parlour.games.fanti import kernel as fanti_kernel
from parlour.games.fanti import rules as fanti_rules

decks = st.permutations(list(range(52)))


@settings(max_examples=60, deadline=None)
@given(deck=decks, players=st.integers(3, 8), dealer=st.integers(0, 7), any_seven=st.booleans())
def test_ft1_compiled_deal_is_the_engines(deck: list[int], players: int, dealer: int,
                                          any_seven: bool) -> None:
    """FT-1, FT-4: same hands and same leader from the compiled deal and the engine."""
    dealer %= players
    hands = np.zeros(8, np.uint64)
    lead = fantan_kernel.deal(np.array(deck, np.int64), hands, players, dealer, any_seven)
    expected = fantan_rules.deal(deck, players, dealer)
    assert [int(h) for h in hands[:players]] == expected
    assert lead == fantan_rules.leader(deck, players, dealer, any_seven)
    # the engine's hands are deal_seat's: position i goes to deal_seat(i)
    by_seat = [0] * players
    for i, c in enumerate(deck):
        by_seat[fantan_rules.deal_seat(players, dealer, i)] |= 1 << c
    assert by_seat == expected
    rnd = fantan_rules.FANTAN.new_round(fantan_rules.FANTAN.rules(
        players, {"opening": "any-seven" if any_seven else "seven-of-diamonds"}),
        players, dealer, deck)
    assert [rnd.hand(s) for s in range(players)] == expected
    assert rnd.current_player == lead


def test_ft1_worked_example() -> None:
    """FT-1 by hand: 4 players, dealer 3 -- the first card goes to seat 0, the second to 1."""
    assert [fantan_rules.deal_seat(4, 3, i) for i in range(6)] == [0, 1, 2, 3, 0, 1]
    hands = fantan_rules.deal(list(range(52)), 4, 3)
    assert hands[0] == cards.mask_of(range(0, 52, 4))


@settings(max_examples=60, deadline=None)
@given(deck=decks, players=st.integers(2, 4), dealer=st.integers(0, 3))
def test_fa3_compiled_deal_is_the_engines(deck: list[int], players: int, dealer: int) -> None:
    """FA-3: 4 cards to the table, then 4 each at a time; every deal of the round."""
    dealer %= players
    deck_a = np.array(deck, np.int64)
    hands = np.zeros(4, np.uint64)
    dealt = fanti_rules.TABLE_START
    while dealt < 52:
        hands[:] = 0
        start = dealt
        dealt = fanti_kernel.deal(deck_a, dealt, hands, players, dealer)
        expected = [0] * players
        for i in range(start, dealt):
            seat = fanti_rules.deal_seat(players, dealer, i)
            assert fanti_rules.deal_number(players, i) == (start - 4) // (4 * players)
            expected[seat] |= 1 << deck[i]
        assert [int(h) for h in hands[:players]] == expected
    assert [fanti_rules.deal_seat(players, dealer, i) for i in range(4)] == [-1] * 4
    rnd = fanti_rules.FANTI.new_round(fanti_rules.FANTI.rules(players), players, dealer, deck)
    first = [0] * players
    for i in range(4, 4 + 4 * players):
        first[fanti_rules.deal_seat(players, dealer, i)] |= 1 << deck[i]
    assert [rnd.hand(s) for s in range(players)] == first
