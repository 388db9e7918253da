"""The compact Fanti solver: one world searched exactly to the end of the deal.

:class:`Solver` works on bare masks with the engine's own transition
(:func:`parlour.games.fanti.rules.play_card`, and
:func:`~parlour.games.fanti.rules.last_collector_after` for FA-8): alpha-beta on the win share in 2
players, max^n once hands are small in 3-4 (:data:`MAXN_CARDS`), a best response to
the ``heuristic`` model for ``respond``; moves ordered captures first
(:func:`ordered_moves`). :func:`solve_moves` is its entry point. Part of the search
of :mod:`parlour.games.fanti.search`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from parlour.cards import JACK, Mask
from parlour.game import Move
from parlour.games.fanti import heuristic as heuristic_fanti
from parlour.games.fanti.leaf import (
    deal_end_2p,
    deal_end_n,
    fitted_leaf,
)
from parlour.games.fanti.rules import (
    HAND_SIZE,
    VALUED,
    hand_moves,
    last_collector_after,
    play_card,
)
from parlour.games.fanti.worlds import heuristic_choice

MAXN_CARDS = 6
"""3-4 players: search every seat's choices (max^n) once the hands hold this few cards."""


def _order(moves: list[Move]) -> list[Move]:
    """Captures first, the most valuable first: alpha-beta cuts sooner."""
    if len(moves) < 2:
        return moves
    return sorted(moves, key=lambda m: -heuristic_fanti.value(m >> 6 | 1 << (m & 63))
                  if m >> 6 else heuristic_fanti.value(1 << (m & 63)))


_ORDERED: dict[tuple[Mask, Mask, bool], list[Move]] = {}
_ORDERED_LIMIT = 1 << 16


def ordered_moves(hand: Mask, table: Mask, gtg: bool) -> list[Move]:
    """The engine's legal moves (:func:`parlour.games.fanti.rules.hand_moves`) in search order
    (:func:`_order`), memoised: the same hand meets the same table in many worlds.
    The list is shared: do not change it."""
    key = (hand, table, gtg)
    moves = _ORDERED.get(key)
    if moves is None:
        if len(_ORDERED) >= _ORDERED_LIMIT:
            _ORDERED.clear()
        moves = _ORDERED[key] = _order(hand_moves(hand, table, gtg))
    return moves


def light_move(moves: list[Move], table: Mask) -> Move:
    """The playout policy of :func:`.heuristic.light_policy`, on masks: a
    capture scores its value (a Guardian pays its keep), a discard minus its own
    value, and half the valued table when it leaves something that makes 11."""
    if len(moves) == 1:
        return moves[0]
    best, best_score = moves[0], None
    for m in moves:
        c, take = m & 63, m >> 6
        if take:
            s = heuristic_fanti.value(take | (1 << c)) - (
                heuristic_fanti.GUARDIAN_KEEP if c % 13 == JACK else 0.0)
        else:
            after = table | (1 << c)
            s = -heuristic_fanti.value(1 << c)
            if heuristic_fanti.reachable_sums(after & VALUED) & 0x7FE:
                s -= 0.5 * heuristic_fanti.value(after & VALUED)
        if best_score is None or s > best_score:
            best, best_score = m, s
    return best


