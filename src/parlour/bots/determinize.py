"""Determinization: from one seat's view, whole worlds consistent with it.

A *world* is a complete round -- every hand and, in Fanti, the undealt deck order --
that agrees with everything the seat can see. Search bots (:mod:`.pimc`,
:mod:`.ismcts`) play moves out in worlds instead of the real round, so they never
need, or see, the hidden cards.

Each game has a :class:`Determinizer` that deals a world's *starting* round: it
samples the hidden cards under the public constraints (hand sizes, cards played or
collected, Fan Tan pass voids), arranges a deck so that
``game.new_round(rules, players, dealer, deck)`` deals exactly those hands, and
:func:`replay` then plays the public history in it with the engine's own legality
checks. While replaying, :func:`replay` also scores how likely an opponent model
(the game's heuristic) makes the observed plays; :func:`world_pool` turns those
log-likelihoods into tempered importance weights (see :func:`temper`).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from parlour import cards
from parlour.cards import Card, Mask
from parlour.game import Move, Round

Policy = Callable[[Round, Any], Move]


INFERENCE = ("full", "fixed", "constraints", "none", "learned", "blend")
"""How much a world pool infers from the public history:

* ``full``: hard constraints, and worlds drawn or weighted by how likely the
  opponent model makes the other seats' observed plays (tempered); where the game
  reads each seat on its own (:mod:`.opponents`), the model of each seat is its
  posterior mixture of the family;
* ``fixed``: as ``full`` but every seat read as the game's ``heuristic``;
* ``constraints``: hard constraints only (hand sizes, cards played, Fan Tan pass
  voids), every consistent world equally likely;
* ``none``: hand sizes and cards played only -- Fan Tan pass voids ignored, so the
  history is replayed without legality checks (for measuring what inference is worth);
* ``learned``: hard constraints and a game's learned card-location prior (Fan Tan:
  :mod:`parlour.games.fantan.cardnet`) instead of the opponent model; ``blend``: both,
  multiplied. A game or table without a fitting learned model treats both as ``full``.
"""


class Determinizer(Protocol):
    """Deals starting rounds consistent with a view (one per game)."""

    def deal(self, view: Any, rng: random.Random, constrained: bool = True) -> Round:
        """A fresh round (no move played) whose public history replays to ``view``;
        with ``constrained`` false, pass voids are ignored."""
        ...


def sample_hands(unseen: Sequence[Card], seats: Sequence[int], sizes: Sequence[int],
                 voids: Sequence[Mask], rng: random.Random, mix: int = 2) -> list[Mask]:
    """Share ``unseen`` among ``seats`` so that seat ``seats[i]`` gets ``sizes[i]``
    cards and none of the cards in ``voids[i]``.

    The sizes must add up to ``len(unseen)``. A first assignment is built card by
    card, most constrained card first, choosing among the allowed seats in
    proportion to their free places (restarting on a dead end, and falling back to a
    search that checks feasibility at every step). It is then mixed with
    ``mix * len(unseen)`` random swaps of two cards between two seats that both
    allow them: swaps are a symmetric proposal, so the chain's stationary
    distribution is uniform over every consistent deal. Raises ``ValueError`` when
    no consistent deal exists.
    """
    k = len(seats)
    if sum(sizes) != len(unseen):
        raise ValueError("hand sizes do not add up to the unseen cards")
    allowed = [[i for i in range(k) if not voids[i] >> c & 1] for c in unseen]
    order = sorted(range(len(unseen)), key=lambda j: (len(allowed[j]), rng.random()))
    where = _greedy(order, allowed, sizes, rng)
    if where is None:
        where = _checked(order, allowed, sizes, rng)
    n = len(unseen)
    if n > 1 and k > 1:
        for _ in range(mix * n):
            a, b = rng.randrange(n), rng.randrange(n)
            sa, sb = where[a], where[b]
            if sa != sb and sb in allowed[a] and sa in allowed[b]:
                where[a], where[b] = sb, sa
    hands = [0] * k
    for j, c in enumerate(unseen):
        hands[where[j]] |= 1 << c
    return hands


def _greedy(order: list[int], allowed: list[list[int]], sizes: Sequence[int],
            rng: random.Random, tries: int = 20) -> list[int] | None:
    for _ in range(tries):
        free = list(sizes)
        where = [-1] * len(allowed)
        for j in order:
            opts = [i for i in allowed[j] if free[i] > 0]
            if not opts:
                break
            i = rng.choices(opts, weights=[free[o] for o in opts])[0]
            where[j] = i
            free[i] -= 1
        else:
            return where
    return None


def _feasible(rest: list[int], allowed: list[list[int]], free: list[int]) -> bool:
    """Hall's condition: every set of seats can take all cards only they may hold."""
    k = len(free)
    need: dict[int, int] = {}
    for j in rest:
        sig = 0
        for i in allowed[j]:
            sig |= 1 << i
        need[sig] = need.get(sig, 0) + 1
    for subset in range(1, 1 << k):
        cap = sum(free[i] for i in range(k) if subset >> i & 1)
        only = sum(v for sig, v in need.items() if sig & ~subset == 0)
        if only > cap:
            return False
    return True


