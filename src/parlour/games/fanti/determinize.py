"""Fanti determinizer: deal the unseen cards to the other hands and the undealt deck.

What a seat knows (FA-7): its own hand, the table, every collected pile, every hand's
size, how many cards are left to deal, and every move. The cards *out* are those in
none of these: they are in the other hands or still in the deck, and nothing in the
rules ties a particular card to a particular place, so a world shares them out
uniformly at random: each other seat gets its hand size, the rest form the undealt
deck in random order.

To build the starting round the deal is rebuilt from the history (FA-3): the first
four deck cards are the starting table (the current table with every move undone),
and deal ``d`` gave each seat the cards it played in moves ``4nd .. 4n(d+1)-1``
(each deal is played out completely before the next), plus, for the current deal,
the hand it holds now.
"""

from __future__ import annotations

import random
from typing import Any

from parlour import cards
from parlour.bots.determinize import deck_for_hands
from parlour.cards import Mask
from parlour.game import move_card, move_take
from parlour.games.fanti.rules import (
    FANTI,
    HAND_SIZE,
    TABLE_START,
    FantiRound,
    FantiView,
    pack_mask,
)


def starting_table(view: FantiView) -> Mask:
    """The four cards dealt face up (FA-3), found by undoing every move."""
    table = view.table
    for _seat, move in reversed(view.history):
        c, take = move_card(move), move_take(move)
        table = (table | take) if take else (table & ~(1 << c))
    return table


class FantiDeterminizer:
    """Deals Fanti worlds consistent with a view (see the module docstring)."""

    def unseen(self, view: FantiView) -> Mask:
        seen = view.hand | view.table
        for p in view.piles:
            seen |= p
        return pack_mask(view.rules) & ~seen

    def deal(self, view: Any, rng: random.Random, constrained: bool = True) -> FantiRound:
        """A starting round for ``view`` (Fanti has no constraints to relax)."""
        n = view.players
        out = cards.cards_of(self.unseen(view))
        rng.shuffle(out)
        now = [0] * n
        now[view.seat] = view.hand
        pos = 0
        for s in range(n):
            if s != view.seat:
                k = view.hand_counts[s]
                now[s] = cards.mask_of(out[pos:pos + k])
                pos += k
        undealt = out[pos:]
        per_deal = HAND_SIZE * n
        current = len(view.history) // per_deal
        deals = [[0] * n for _ in range(current + 1)]
        for j, (seat, move) in enumerate(view.history):
            deals[j // per_deal][seat] |= 1 << move_card(move)
        for s in range(n):
            deals[current][s] |= now[s]
        deck = cards.cards_of(starting_table(view))
        for hands in deals:
            deck += deck_for_hands(n, view.dealer, hands)
        deck += undealt
        if len(deck) != 52 or len(deck) - len(undealt) != TABLE_START + per_deal * (current + 1):
            raise ValueError("the view's history does not fit the Fanti deal (FA-3)")
        return FANTI.new_round(view.rules, n, view.dealer, deck)
