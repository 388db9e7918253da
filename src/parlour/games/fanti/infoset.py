"""Information-set search for Fanti: my later moves chosen once for every world I cannot
tell apart.

PIMC (:class:`.search.Solver`, one world at a time) answers the opponent model exactly
in each world, and so chooses my *later* moves of the deal as if I saw the other hands
there: in one world it plans to keep the 5 for the 6 it knows is coming, in another to
play it -- a plan no player can follow (strategy fusion). This search takes every world
of a decision at once and walks the tree of what I will *observe*:

* at my turn, one move for the whole group of worlds (the best on their weighted sum);
* at another seat's turn, each world's reply by the opponent model
  (:func:`.search.heuristic_choice`, what ``hard`` answers, :attr:`.search.Solver.respond`);
  the worlds split by the reply they give, since I see it (FA-7: every play is public);
* at the end of the deal, the deal-end judgement of :class:`.search.Solver` (the
  true result in the round's last deal, FA-8, FA-9), which depends only on public
  piles and table, so a group takes one value.

With a single world it is exactly :class:`.search.Solver` with ``respond`` (the tests
hold it to that). The moves are played with the rules' one transition
(:func:`parlour.games.fanti.rules.play_card`) and listed in the solver's order
(:func:`.search.ordered_moves`), so ties go the same way.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

from parlour.cards import Mask
from parlour.game import Move
from parlour.games.fanti.rules import last_collector_after, play_card
from parlour.games.fanti.search import (
    deal_end_2p,
    deal_end_n,
    heuristic_choice,
    ordered_moves,
    solve_judge,
)

Group = list[tuple[list[Mask], float]]
"""Worlds I cannot tell apart: every seat's hand (mine included) and the world's weight."""


class OutOfTime(Exception):
    """The search passed its deadline (:attr:`InfoSolver.deadline`)."""


class InfoSolver:
    """Values every root move over a group of weighted worlds (see the module docstring)."""

    def __init__(self, view: Any, hands: Sequence[Mask], fitted: bool = False,
                 deadline: float | None = None) -> None:
        self.n = view.players
        self.me = view.seat
        self.gtg = view.rules["guardian_takes_guardians"]
        self.shared = view.rules["ties"] == "shared"
        self.last_deal = view.deck_left == 0
        self.deck_left = view.deck_left
        self.judge = solve_judge(view, hands) if fitted else None
        self.deadline = deadline
        """A :func:`time.perf_counter` time: past it the search raises :class:`OutOfTime`."""
        self.nodes = 0

    def root(self, view: Any, worlds: Sequence[Sequence[Mask]], weights: Sequence[float],
             legal: Sequence[Move]) -> list[tuple[float, float]]:
        """Per move of ``legal``: the searching seat's ``(reward, win share)``, the
        worlds' weighted mean."""
        group: Group = [(list(w[:self.n]), wt) for w, wt in zip(worlds, weights, strict=True)]
        mass = sum(weights)
        out = []
        for m in legal:
            r, w = self._play(view.hand, group, view.table, list(view.piles), self.me,
                              view.last_collector, m)
            out.append((r / mass, w / mass))
        return out

    def _leaf(self, piles: list[Mask], table: Mask, last: int) -> tuple[float, float]:
        if self.n == 2:  # as Solver: the win share is the reward
            v = deal_end_2p(piles, table, last, self.last_deal, self.shared, self.judge)
            v = v if self.me == 0 else 1.0 - v
            return v, v
        return deal_end_n(piles, table, last, self.last_deal, self.shared)[self.me]

    def _play(self, hand: Mask, group: Group, table: Mask, piles: list[Mask], seat: int,
              last: int, m: Move) -> tuple[float, float]:
        """``seat`` plays ``m`` in every world of ``group``; then the next turn."""
        piles = piles.copy()
        scratch = [0] * self.n
        table = play_card(scratch, piles, table, seat, m)  # hands are moved below
        bit = 1 << (m & 63)
        if seat == self.me:
            hand ^= bit
        else:
            group = [([h ^ bit if s == seat else h for s, h in enumerate(hs)], wt)
                     for hs, wt in group]
        last = last_collector_after(last, seat, m)
        nxt = (seat + 1) % self.n
        left = hand if nxt == self.me else group[0][0][nxt]
        if left == 0:  # the next seat has no card: the deal is over
            mass = sum(wt for _, wt in group)
            r, w = self._leaf(piles, table, last)
            return mass * r, mass * w
        return self._turn(hand, group, table, piles, nxt, last)

    def _turn(self, hand: Mask, group: Group, table: Mask, piles: list[Mask], seat: int,
              last: int) -> tuple[float, float]:
        self.nodes += 1
        if self.deadline is not None and time.perf_counter() > self.deadline:
            raise OutOfTime
        if seat == self.me:  # one move for every world of the group
            best = (-1.0, 0.0)
            for m in ordered_moves(hand, table, self.gtg):
                v = self._play(hand, group, table, piles, seat, last, m)
                if v[0] > best[0] + 1e-12:
                    best = v
            return best
        seen = table
        for p in piles:
            seen |= p
        nxt = (seat + 1) % self.n
        after = hand if nxt == self.me else group[0][0][nxt]
        replies: dict[Move, Group] = {}
        for hs, wt in group:
            reply = heuristic_choice(hs[seat], table, seen, after.bit_count(),
                                     self.deck_left, self.gtg)[0]
            replies.setdefault(reply, []).append((hs, wt))
        r = w = 0.0
        for reply, sub in replies.items():
            a, b = self._play(hand, sub, table, piles, seat, last, reply)
            r += a
            w += b
        return r, w
