"""Fanti's worlds at the moment of a decision, and how likely the opponent model makes them.

A world only matters up to the end of the current deal (nothing is dealt before,
FA-3), so it is just the other seats' hands: :func:`deal_hands` shares the unseen
cards out uniformly, :func:`next_deal` deals the next hands too (``deep:N``).
:class:`DealEvidence` weighs a world by the other seats' plays of the deal so far
under the ``heuristic`` model (:func:`heuristic_choice`), the card-location network,
or both. Part of the search of :mod:`parlour.games.fanti.search`.
"""

from __future__ import annotations

import math
import random
from typing import Any

from parlour import cards
from parlour.bots.opponents import choice_probs, mixture
from parlour.cards import Mask
from parlour.game import Move
from parlour.games.fanti.bots import greedy_move
from parlour.games.fanti.heuristic_kernel import heuristic_move
from parlour.games.fanti.rules import (
    HAND_SIZE,
    hand_moves,
    pack_mask,
    tables_before,
)


def deal_hands(view: Any, rng: random.Random) -> list[Mask]:
    """Every seat's hand in a world for ``view``: its own hand, and the unseen cards
    (in no pile, not on the table, not in my hand) shared out uniformly to the
    other seats by their hand sizes. The rest stands for the undealt deck."""
    seen = view.hand | view.table
    for p in view.piles:
        seen |= p
    out = cards.cards_of(pack_mask(view.rules) & ~seen)
    rng.shuffle(out)
    hands = [0] * view.players
    pos = 0
    for s in range(view.players):
        if s == view.seat:
            hands[s] = view.hand
        else:
            k = view.hand_counts[s]
            hands[s] = cards.mask_of(out[pos:pos + k])
            pos += k
    return hands


def next_deal(view: Any, hands: list[Mask], rng: random.Random) -> list[Mask]:
    """2 players: every seat's hand in the next deal, for a world where the seats hold
    ``hands`` now: the cards out of every hand, pile and the table, dealt at random
    (the deck's order is unknown, FA-3). [] when there is no next deal or more players."""
    if view.players != 2 or view.deck_left == 0:
        return []
    seen = view.table
    for p in view.piles:
        seen |= p
    for h in hands:
        seen |= h
    out = cards.cards_of(pack_mask(view.rules) & ~seen)
    rng.shuffle(out)
    return [cards.mask_of(out[HAND_SIZE * s:HAND_SIZE * (s + 1)])
            for s in range(view.players)]


PRIOR_WEIGHT = 1.0
"""How much the card-location network's logits count in a world's log-weight."""
READ_WORLDS = 8
"""Worlds on which the current deal's plays are read (:meth:`NowWorlds.evidence`)."""
EPSILON = 0.15
"""Opponent model of :class:`DealEvidence`: the heuristic's move with probability
``1 - EPSILON``, any other legal move with ``EPSILON`` shared out."""


class DealEvidence:
    """How likely the opponent model (:mod:`.heuristic`) makes the other seats'
    plays of the current deal, given their hands in a world.

    Only the current deal says anything about the cards in hand now: a seat's hand at
    each of its plays of this deal was its current hand plus the cards it played since.
    The table and piles before each play are found by undoing the moves (public).
    """

    def __init__(self, view: Any, epsilon: float = EPSILON,
                 weights: dict[int, list[float]] | None = None) -> None:
        n = view.players
        done = HAND_SIZE * n - sum(view.hand_counts)  # moves made in this deal
        moves = list(view.history[len(view.history) - done:]) if done > 0 else []
        before = tables_before(moves, view.table, view.piles)
        counts = list(view.hand_counts)  # hand sizes before each play, oldest first
        later = [0] * n  # cards each seat played from this play on
        plays = []
        for (seat, m), (table, seen) in reversed(list(zip(moves, before, strict=True))):
            later[seat] |= 1 << (m & 63)
            counts[seat] += 1
            nxt = (seat + 1) % n
            if seat != view.seat:
                plays.append((seat, m, table, seen, later[seat], counts[nxt]))
        self.plays = plays
        self.me = view.seat
        self.deck_left = view.deck_left
        self.gtg = view.rules["guardian_takes_guardians"]
        self.epsilon = epsilon
        self.hit = math.log(1.0 - epsilon)
        self.miss = math.log(epsilon)
        self.weights = weights or {}
        self.prior: dict[int, dict[int, float]] | None = None
        """The card-location network's ``logit[seat][card]`` (``learned``/``blend``)."""
        self.model = True
        """Whether the opponent model's likelihood counts (not with ``learned``)."""

    def loglik(self, hands: list[Mask]) -> float:
        total = self._model_loglik(hands) if self.model else 0.0
        if self.prior is not None:
            for seat, logit in self.prior.items():
                h = hands[seat]
                total += PRIOR_WEIGHT * sum(z for c, z in logit.items() if h >> c & 1)
        return total

    def _model_loglik(self, hands: list[Mask]) -> float:
        """Log-likelihood of the other seats' plays of this deal in the world ``hands``:
        under the heuristic, or under the seat's mixture of the family
        (:mod:`parlour.bots.opponents`) when ``weights`` has the seat."""
        total = 0.0
        for seat, m, table, seen, later, next_count in self.plays:
            held = hands[seat] | later
            best, k = heuristic_choice(held, table, seen, next_count, self.deck_left,
                                       self.gtg)
            if k < 2:
                continue
            w = self.weights.get(seat)
            if w is None:
                total += self.hit if best == m else self.miss - math.log(k - 1)
                continue
            g = greedy_move(hand_moves(held, table, self.gtg))
            # solving every candidate world for learned and search is not affordable:
            # learned is answered as the heuristic, search as uninformative (1/k)
            probs = choice_probs(k, (g == m, best == m, best == m, False), self.epsilon)
            probs[-1] = 1.0 / k
            total += math.log(mixture(w, probs))
        return total


_MEMO_LIMIT = 1 << 16
"""Entries a memo keeps before it starts again from empty."""
_CHOICES: dict[tuple, tuple[Move, int]] = {}


def heuristic_choice(hand: Mask, table: Mask, seen: Mask, next_count: int,
                     deck_left: int, gtg: bool) -> tuple[Move, int]:
    """The ``heuristic`` bot's move for a seat holding ``hand`` (``seen``: the table
    and every pile; ``next_count``: the next seat's hand size), and how many legal
    moves it had. Memoised: the same position recurs across worlds and decisions."""
    key = (hand, table, seen, next_count, deck_left, gtg)
    choice = _CHOICES.get(key)
    if choice is None:
        if len(_CHOICES) >= _MEMO_LIMIT:
            _CHOICES.clear()
        choice = _CHOICES[key] = heuristic_move(hand, table, seen | hand, next_count,
                                                deck_left, gtg)
    return choice
