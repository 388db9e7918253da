"""Fanti opponent reading: each other seat's posterior over the player models of
:mod:`parlour.bots.opponents` (random, greedy, heuristic, learned, search), from its
own plays.

Every play is public and every card a seat held in a finished deal was played in it
(FA-3, FA-4), so for the deals already over a seat's hand at each play is known
exactly: the cards it played from then to the end of that deal. In the current deal
it is the seat's hidden hand now plus the cards it played since, so a play's
probability is averaged over worlds (:func:`.search.deal_hands`: uniform, FA-7 leaves
no other constraint). The tables and piles before each play come from undoing the
moves (public).

The two costlier models need the whole position a seat faced: ``learned`` asks the
shipped policy network (the ``learned`` bot, on the seat's view as it was then, with
the hand of the world; ``greedy`` where no network fits the table), and ``search``
solves the deal with every hand known (each seat's hand then is its hand now plus
what it played since; in a finished deal, what it played in the rest of it): the
seat's best reply to the heuristic, :func:`.search.solve_moves`. Both are memoised on
the position, so a finished deal's plays are worked out once per round.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from types import SimpleNamespace
from typing import Any

from parlour.bots.opponents import EPSILON, FAMILY, Posterior, choice_probs
from parlour.cards import Mask
from parlour.game import Move
from parlour.games.fanti.bots import greedy_move
from parlour.games.fanti.rules import (
    HAND_SIZE,
    TABLE_START,
    FantiView,
    hand_moves,
    last_collector_after,
    seen_cards,
    states_before,
)


@dataclass(frozen=True)
class Play:
    """One earlier play of another seat, with what that seat could see then."""

    seat: int
    move: Move
    table: Mask
    piles: tuple[Mask, ...]
    """Every seat's pile before the play."""
    counts: tuple[int, ...]
    """Every seat's hand size before the play."""
    since: tuple[Mask, ...]
    """What each seat played from this play to the end of the deal (or to now)."""
    deck_left: int
    current: bool
    """Whether the play is in the current deal (the seat's hand now is hidden)."""
    last_collector: int
    """Who collected last before the play (FA-8), -1 if nobody yet."""

    @property
    def seen(self) -> Mask:
        """The table and every pile, before the play."""
        return seen_cards(self.table, self.piles)

    @property
    def later(self) -> Mask:
        """The cards this seat played from this play to the end of its deal."""
        return self.since[self.seat]

    @property
    def next_count(self) -> int:
        """The next seat's hand size before the play."""
        return self.counts[(self.seat + 1) % len(self.counts)]


def round_plays(view: Any) -> list[Play]:
    """Every earlier play of the other seats in this round, oldest first."""
    n = view.players
    per_deal = HAND_SIZE * n
    history = view.history
    before = states_before(history, view.table, view.piles)
    deals = (len(history) + per_deal - 1) // per_deal
    out: list[Play] = []
    last = -1
    for d in range(deals):
        start, end = d * per_deal, min((d + 1) * per_deal, len(history))
        current = end - start < per_deal
        later = [0] * n
        since_at: list[tuple[Mask, ...]] = [()] * (end - start)
        for t in range(end - 1, start - 1, -1):
            seat, m = history[t]
            later[seat] |= 1 << (m & 63)
            since_at[t - start] = tuple(later)
        played = [0] * n
        for t in range(start, end):
            seat, m = history[t]
            if seat != view.seat:
                table, piles = before[t]
                out.append(Play(seat, m, table, piles, tuple(HAND_SIZE - x for x in played),
                                since_at[t - start], 52 - TABLE_START - per_deal * (d + 1),
                                current, last))
            played[seat] += 1
            last = last_collector_after(last, seat, m)
    return out


COSTLY_WORLDS = 2
"""The worlds of a current-deal play on which ``learned`` and ``search`` are asked
(the first where the play was not forced; the others use every world): a deal solve
with 3-4 players takes 5-10 ms."""


