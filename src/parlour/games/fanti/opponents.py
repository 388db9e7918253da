"""Fanti opponent reading: each other seat's posterior over the player models of
:mod:`parlour.bots.opponents` (random, greedy, heuristic), from its own plays.

Every play is public and every card a seat held in a finished deal was played in it
(FA-3, FA-4), so for the deals already over a seat's hand at each play is known
exactly: the cards it played from then to the end of that deal. In the current deal
it is the seat's hidden hand now plus the cards it played since, so a play's
probability is averaged over worlds (:func:`.search.deal_hands`: uniform, FA-7 leaves
no other constraint). The tables and piles before each play come from undoing the
moves (public).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from parlour.bots.opponents import EPSILON, Posterior, choice_probs
from parlour.cards import Mask
from parlour.game import Move
from parlour.games.fanti.bots import greedy_move
from parlour.games.fanti.rules import HAND_SIZE, TABLE_START, hand_moves, tables_before


@dataclass(frozen=True)
class Play:
    """One earlier play of another seat, with what that seat could see then."""

    seat: int
    move: Move
    table: Mask
    seen: Mask
    """The table and every pile, before the play."""
    later: Mask
    """The cards this seat played from this play to the end of its deal."""
    next_count: int
    """The next seat's hand size before the play."""
    deck_left: int
    current: bool
    """Whether the play is in the current deal (the seat's hand now is hidden)."""


def round_plays(view: Any) -> list[Play]:
    """Every earlier play of the other seats in this round, oldest first."""
    n = view.players
    per_deal = HAND_SIZE * n
    history = view.history
    before = tables_before(history, view.table, view.piles)
    deals = (len(history) + per_deal - 1) // per_deal
    out: list[Play] = []
    for d in range(deals):
        start, end = d * per_deal, min((d + 1) * per_deal, len(history))
        current = end - start < per_deal
        later = [0] * n
        lat_at: list[Mask] = [0] * (end - start)
        for t in range(end - 1, start - 1, -1):
            seat, m = history[t]
            later[seat] |= 1 << (m & 63)
            lat_at[t - start] = later[seat]
        played = [0] * n
        for t in range(start, end):
            seat, m = history[t]
            nxt = (seat + 1) % n
            if seat != view.seat:
                table, seen = before[t]
                out.append(Play(seat, m, table, seen, lat_at[t - start],
                                HAND_SIZE - played[nxt],
                                52 - TABLE_START - per_deal * (d + 1), current))
            played[seat] += 1
    return out


def play_probs(play: Play, held: Mask, gtg: bool,
               epsilon: float = EPSILON) -> list[float] | None:
    """The family's probabilities of ``play`` by a seat holding ``held``; None when
    the play was forced (it says nothing)."""
    from parlour.games.fanti.search import heuristic_choice

    best, k = heuristic_choice(held, play.table, play.seen, play.next_count,
                               play.deck_left, gtg)
    if k < 2:
        return None
    g = greedy_move(hand_moves(held, play.table, gtg))
    return choice_probs(k, (g == play.move, best == play.move), epsilon)


def read_seats(view: Any, worlds: Sequence[Sequence[Mask]],
               epsilon: float = EPSILON) -> Posterior:
    """The posterior of every other seat of ``view``; ``worlds[w][seat]`` are current
    hands consistent with the view, for the plays of the current deal."""
    gtg = view.rules["guardian_takes_guardians"]
    post = Posterior()
    for play in round_plays(view):
        if not play.current:
            probs = play_probs(play, play.later, gtg, epsilon)
        else:
            total, seen = [0.0, 0.0, 0.0], 0
            for world in worlds:
                p = play_probs(play, world[play.seat] | play.later, gtg, epsilon)
                if p is not None:
                    total = [a + b for a, b in zip(total, p, strict=True)]
                    seen += 1
            probs = [x / seen for x in total] if seen else None
        if probs is not None:
            post.observe(play.seat, probs)
    return post
