"""Fast within-deal search for Fanti PIMC: worlds at the current moment, compact solver.

A Fanti world only matters up to the end of the current deal (the search horizon):
until then nothing is dealt (FA-3), so the undealt deck order is irrelevant and a
world is just the other seats' current hands. :func:`deal_hands` shares the unseen
cards out uniformly at the view's moment -- no deck to rebuild, no history to
replay. (Fanti has no hard constraints beyond hand sizes, FA-7, so this is the same
distribution as :class:`.determinize.FantiDeterminizer` followed by a replay.)

The solver (:class:`Solver`) works on bare masks -- hands, table, piles, whose turn,
last collector -- and plays moves with the engine's own transition
(:func:`parlour.games.fanti.rules.play_card`, FA-5..FA-7), lists them with
:func:`parlour.games.fanti.rules.hand_moves` and ends the round with
:func:`parlour.games.fanti.rules.leftovers` (FA-8) and
:func:`parlour.games.fanti.rules.score_piles` (FA-9).

* **2 players**: the leaf is zero-sum (my win share is 1 minus yours), so the search
  is alpha-beta on seat 0's win share with a transposition table and captures tried
  first.
* **3-4 players**: max^n (each seat maximises its own value) once the hands hold at
  most :data:`MAXN_CARDS` cards; before that the other seats play the
  :func:`light_move` policy and only the searching seat branches (a best response).
* **respond** (what ``hard`` uses, :attr:`parlour.bots.models.SearchModel.respond`):
  the other seats play the ``heuristic`` bot's move (:func:`heuristic_choice`, from
  what they would see) and only the searching seat branches: a best response to the
  opponent model.

Worlds can be weighted by how likely the opponent model makes the other seats' plays
of the current deal (:class:`DealEvidence`, ``full`` inference): a seat that
discarded when it could have collected probably held nothing that collects; with
``learned`` / ``blend`` inference, by the card-location network (:mod:`.cardnet`)
instead of / as well as the model.

``deep:N`` bots (2 players) search on to the end of the *next* deal: a world then
also deals every seat's next hand from the unseen cards (:func:`next_deal`), and the
solver continues into it (:attr:`Solver.next_hands`).

The leaf at the end of a deal that is not the last is :func:`leaf`: in 2 players
the probability of winning the round given the piles so far, with the cards still
to come shared out at random (FA-9 scoring: +2 most cards, +1 most Leaves, +1 2C,
+1 10D); with more players the heuristic pile-value lead through a sigmoid
(:data:`LEAD_SCALE`). In the last deal the search runs to the end of the round and
uses the true result. ``expert`` (2 players) judges the end of a deal by
:func:`fitted_leaf` instead: :func:`leaf_2p` corrected, by a logistic model fitted to
self-play, for the cards left on the table and who leads the next deal. docs/bots.md
explains these choices and docs/bots-lab.md has the measurements behind them.
"""

from __future__ import annotations

import json
import math
import random
from collections.abc import Callable, Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any

from parlour import cards
from parlour.bots.models import placed
from parlour.bots.opponents import choice_probs, mixture
from parlour.cards import JACK, Mask
from parlour.game import Move
from parlour.games.fanti import heuristic as heuristic_fanti
from parlour.games.fanti.bots import greedy_move
from parlour.games.fanti.heuristic_kernel import heuristic_move
from parlour.games.fanti.rules import (
    HAND_SIZE,
    LEAVES,
    TEN_OF_DIAMONDS,
    TWO_OF_CLUBS,
    VALUED,
    hand_moves,
    leftovers,
    play_card,
    score_piles,
    tables_before,
)

TWO_C: Mask = 1 << TWO_OF_CLUBS
TEN_D: Mask = 1 << TEN_OF_DIAMONDS
LEAD_SCALE = 1.0
"""3-4 players: how sharply a lead in pile value (round points) becomes a win chance
(docs/bots.md: how it was chosen)."""
CLUMP = 4.0
"""2 players: the variance of the future card and Leaf differences, in multiples of
what cards going one by one to a random seat would give. Cards are taken in groups
(a capture is two or three cards, the last collector sweeps the table), so the
future is more uncertain than independent cards."""
MAXN_CARDS = 6
"""3-4 players: search every seat's choices (max^n) once the hands hold this few cards."""


