"""Fanti ``greedy``'s own rules (FA-5, FA-9): any collection before any discard, the
collection worth most among them, the cheapest card when it must discard."""

from __future__ import annotations

from helpers_bots import round_at
from hypothesis import given, settings
from hypothesis import strategies as st

from parlour.bots import make_bot
from parlour.game import move_take
from parlour.games.fanti.bots import capture_value, greedy_move
from parlour.games.fanti.rules import LEAVES, TEN_OF_DIAMONDS, TWO_OF_CLUBS

SPECIAL = {TWO_OF_CLUBS, TEN_OF_DIAMONDS}
PLAIN = [c for c in range(52) if not LEAVES >> c & 1 and c not in SPECIAL]
LEAF = [c for c in range(52) if LEAVES >> c & 1 and c not in SPECIAL]


def move(card: int, *taken: int) -> int:
    """A move as the engine writes it: the card, and the cards it takes from bit 6 on."""
    return card | sum(1 << t for t in taken) << 6


def test_a_collection_beats_every_discard():
    """The cheapest collection against the cheapest discard: greedy collects, whatever
    the order the moves come in (the survivor that only the vector env's agreement
    test caught, issue #34)."""
    take = move(PLAIN[0], PLAIN[1])
    for discard in (move(PLAIN[2]), move(LEAF[0]), move(TWO_OF_CLUBS)):
        assert greedy_move([discard, take]) == take
        assert greedy_move([take, discard]) == take


def test_the_collection_worth_most_now():
    one = move(PLAIN[0], PLAIN[1])
    two = move(PLAIN[2], PLAIN[3], PLAIN[4])
    assert greedy_move([one, two]) == two  # more cards (FA-9: most cards)
    leafy = move(PLAIN[5], LEAF[0])
    assert greedy_move([one, leafy]) == leafy  # a Leaf card counts more
    star = move(PLAIN[6], TEN_OF_DIAMONDS)
    assert greedy_move([leafy, star]) == star  # the 10D scores a point of its own
    assert capture_value(0, PLAIN[0]) < capture_value(0, LEAF[0])


def test_with_nothing_to_take_it_discards_the_cheapest_card():
    assert greedy_move([move(LEAF[0]), move(PLAIN[0])]) == move(PLAIN[0])
    assert greedy_move([move(TWO_OF_CLUBS), move(PLAIN[1])]) == move(PLAIN[1])
    assert greedy_move([move(TEN_OF_DIAMONDS), move(LEAF[1])]) == move(LEAF[1])


@settings(max_examples=40, deadline=None)
@given(players=st.integers(2, 4), seed=st.integers(0, 10**6), moves=st.integers(0, 40))
def test_in_play_greedy_collects_whenever_it_can(players, seed, moves):
    r = round_at("fanti", players, {}, seed, moves)
    if r.is_over:
        return
    view = r.view(r.current_player)
    chosen = make_bot("greedy", "fanti", seed).choose(view)
    assert chosen in view.legal
    if any(move_take(m) for m in view.legal):
        assert move_take(chosen)
