"""The Fanti kernel's move enumeration against the step engine's ``collections`` (FA-5, FA-6)."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from parlour import cards
from parlour.games.fanti.kernel import legal_moves
from parlour.games.fanti.rules import collections


def step_moves(hand: int, table: int, gtg: bool) -> list[int]:
    out = []
    for c in cards.iter_cards(hand):
        out.extend(c | (t << 6) for t in collections(c, table, gtg) or [0])
    return out


def kernel_moves(hand: int, table: int, gtg: bool) -> list[int]:
    size = 20000
    cs, ts = np.zeros(size, np.int64), np.zeros(size, np.uint64)
    n = legal_moves(np.uint64(hand), np.uint64(table), gtg, cs, ts)
    assert n <= size
    return [int(c) | (int(t) << 6) for c, t in zip(cs[:n], ts[:n], strict=True)]


@st.composite
def positions(draw: st.DrawFn) -> tuple[int, int]:
    order = draw(st.permutations(range(52)))
    h = draw(st.integers(1, 4))
    t = draw(st.integers(0, 16))
    return cards.mask_of(order[:h]), cards.mask_of(order[h:h + t])


@given(positions(), st.booleans())
@settings(max_examples=300, deadline=None)
def test_kernel_lists_the_step_engines_moves_in_order(pos: tuple[int, int], gtg: bool) -> None:
    hand, table = pos
    assert kernel_moves(hand, table, gtg) == step_moves(hand, table, gtg)


def test_aces_merge_with_sets_making_ten() -> None:
    # an Ace on a table of AC AD 9C 4H 6S: sets 9C+AD, 4H+6S... and single Aces AC, AD
    table = cards.mask_from_codes(["AC", "AD", "9C", "9D", "4H", "6S", "AS"])
    hand = cards.mask_from_codes(["AH"])
    moves = kernel_moves(hand, table, True)
    assert moves == step_moves(hand, table, True)
    takes = [cards.codes(m >> 6) for m in moves]
    assert ["AC"] in takes and ["AD"] in takes and ["AS"] in takes
    assert ["AD", "9C"] in takes or ["9C", "AD"] in takes


def test_guardian_sweep_and_rule_option() -> None:
    table = cards.mask_from_codes(["JC", "KD", "5H", "QS"])
    hand = cards.mask_from_codes(["JH"])
    assert [cards.codes(m >> 6) for m in kernel_moves(hand, table, True)] == [["JC", "5H"]]
    assert [cards.codes(m >> 6) for m in kernel_moves(hand, table, False)] == [["5H"]]