def deal_hands(view: Any, rng: random.Random) -> list[Mask]:
    """Every seat's hand in a world for ``view``: its own hand, and the unseen cards
    (in no pile, not on the table, not in my hand) shared out uniformly to the
    other seats by their hand sizes. The rest stands for the undealt deck."""
    seen = view.hand | view.table
    for p in view.piles:
        seen |= p
    out = cards.cards_of(cards.FULL_DECK & ~seen)
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
    out = cards.cards_of(cards.FULL_DECK & ~seen)
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


# --- Leaf evaluation -------------------------------------------------------------------


@lru_cache(maxsize=64)
def _spread(n: int) -> tuple[tuple[int, float], ...]:
    """Distribution of the difference (mine minus theirs) over ``n`` cards still to
    come: values ``-n, -n+2, .., n`` weighted like a normal of variance ``CLUMP * n``."""
    if n == 0:
        return ((0, 1.0),)
    var = CLUMP * n
    pts = [(d, math.exp(-d * d / (2.0 * var))) for d in range(-n, n + 1, 2)]
    total = sum(w for _, w in pts)
    return tuple((d, w / total) for d, w in pts if w / total > 1e-9)


@lru_cache(maxsize=1 << 16)
def _win_2p(cards_diff: int, leaf_diff: int, plain_left: int, leaves_left: int,
            special_diff: int, specials: tuple[bool, bool]) -> float:
    """Seat 0's win share given the differences so far and what is still to come.

    ``plain_left`` / ``leaves_left`` count the uncollected non-Leaf and Leaf cards
    other than 2C and 10D; ``specials`` says whether 2C and 10D are still to come
    (each goes to either seat with even chance).
    """
    total = 0.0
    options_2c = ((1, 0.5), (-1, 0.5)) if specials[0] else ((0, 1.0),)
    options_10d = ((1, 0.5), (-1, 0.5)) if specials[1] else ((0, 1.0),)
    leaf_spread = _spread(leaves_left)
    plain_spread = _spread(plain_left)
    for d2c, p2c in options_2c:
        for d10, p10 in options_10d:
            base = special_diff + d2c + d10  # +1 each to whoever holds them
            c0 = cards_diff + d2c + d10
            l0 = leaf_diff + d2c
            for dl, pl in leaf_spread:
                leaves = l0 + dl
                lead = base + (1 if leaves > 0 else -1 if leaves < 0 else 0)
                c1 = c0 + dl
                for dc, pc in plain_spread:
                    cs = c1 + dc
                    s = lead + (2 if cs > 0 else -2 if cs < 0 else 0)
                    p = p2c * p10 * pl * pc
                    if s > 0:
                        total += p
                    elif s == 0:
                        total += 0.5 * p
    return total


_LEAVES_MEMO: dict[tuple[Mask, Mask], float] = {}


def leaf_2p(p0: Mask, p1: Mask, left: Mask | None = None) -> float:
    """Seat 0's estimated win share of a 2-player round from the two piles at the end
    of a deal (see :data:`CLUMP` and :func:`_win_2p`); ``left`` is the cards still
    to come (default: every card in neither pile)."""
    if left is None:
        v = _LEAVES_MEMO.get((p0, p1))
        if v is None:
            if len(_LEAVES_MEMO) >= _MEMO_LIMIT:
                _LEAVES_MEMO.clear()
            v = _LEAVES_MEMO[p0, p1] = leaf_2p(p0, p1, cards.FULL_DECK & ~(p0 | p1))
        return v
    specials = (bool(left & TWO_C), bool(left & TEN_D))
    leaves_left = (left & LEAVES & ~TWO_C).bit_count()
    plain_left = (left & ~LEAVES & ~TEN_D).bit_count()
    special_diff = ((p0 & TWO_C).bit_count() + (p0 & TEN_D).bit_count()
                    - (p1 & TWO_C).bit_count() - (p1 & TEN_D).bit_count())
    return _win_2p(p0.bit_count() - p1.bit_count(),
                   (p0 & LEAVES).bit_count() - (p1 & LEAVES).bit_count(),
                   plain_left, leaves_left, special_diff, specials)


def leaf_lead(piles: tuple[Mask, ...]) -> tuple[tuple[float, float], ...]:
    """3-4 players: per seat ``(p, p)``, p the sigmoid of its pile-value lead over
    the best other pile, normalised over the seats."""
    v = [heuristic_fanti.value(p) for p in piles]
    ps = [1.0 / (1.0 + math.exp(-LEAD_SCALE * (x - max(v[:i] + v[i + 1:]))))
          for i, x in enumerate(v)]
    total = sum(ps)  # one winner: the chances add up to 1
    return tuple((p / total, p / total) for p in ps)