class Solver:
    """Evaluates every root move of one world exactly to the search horizon.

    ``last_deal``: the deck is empty, so the horizon is the end of the round. The
    transposition table lives as long as the solver: use one per world. ``nodes``
    counts the states expanded.
    """

    def __init__(self, players: int, me: int, gtg: bool, shared: bool,
                 last_deal: bool, respond: bool = False, deck_left: int = 0,
                 next_hands: list[Mask] | None = None,
                 judge: Callable[[Mask, Mask, Mask, int], float] | None = None) -> None:
        self.n = players
        self.me = me
        self.gtg = gtg
        self.shared = shared
        self.last_deal = last_deal
        self.respond = respond
        self.deck_left = deck_left
        self.next_hands = next_hands if next_hands and not last_deal else None
        """2 players: every seat's hand in the next deal; the search then runs on to
        the end of that deal (stage 1) instead of stopping at the end of this one."""
        self.judge = judge
        """2 players: seat 0's value of the end of this deal from ``(pile 0, pile 1,
        table, last collector)`` in place of :func:`leaf_2p` (``expert``'s
        :func:`fitted_leaf`)."""
        self.table: dict = {}
        self.nodes = 0

    def _final(self, stage: int) -> bool:
        """Whether the deal searched at ``stage`` is the round's last."""
        return self.last_deal or (stage == 1 and self.deck_left == HAND_SIZE * self.n)

    def _model_move(self, hands: list[Mask], table: Mask, piles: list[Mask],
                    turn: int, stage: int = 0) -> Move:
        """The opponent model's move for seat ``turn``: the ``heuristic`` bot's choice
        from what that seat would see (its hand, the table, the piles)."""
        seen = table
        for p in piles:
            seen |= p
        return heuristic_choice(hands[turn], table, seen,
                                hands[(turn + 1) % self.n].bit_count(),
                                self.deck_left - stage * HAND_SIZE * self.n, self.gtg)[0]

    def root(self, hands: list[Mask], table: Mask, piles: list[Mask], turn: int,
             last: int, legal: list[Move]) -> list[tuple[float, float]]:
        """Per move of ``legal`` (moves of seat ``turn``, the searcher):
        ``(reward, win share)`` for the searching seat."""
        out = []
        for m in legal:
            h, t, p, nxt, lc, done = self._play(hands, table, piles, turn, last, m)
            if self.n == 2:
                if done and self.next_hands:
                    v = self._ab(self.next_hands[0], self.next_hands[1], t, p[0], p[1], nxt,
                                 lc, -1.0, 2.0, 1)
                else:
                    v = (self._leaf2(p, t, lc) if done
                         else self._ab(h[0], h[1], t, p[0], p[1], nxt, lc, -1.0, 2.0))
                w = v if self.me == 0 else 1.0 - v
                out.append((w, w))
            else:
                left = sum(x.bit_count() for x in h)
                vec = self._leafn(p, t, lc) if done else self._maxn(h, t, p, nxt, lc, left)
                out.append(vec[self.me])
        return out

    def _play(self, hands: list[Mask], table: Mask, piles: list[Mask], seat: int,
              last: int, m: Move) -> tuple[list[Mask], Mask, list[Mask], int, int, bool]:
        """``m`` played by ``seat`` (:func:`parlour.games.fanti.rules.play_card`): new
        hands, table, piles, next seat, last collector, and whether the deal (every
        hand) is now empty."""
        hands, piles = hands.copy(), piles.copy()
        table = play_card(hands, piles, table, seat, m)
        last = last_collector_after(last, seat, m)
        nxt = (seat + 1) % self.n
        return hands, table, piles, nxt, last, hands[nxt] == 0

    def _leaf2(self, piles: list[Mask], table: Mask, last: int, stage: int = 0) -> float:
        return deal_end_2p(piles, table, last, self._final(stage), self.shared,
                           self.judge if stage == 0 else None)

    def _leafn(self, piles: list[Mask], table: Mask,
               last: int) -> tuple[tuple[float, float], ...]:
        return deal_end_n(piles, table, last, self.last_deal, self.shared)

    def _ab(self, h0: Mask, h1: Mask, table: Mask, p0: Mask, p1: Mask, turn: int,
            last: int, alpha: float, beta: float, stage: int = 0) -> float:
        """Seat 0's win share, alpha-beta (seat 0 maximises, seat 1 minimises); the
        hands and piles as plain masks, and the move played inline (the hot loop).
        ``stage`` 1: the next deal (:attr:`next_hands`)."""
        key = (h0, h1, table, p0, p1, turn, last, stage)
        hit = self.table.get(key)
        if hit is not None:
            lo, hi = hit
            if lo >= beta:
                return lo
            if hi <= alpha:
                return hi
            if lo == hi:
                return lo
            alpha, beta = max(alpha, lo), min(beta, hi)
        else:
            lo, hi = -1.0, 2.0
        self.nodes += 1
        a0, b0 = alpha, beta
        maximise = turn == 0
        best = -1.0 if maximise else 2.0
        if self.respond and turn != self.me:
            moves = [self._model_move([h0, h1], table, [p0, p1], turn, stage)]
        else:
            moves = ordered_moves(h1 if turn else h0, table, self.gtg)
        for m in moves:
            hs, ps = [h0, h1], [p0, p1]
            t = play_card(hs, ps, table, turn, m)
            n0, n1 = hs
            q0, q1 = ps
            lc = last_collector_after(last, turn, m)
            if (n0 if turn else n1) == 0:  # the next seat has no card: the deal is over
                if stage == 0 and self.next_hands:
                    v = self._ab(self.next_hands[0], self.next_hands[1], t, q0, q1,
                                 1 - turn, lc, alpha, beta, 1)
                else:
                    v = self._leaf2([q0, q1], t, lc, stage)
            else:
                v = self._ab(n0, n1, t, q0, q1, 1 - turn, lc, alpha, beta, stage)
            if maximise:
                if v > best:
                    best = v
                    if v > alpha:
                        alpha = v
            elif v < best:
                best = v
                if v < beta:
                    beta = v
            if alpha >= beta:
                break
        if best <= a0:
            hi = best  # failed low: an upper bound
        elif best >= b0:
            lo = best  # failed high: a lower bound
        else:
            lo = hi = best
        self.table[key] = (lo, hi)
        return best

    def _maxn(self, hands: list[Mask], table: Mask, piles: list[Mask], turn: int,
              last: int, left: int) -> tuple[tuple[float, float], ...]:
        """Per seat ``(reward, win share)``: max^n, or a best response to
        :func:`light_move` while the hands hold more than :data:`MAXN_CARDS` cards
        (``left`` is how many they hold)."""
        key = (tuple(hands), table, tuple(piles), turn, last)
        hit = self.table.get(key)
        if hit is not None:
            return hit
        self.nodes += 1
        if turn == self.me:
            moves = ordered_moves(hands[turn], table, self.gtg)
        elif self.respond:
            moves = [self._model_move(hands, table, piles, turn)]
        elif left > MAXN_CARDS:
            moves = [light_move(hand_moves(hands[turn], table, self.gtg), table)]
        else:
            moves = ordered_moves(hands[turn], table, self.gtg)
        best: tuple[tuple[float, float], ...] | None = None
        for m in moves:
            h, t, p, nxt, lc, done = self._play(hands, table, piles, turn, last, m)
            v = self._leafn(p, t, lc) if done else self._maxn(h, t, p, nxt, lc, left - 1)
            if best is None or v[turn][0] > best[turn][0] + 1e-12:
                best = v
        assert best is not None
        self.table[key] = best
        return best


