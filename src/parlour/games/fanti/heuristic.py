"""``heuristic`` for Fanti: capture value minus the risk of gifting (docs/bots.md).

A move is worth what it collects now minus what it is likely to hand the next
player, in round points:

* **Value of cards** (FA-9): 0.2 a card (toward the +2 for most cards), 0.2 more a
  Leaf card (toward the +1 for most Leaves), 1 for 2C and 1 for 10D.
* **Gift risk**: on the table the move leaves, for every rank, the best collection
  a card of that rank could make there, times the chance the next player holds one.
  The chance comes from the cards still out -- not in my hand, not on the table,
  not in any collected pile -- so Scouts, Mystics and Guardians already seen are
  tracked: a discarded Scout is safe once the other three are gone. Leaving a
  sum-to-11 the next player can take costs that much.
* **Keeping the Guardian** for a big table: playing a Guardian costs 0.6 (its future
  sweep), so it is only spent when the sweep is worth more, or when it must be.
* **Follow-up**: half the best collection my remaining hand could make on the table
  the move leaves (it is mine next turn unless someone takes it first).
* **Last collector** (FA-8): with the deck empty, a capture that may be the round's
  last one also earns the table's value.
"""

from __future__ import annotations

from math import comb
from typing import Any

from parlour import cards
from parlour.bots.base import Bot
from parlour.cards import JACK, Mask
from parlour.game import Move, move_card, move_take
from parlour.games.fanti.rules import (
    LEAVES,
    TEN_OF_DIAMONDS,
    TWO_OF_CLUBS,
    VALUE,
    VALUED,
    collections,
    hand_moves,
)

CARD, LEAF, SPECIAL, GUARDIAN_KEEP, FOLLOW_UP = 0.2, 0.2, 1.0, 0.6, 0.5
SPECIALS: Mask = (1 << TWO_OF_CLUBS) | (1 << TEN_OF_DIAMONDS)
RANK_MASKS: tuple[Mask, ...] = tuple(
    cards.mask_of(cards.card(r, s) for s in range(4)) for r in range(13))


def value(got: Mask) -> float:
    """What a set of cards is worth to whoever collects it, in round points."""
    return (CARD * got.bit_count() + LEAF * (got & LEAVES).bit_count()
            + SPECIAL * (got & SPECIALS).bit_count())


def p_holds(k: int, unseen: int, hand: int) -> float:
    """Chance that a hand of ``hand`` unseen cards holds at least one of ``k`` given."""
    if k <= 0 or hand <= 0 or unseen <= 0:
        return 0.0
    if unseen - k < hand:
        return 1.0
    return 1.0 - comb(unseen - k, hand) / comb(unseen, hand)


Takes = tuple[tuple[Mask, ...], ...]
"""Per rank, every collection a card of that rank can make from a table."""
RiskOrder = tuple[tuple[float, tuple[int, ...]], ...]
"""The ranks that collect from a table, grouped by what their best collection is worth
to the collector (its value and the card's :data:`CARD`), most first."""

_BY_RANK: dict[tuple[Mask, bool], tuple[Takes, RiskOrder]] = {}
_BY_RANK_LIMIT = 1 << 14


def takes_by_rank(table: Mask, gtg: bool) -> tuple[Takes, RiskOrder]:
    """For each rank, every collection a card of that rank can make from ``table``
    (:func:`.rules.collections`: what a card collects depends only on its rank), and
    those ranks grouped by their best collection (:data:`RiskOrder`, the order
    :func:`gift_risk` weighs them in). Memoised: a heuristic move scores every legal
    move against the table it leaves, and arena runs meet the same tables again (the
    searches use the compiled copy, :mod:`.heuristic_kernel`)."""
    key = (table, gtg)
    hit = _BY_RANK.get(key)
    if hit is None:
        takes = tuple(tuple(collections(r, table, gtg)) for r in range(13))  # clubs: rank r
        groups: dict[float, list[int]] = {}
        for r, ts in enumerate(takes):
            if ts:
                groups.setdefault(max(value(t) for t in ts) + CARD, []).append(r)
        order = tuple((best, tuple(groups[best])) for best in sorted(groups, reverse=True))
        if len(_BY_RANK) >= _BY_RANK_LIMIT:
            _BY_RANK.clear()
        hit = _BY_RANK[key] = (takes, order)
    return hit


_P_HOLDS: dict[tuple[int, int, int], float] = {}