def leaf(piles: tuple[Mask, ...]) -> tuple[tuple[float, float], ...]:
    """Per seat ``(reward, win share)`` estimated at the end of a deal that is not the
    last: :func:`leaf_2p` in 2 players, :func:`leaf_lead` with more."""
    if len(piles) == 2:
        v = leaf_2p(piles[0], piles[1])
        return ((v, v), (1.0 - v, 1.0 - v))
    return leaf_lead(piles)


FITTED_LEAF = Path(__file__).with_name("leaf.json")
"""The weights of :func:`fitted_leaf`, written by ``benchmarks/fanti_leaf.py``."""


def leaf_features(p0: Mask, p1: Mask, table: Mask, last: int, lead0: bool,
                  dealt: int) -> list[float]:
    """What :func:`fitted_leaf` weighs at the end of a 2-player deal, for seat 0:
    :func:`leaf_2p`'s log-odds, whether seat 0 leads the next deal and collected
    last, and what the table left holds (cards, Leaves, 2C/10D, pile value) for the
    seat that leads next, some terms growing with ``dealt`` (cards dealt so far)."""
    v = min(max(leaf_2p(p0, p1), 1e-4), 1 - 1e-4)
    lead = 1.0 if lead0 else -1.0
    lc = 1.0 if last == 0 else -1.0
    count, leaves = table.bit_count(), (table & LEAVES).bit_count()
    special = (1.0 if table & TWO_C else 0.0) + (1.0 if table & TEN_D else 0.0)
    worth, prog = heuristic_fanti.value(table), dealt / 52.0
    return [1.0, math.log(v / (1 - v)), lead, lc, lead * count, lead * leaves,
            lead * special, lead * worth, lc * count * prog, lead * prog,
            lead * worth * prog, lead * count * prog]


@lru_cache(maxsize=1)
def fitted_weights() -> tuple[float, ...]:
    return tuple(float(x) for x in json.loads(FITTED_LEAF.read_text())["weights"])


def fitted_leaf(p0: Mask, p1: Mask, table: Mask, last: int, lead0: bool,
                dealt: int) -> float:
    """Seat 0's win share at the end of a 2-player deal that is not the last, by a
    logistic model fitted to self-play (``expert``'s leaf): :func:`leaf_2p` corrected
    for the cards left on the table -- the next deal's leader may take them (FA-5),
    the last collector sweeps what is left at the end (FA-8) -- and for who leads.
    Fitted on the deal ends of ``heuristic`` self-play rounds by
    ``benchmarks/fanti_leaf.py``; docs/bots.md has its log loss against
    :func:`leaf_2p` and docs/bots-lab.md what it is worth in play."""
    z = sum(w * f for w, f in zip(fitted_weights(),
                                  leaf_features(p0, p1, table, last, lead0, dealt),
                                  strict=True))
    return 1.0 / (1.0 + math.exp(-z))


def final_outcome(piles: list[Mask], table: Mask, last_collector: int,
                  shared: bool) -> tuple[tuple[float, float], ...]:
    """Per seat ``(reward, win share)`` at the end of the round (FA-8, FA-9): the table
    goes to the last collector, then the engine's scoring; the reward is as in
    :func:`.models.rewards` (win share plus a placing term)."""
    piles, _table = leftovers(piles, table, last_collector)
    score = score_piles(piles, shared)
    best = max(score)
    winners = [s for s, x in enumerate(score) if x == best]
    share = 1.0 / len(winners)
    wins = [share if x == best else 0.0 for x in score]
    return tuple(zip(placed(score, wins, 1), wins, strict=True))


def deal_end_2p(piles: list[Mask], table: Mask, last: int, final: bool, shared: bool,
                judge: Callable[[Mask, Mask, Mask, int], float] | None = None) -> float:
    """Seat 0's win share at the end of a deal in 2 players: the true result when the
    deal is the round's ``final`` one (:func:`final_outcome`), else ``judge`` where given
    (``expert``'s :func:`fitted_leaf`), else :func:`leaf_2p`. The one choice of
    deal-end value for the per-world and the joint search."""
    if final:
        return final_outcome(piles, table, last, shared)[0][1]
    if judge is not None:
        return judge(piles[0], piles[1], table, last)
    return leaf_2p(piles[0], piles[1])