def play_probs(view: Any, play: Play, hands: Sequence[Mask], epsilon: float = EPSILON,
               costly: bool = True) -> list[float] | None:
    """The family's probabilities of ``play`` when the seats held ``hands`` then (the
    playing seat's is ``hands[play.seat]``); None when the play was forced (it says
    nothing). Without ``costly``, ``learned`` and ``search`` are left as NaN."""
    from parlour.games.fanti.search import heuristic_choice

    gtg = view.rules["guardian_takes_guardians"]
    held = hands[play.seat]
    best, k = heuristic_choice(held, play.table, play.seen, play.next_count,
                               play.deck_left, gtg)
    if k < 2:
        return None
    g = greedy_move(hand_moves(held, play.table, gtg))
    if not costly:
        probs = choice_probs(k, (g == play.move, best == play.move, False, False), epsilon)
        return [*probs[:-2], math.nan, math.nan]
    rules = tuple(sorted(view.rules.items()))
    learned = _learned_move(rules, view.players, view.dealer, play, held)
    seen = _search_move(rules, view.players, play, tuple(hands))
    return choice_probs(k, (g == play.move, best == play.move, learned == play.move,
                            seen == play.move), epsilon)


@lru_cache(maxsize=1 << 14)
def _learned_move(rules: tuple[tuple[str, Any], ...], players: int, dealer: int,
                  play: Play, held: Mask) -> Move:
    """What the ``learned`` bot would have played holding ``held`` at ``play``."""
    rule = dict(rules)
    gtg = rule["guardian_takes_guardians"]
    past = FantiView(play.seat, players, dealer, rule, held, play.table, play.piles,
                     play.counts, play.deck_left, play.last_collector, (), play.seat,
                     tuple(hand_moves(held, play.table, gtg)), None)
    return _learned_bot(players).choose(past)


@lru_cache(maxsize=8)
def _learned_bot(players: int) -> Any:
    """The ``learned`` bot at ``players`` (deterministic); the ``greedy`` bot where no
    network is shipped for the table (the model's stand-in: the bot itself refuses)."""
    from parlour.bots import make_bot
    from parlour.envs.learned import shipped

    return make_bot("learned" if players in shipped("fanti") else "greedy", "fanti", 0)


@lru_cache(maxsize=1 << 14)
def _search_move(rules: tuple[tuple[str, Any], ...], players: int, play: Play,
                 hands: tuple[Mask, ...]) -> Move:
    """The ``search`` model's play: the seat's best reply to the heuristic with every
    hand known, to the end of the deal (:func:`.search.solve_moves`)."""
    from parlour.games.fanti.search import solve_moves

    rule = dict(rules)
    legal = hand_moves(hands[play.seat], play.table, rule["guardian_takes_guardians"])
    past = SimpleNamespace(players=players, seat=play.seat, rules=rule,
                           deck_left=play.deck_left, table=play.table,
                           piles=list(play.piles), last_collector=play.last_collector)
    values = solve_moves(past, list(hands), legal, respond=True)
    return legal[max(range(len(legal)), key=lambda j: values[j][0])]


def read_seats(view: Any, worlds: Sequence[Sequence[Mask]],
               epsilon: float = EPSILON, start: Posterior | None = None) -> Posterior:
    """The posterior of every other seat of ``view``; ``worlds[w][seat]`` are current
    hands consistent with the view, for the plays of the current deal (``learned`` and
    ``search`` on the first :data:`COSTLY_WORLDS` of them). ``start``: the evidence of
    the game's earlier rounds (:func:`parlour.bots.opponents.read_earlier`)."""
    n = view.players
    post = start.copy() if start is not None else Posterior()
    for play in round_plays(view):
        if not play.current:
            probs = play_probs(view, play, play.since, epsilon)
        else:
            rows, asked = [], 0
            for world in worlds:
                hands = [(view.hand if s == view.seat else world[s]) | play.since[s]
                         for s in range(n)]
                p = play_probs(view, play, hands, epsilon, costly=asked < COSTLY_WORLDS)
                if p is not None:
                    rows.append(p)
                    asked += 1
            probs = _mean_rows(rows) if rows else None
        if probs is not None:
            post.observe(play.seat, probs)
    return post


def _mean_rows(rows: list[list[float]]) -> list[float]:
    """Each model's mean over the rows that have it (NaN: not asked in that world)."""
    out = []
    for i in range(len(FAMILY)):
        xs = [r[i] for r in rows if not math.isnan(r[i])]
        out.append(sum(xs) / len(xs))
    return out