def gift_risk(table: Mask, out: Mask, hand: int, gtg: bool) -> float:
    """Expected value the next player collects from ``table``.

    ``out`` is every card they might hold, ``hand`` how many they hold. The ranks are
    weighed best collection first, and among equal ones the rank with more cards out
    first (the order fixes the sum to the last bit).
    """
    if hand <= 0 or not table:
        return 0.0
    n_out = out.bit_count()
    risk, none_yet = 0.0, 1.0
    for best, ranks in takes_by_rank(table, gtg)[1]:
        if len(ranks) == 1:
            ks: Any = ((out & RANK_MASKS[ranks[0]]).bit_count(),)
        else:
            ks = sorted(((out & RANK_MASKS[r]).bit_count() for r in ranks), reverse=True)
        for k in ks:
            if not k:
                continue
            key = (k, n_out, hand)
            p = _P_HOLDS.get(key)
            if p is None:
                p = _P_HOLDS[key] = p_holds(k, n_out, hand)
            risk += none_yet * p * best
            none_yet *= 1.0 - p
    return risk


def move_score(move: Move, hand: Mask, table: Mask, out: Mask, next_hand: int,
               deck_left: int, gtg: bool) -> float:
    """The heuristic's estimate of a move, in round points (higher is better)."""
    c, take = move_card(move), move_take(move)
    if take:
        gain = value(take | (1 << c))
        after = table ^ take
    else:
        gain = 0.0
        after = table | (1 << c)
    if c % 13 == JACK:
        gain -= GUARDIAN_KEEP
    score = gain - gift_risk(after, out, next_hand, gtg)
    follow = 0.0
    takes = takes_by_rank(after, gtg)[0]
    for x in cards.iter_cards(hand & ~(1 << c)):
        for t in takes[x % 13]:
            follow = max(follow, value(t | (1 << x)))
    score += FOLLOW_UP * follow
    if take and deck_left == 0 and hand.bit_count() <= 2:
        score += 0.5 * value(after)  # likely the last collection: the table follows (FA-8)
    return score


def best_move(legal: Any, hand: Mask, table: Mask, seen: Mask, next_hand: int,
              deck_left: int, gtg: bool) -> Move:
    """The heuristic's move; ``seen`` is every card known not to be out."""
    out = cards.FULL_DECK & ~seen
    best, best_score = legal[0], None
    for m in legal:
        s = move_score(m, hand, table, out, next_hand, deck_left, gtg)
        if best_score is None or s > best_score:
            best, best_score = m, s
    return best


def choice(hand: Mask, table: Mask, seen: Mask, next_hand: int, deck_left: int,
           gtg: bool) -> tuple[Move, int]:
    """The heuristic's move for a seat holding ``hand`` (``seen``: every card known not
    to be out, ``hand`` included), and how many legal moves it had: the reference
    :func:`.heuristic_kernel.heuristic_move` is held to."""
    legal = hand_moves(hand, table, gtg)
    return best_move(legal, hand, table, seen, next_hand, deck_left, gtg), len(legal)


def view_seen(view: Any) -> Mask:
    seen = view.hand | view.table
    for p in view.piles:
        seen |= p
    return seen


def round_policy(r: Any, rng: Any = None) -> Move:
    """The heuristic's move in a Fanti round the caller owns (a search world)."""
    seat = r.turn
    seen = r.hands[seat] | r.table
    for p in r.piles:
        seen |= p
    nxt = (seat + 1) % r.players
    return best_move(r.legal_moves(), r.hands[seat], r.table, seen,
                     r.hands[nxt].bit_count(), 52 - r.dealt, r._gtg)


class HeuristicFanti(Bot):
    """Capture value minus gift risk (see the module docstring)."""

    name = "heuristic"

    def choose(self, view: Any) -> Move:
        nxt = (view.seat + 1) % view.players
        return best_move(view.legal, view.hand, view.table, view_seen(view),
                         view.hand_counts[nxt], view.deck_left,
                         view.rules["guardian_takes_guardians"])


def reachable_sums(valued: Mask) -> int:
    """Bit ``s`` set when some subset of the valued cards adds up to ``s`` (s <= 10)."""
    reach = 1
    for c in cards.iter_cards(valued):
        reach |= (reach << VALUE[c]) & 0x7FF
    return reach


def light_policy(r: Any, rng: Any = None) -> Move:
    """A fast approximation of the heuristic for search playouts.

    Collections score their value (a Guardian pays its keep); a discard scores minus
    its own value and, when it lets some number card make 11 with the table, half of
    what the valued table cards are worth.
    """
    legal = r.legal_moves()
    if len(legal) == 1:
        return legal[0]
    table = r.table
    best, best_score = legal[0], None
    for m in legal:
        c, take = m & 63, m >> 6
        if take:
            s = value(take | (1 << c)) - (GUARDIAN_KEEP if c % 13 == JACK else 0.0)
        else:
            after = table | (1 << c)
            s = -value(1 << c)
            if reachable_sums(after & VALUED) & 0x7FE:
                s -= 0.5 * value(after & VALUED)
        if best_score is None or s > best_score:
            best, best_score = m, s
    return best