def deal_end_n(piles: list[Mask], table: Mask, last: int, final: bool,
               shared: bool) -> tuple[tuple[float, float], ...]:
    """Per seat ``(reward, win share)`` at the end of a deal with 3 or 4 players: the
    true result in the round's ``final`` deal, else :func:`leaf_lead`."""
    if final:
        return final_outcome(piles, table, last, shared)
    return leaf_lead(tuple(piles))


# --- Moves -----------------------------------------------------------------------------


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


# --- Solvers ---------------------------------------------------------------------------


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
        if m >> 6:
            last = seat
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
            lc = turn if m >> 6 else last
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


class NowWorlds:
    """Fanti's worlds at the view's moment for :class:`parlour.bots.pimc.Pimc` (the
    :attr:`parlour.bots.models.SearchModel.now` capability): the other seats' hands
    (:func:`deal_hands`), weighed by :class:`DealEvidence` and solved exactly to the
    end of the deal (:func:`solve_moves`)."""

    def evidence(self, view: Any, rng: random.Random, per_seat: bool,
                 inference: str = "full", earlier: Any = None) -> DealEvidence:
        """The current deal's plays; with ``per_seat``, each other seat weighed by its
        posterior over the player models (:func:`.opponents.read_seats`, on
        :data:`READ_WORLDS` uniform worlds), starting from ``earlier``, the evidence of
        the game's earlier rounds (:func:`parlour.bots.opponents.read_earlier`). With ``learned`` / ``blend`` inference
        (and the network shipped), the card-location network's logits
        (:mod:`.cardnet`) instead of / on top of the opponent model."""
        weights = None
        if per_seat:
            from parlour.games.fanti.opponents import read_seats

            post = read_seats(view, [deal_hands(view, rng) for _ in range(READ_WORLDS)],
                              start=earlier)
            weights = {s: post.weights(s) for s in post.log}
        evidence = DealEvidence(view, weights=weights)
        if inference in ("learned", "blend") and evidence.plays:
            from parlour.games.fanti.cardnet import load

            net = load()
            if net is not None:
                evidence.prior = net.table(view, weights)
                evidence.model = inference == "blend"
        return evidence

    def __init__(self, deals: int = 1, fitted: bool = False, joint: bool = False) -> None:
        self.deals = deals
        """The search horizon in deals: 1, the end of the current deal; 2 (2 players),
        the end of the next one, its hands dealt at random from the unseen cards
        (:func:`next_deal`)."""
        self.fitted = fitted
        """2 players: judge the end of the deal by :func:`fitted_leaf` (``expert``)."""
        self.joint = joint and deals == 1
        """Solve a decision's worlds together, my later moves once per information set
        (:mod:`.infoset`, :meth:`solve_all`), when the search answers the opponent
        model; else each world on its own (:meth:`solve`)."""

    def deal(self, view: Any, rng: random.Random) -> list[Mask]:
        hands = deal_hands(view, rng)
        if self.deals > 1:
            hands += next_deal(view, hands, rng)
        return hands

    def solve(self, view: Any, world: list[Mask], legal: list[Move],
              respond: bool) -> list[tuple[float, float]]:
        return solve_moves(view, world, legal, respond, self.fitted)

    def solve_all(self, view: Any, worlds: list[tuple[list[Mask], float]],
                  legal: list[Move], deadline: float | None = None) -> list[tuple[float, float]]:
        """Per move of ``legal``, the weighted mean ``(reward, win share)`` over the
        ``(world, weight)`` pairs, searched together (:class:`.infoset.InfoSolver`).
        Past ``deadline`` (a :func:`time.perf_counter` time; the search's own time
        limit, reached only on an overloaded machine) it answers from the first world
        alone, which takes milliseconds, rather than overrun the player's time."""
        from parlour.games.fanti.infoset import InfoSolver, OutOfTime

        try:
            return InfoSolver(view, worlds[0][0], self.fitted, deadline).root(
                view, [w for w, _ in worlds], [wt for _, wt in worlds], legal)
        except OutOfTime:
            return InfoSolver(view, worlds[0][0], self.fitted).root(
                view, [worlds[0][0]], [1.0], legal)