def _checked(order: list[int], allowed: list[list[int]], sizes: Sequence[int],
             rng: random.Random) -> list[int]:
    free = list(sizes)
    where = [-1] * len(allowed)
    if not _feasible(order, allowed, free):
        raise ValueError("no deal of the unseen cards fits the public constraints")
    for pos, j in enumerate(order):
        opts = [i for i in allowed[j] if free[i] > 0]
        rng.shuffle(opts)
        for i in opts:
            free[i] -= 1
            if _feasible(order[pos + 1:], allowed, free):
                where[j] = i
                break
            free[i] += 1
        else:  # unreachable when the first check passed
            raise ValueError("no deal of the unseen cards fits the public constraints")
    return where


def deck_for_hands(players: int, dealer: int, hands: Sequence[Mask]) -> list[Card]:
    """Cards dealt one at a time from the seat after the dealer (FT-1, FA-3),
    arranged so that seat ``s`` receives ``hands[s]``."""
    piles = [cards.cards_of(h) for h in hands]
    out: list[Card] = []
    total = sum(len(p) for p in piles)
    for i in range(total):
        out.append(piles[(dealer + 1 + i) % players].pop())
    return out


def replay(world: Round, history: Sequence[tuple[int, Move]], me: int,
           policy: Policy | None, epsilon: float = 0.15) -> float:
    """Play the public ``history`` in ``world`` (legality checked) and return the
    log-likelihood of the other seats' choices under ``policy``.

    The model: at a choice between ``k >= 2`` legal moves the player makes the
    policy's move with probability ``1 - epsilon`` and each other move with
    ``epsilon / (k - 1)``. With no policy the log-likelihood is 0.
    """
    loglik = 0.0
    hit, miss_base = math.log(1.0 - epsilon), math.log(epsilon)
    for seat, move in history:
        if policy is not None and seat != me:
            legal = world.legal_moves()
            if len(legal) > 1:
                if policy(world, None) == move:
                    loglik += hit
                else:
                    loglik += miss_base - math.log(len(legal) - 1)
        world.apply(move)
    return loglik


def temper(logliks: Sequence[float], min_ess: float = 0.5) -> tuple[list[float], float]:
    """Importance weights ``exp(beta * loglik)`` with the largest ``beta`` in [0, 1]
    whose effective sample size stays at least ``min_ess`` of the sample.

    Sharp likelihoods would put all the weight on one or two worlds (the collapse
    seen in Sevens); tempering keeps the sample wide. Returns the normalised weights
    and the ``beta`` used.
    """
    n = len(logliks)
    if n == 0:
        return [], 0.0

    def weights(beta: float) -> list[float]:
        top = max(logliks)
        w = [math.exp(beta * (x - top)) for x in logliks]
        s = sum(w)
        return [x / s for x in w]

    def ess(w: list[float]) -> float:
        return 1.0 / sum(x * x for x in w)

    w = weights(1.0)
    if ess(w) >= min_ess * n:
        return w, 1.0
    lo, hi = 0.0, 1.0
    for _ in range(20):
        mid = (lo + hi) / 2
        if ess(weights(mid)) >= min_ess * n:
            lo = mid
        else:
            hi = mid
    return weights(lo), lo


@dataclass
class World:
    """A determinized round at the view's moment, with its importance weight."""

    round: Round
    weight: float


def world_pool(determinizer: Determinizer, view: Any, count: int, rng: random.Random,
               policy: Policy | None = None, inference: str = "full",
               min_ess: float = 0.5) -> list[World]:
    """``count`` worlds for ``view``, at the view's moment, with their weights.

    ``inference`` is one of :data:`INFERENCE`. With ``full``, a determinizer with a
    ``posterior(view, count, rng)`` method samples the opponent model's tempered
    posterior itself (Fan Tan, :mod:`parlour.games.fantan.infer`) and its worlds weigh the same;
    otherwise each world is weighted by ``policy``'s likelihood, tempered
    (:func:`temper`).
    """
    if inference not in INFERENCE:
        raise ValueError(f"inference must be one of {', '.join(INFERENCE)}")
    if inference == "none":
        worlds = []
        for _ in range(count):
            w = determinizer.deal(view, rng, constrained=False)
            for _seat, move in view.history:
                w.advance(move)  # unchecked: the world may break a pass void
            if hasattr(determinizer, "tidy"):
                determinizer.tidy(w)
            worlds.append(World(w, 1.0 / count))
        return worlds
    if inference == "constraints":
        policy = None
    # "learned" and "blend" need a game's own learned model (its compiled engine).
    # "fixed" and "full" are the same here: the generic pool reads no seat on its own.
    if policy is not None and hasattr(determinizer, "posterior"):
        worlds = determinizer.posterior(view, count, rng)
        for w in worlds:
            replay(w, view.history, view.seat, None)
        return [World(w, 1.0 / len(worlds)) for w in worlds]
    rounds, logliks = [], []
    for _ in range(count):
        world = determinizer.deal(view, rng)
        logliks.append(replay(world, view.history, view.seat, policy))
        rounds.append(world)
    weights, _beta = temper(logliks, min_ess) if policy else ([1.0 / count] * count, 0.0)
    return [World(r, w) for r, w in zip(rounds, weights, strict=True)]
