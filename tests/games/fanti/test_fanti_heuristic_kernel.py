"""The compiled Fanti heuristic (parlour.games.fanti.heuristic_kernel) against the Python
one (parlour.games.fanti.heuristic), the reference: the same move on every position,
so the searches that use it answer every other seat exactly as ``heuristic`` would."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from parlour import cards
from parlour.bots import make_bot
from parlour.games import get_game
from parlour.games.fanti import heuristic
from parlour.games.fanti import heuristic_kernel as hk
from parlour.games.fanti.heuristic_kernel import heuristic_move
from parlour.games.fanti.search import heuristic_choice


def python_move(hand: int, table: int, seen: int, next_hand: int, deck_left: int,
                gtg: bool) -> tuple[int, int]:
    return heuristic.choice(hand, table, seen | hand, next_hand, deck_left, gtg)


@st.composite
def positions(draw: st.DrawFn) -> tuple[int, int, int, int, int, bool]:
    order = draw(st.permutations(range(52)))
    h = draw(st.integers(1, 4))
    t = draw(st.integers(0, 16))
    p = draw(st.integers(0, 52 - h - t))
    hand = cards.mask_of(order[:h])
    table = cards.mask_of(order[h:h + t])
    seen = table | cards.mask_of(order[h + t:h + t + p])  # the table and some piles
    return (hand, table, seen, draw(st.integers(0, 4)), draw(st.sampled_from([0, 4, 12, 32])),
            draw(st.booleans()))


@given(positions())
@settings(max_examples=400, deadline=None)
def test_the_compiled_heuristic_makes_the_python_heuristics_move(pos) -> None:
    """Same move (card and collection) and the same number of legal moves, FA-5/FA-6
    (what a card may collect), FA-8 (the last collector's bonus with the deck empty)."""
    hand, table, seen, next_hand, deck_left, gtg = pos
    assert heuristic_move(hand, table, seen | hand, next_hand, deck_left, gtg) == \
        python_move(hand, table, seen, next_hand, deck_left, gtg)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_position_of_seeded_heuristic_games_gets_the_same_move(players: int) -> None:
    """Every position met in whole rounds (heuristic and random players, so the tables
    grow large and the deck empties): the search's memoised choice, the compiled move
    and the Python move agree."""
    game = get_game("fanti")
    for gtg in (True, False):
        rules = game.rules(players, {"rounds": 1, "guardian_takes_guardians": gtg})
        for k in range(6):
            rng = random.Random(100 * players + k)
            deck = list(range(52))
            rng.shuffle(deck)
            r = game.new_round(rules, players, k % players, deck)
            bots = [make_bot("heuristic" if (s + k) % 2 else "random", "fanti", k * 7 + s)
                    for s in range(players)]
            while not r.is_over:
                v = r.view(r.current_player)
                seen = heuristic.view_seen(v) & ~v.hand
                nxt = v.hand_counts[(v.seat + 1) % players]
                want = python_move(v.hand, v.table, seen, nxt, v.deck_left, gtg)
                assert heuristic_move(v.hand, v.table, seen | v.hand, nxt, v.deck_left,
                                      gtg) == want
                assert heuristic_choice(v.hand, v.table, seen, nxt, v.deck_left, gtg) == want
                r.apply(bots[v.seat].choose(v))


def test_ties_in_the_gift_risk_weigh_more_cards_out_first_to_the_last_bit() -> None:
    """A table where several ranks' best collections are worth the same: the compiled
    sum adds them in the Python order (most cards out first), so the scores that decide
    between near-equal moves are equal to the last bit."""
    table = cards.mask_from_codes(["5C", "5D", "4H", "3S", "2D"])
    out = cards.FULL_DECK & ~table & ~cards.mask_from_codes(["6C", "6D", "7H"])

    cs, cnt = np.zeros(52, np.int64), np.zeros((53, 11), np.int64)
    nv = hk.count_table(np.uint64(table) & hk.VALUED_U, cs, cnt)
    got = hk.gift_risk(np.uint64(table), np.uint64(out), 4, True, cs, cnt, nv,
                       np.zeros(13), np.zeros(13, np.int64))
    assert got == heuristic.gift_risk(table, out, 4, True)
    assert got > 0.0