def solve_judge(view: Any, hands: Sequence[Mask]) -> Callable[[Mask, Mask, Mask, int], float] | None:
    """Expert's deal-end judge for a world of ``view`` whose seats hold ``hands``:
    :func:`fitted_leaf` with who leads the next deal and how many cards are dealt
    (None unless 2 players before the last deal)."""
    if view.players != 2 or view.deck_left == 0:
        return None
    # a deal is 8 plays, so the seat that led this deal leads the next one too
    sizes = [h.bit_count() for h in hands[:2]]
    lead0 = (view.seat == 0) == (sizes[0] == sizes[1])
    dealt = 52 - view.deck_left

    def judge(p0: Mask, p1: Mask, table: Mask, last: int) -> float:
        return fitted_leaf(p0, p1, table, last, lead0, dealt)

    return judge


def solve_moves(view: Any, hands: list[Mask], legal: list[Move],
                respond: bool = False, fitted: bool = False) -> list[tuple[float, float]]:
    """``(reward, win share)`` of each of ``legal`` for ``view``'s seat in the world
    where the seats hold ``hands`` (see :class:`Solver`); ``fitted``: 2 players,
    the end of the deal judged by :func:`fitted_leaf` instead of :func:`leaf_2p`."""
    n = view.players
    judge = solve_judge(view, hands) if fitted else None
    s = Solver(n, view.seat, view.rules["guardian_takes_guardians"],
               view.rules["ties"] == "shared", view.deck_left == 0, respond,
               view.deck_left, list(hands[n:]) if len(hands) > n else None, judge)
    return s.root(list(hands[:n]), view.table, list(view.piles), view.seat,
                  view.last_collector, legal)
