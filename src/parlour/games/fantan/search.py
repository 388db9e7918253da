"""The fast Fan Tan search engine: :class:`.pimc.Pimc`'s algorithm in nopython code.

The algorithm is PIMC as in :mod:`.pimc`, specialised to Fan Tan so that every inner
loop runs in numba (:mod:`.search_kernel`):

1. A pool of :data:`WORLDS` worlds -- the other seats' *current* hands -- is drawn
   from the view. With inference ``full`` it is the tempered posterior of the
   heuristic opponent model (:mod:`.infer`): :data:`CHAINS` Metropolis chains
   of card swaps between two other seats, each started from a deal within the hard
   constraints, burnt in and thinned. ``constraints`` runs the same chains without
   the likelihood (uniform over consistent deals); ``none`` also drops the pass voids
   (:data:`parlour.bots.determinize.INFERENCE`). ``learned`` replaces the likelihood by
   the learned card-location prior of :mod:`.cardnet` (weighted :data:`PRIOR_WEIGHT`),
   ``blend`` multiplies the two; both are ``full`` where no trained network fits.
2. Every legal move is evaluated in every world from the current state (hands,
   table, turn, passes so far; under ``strict: false`` the world's past withholdings
   are recomputed from its hands): one heuristic playout per move with
   :data:`EPSILON` noise and the same seed for every move (paired samples), or, once
   my hand has at most :data:`LATE_HAND` cards, my exact best response to the
   heuristic (``respond`` in :mod:`.solver`). A solved world is not revisited;
   unsolved ones are, with fresh noise, while budget remains; then a new pool.
3. A move's ``value`` is its mean win share, its ``reward`` the mean of
   :func:`.models.rewards` (win share plus 0.1 x placing), which ranks the moves.

One iteration is one evaluated (world, move) pair, as in :class:`.pimc.Pimc`; the
budget is checked between chunks of worlds, so an iteration budget alone makes the
search reproducible from its random generator.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from typing import Any

import numpy as np

from parlour import cards
from parlour.bots.budget import Budget
from parlour.bots.determinize import INFERENCE, sample_hands
from parlour.bots.pimc import Estimate
from parlour.game import PASS
from parlour.games.fantan import search_kernel as K
from parlour.games.fantan.determinize import evidence
from parlour.games.fantan.infer import DecisionArrays, decision_arrays
from parlour.games.fantan.kernel import UNLOCKS_U
from parlour.games.fantan.model import LATE_HAND, root_moves
from parlour.games.fantan.opponents import read_seats
from parlour.games.fantan.rules import SEVEN_OF_DIAMONDS, SEVENS, UNLOCKS, FanTanView, pack_mask

WORLDS = 1000
"""Worlds dealt at a time (a pool). Early in a round no world is solved, so a pool
is revisited until the budget ends: its size, not the budget, sets how many distinct
worlds a decision sees (docs/bots.md: why 1,000)."""
EPSILON = 0.1
"""Playout noise: the chance of a uniformly random legal move instead of the heuristic's."""
OPP_EPSILON = 0.1
"""The same for the other seats where they answer as the heuristic."""
CHAINS = 16
"""Independent Metropolis chains per decision (a sharp posterior mixes slowly, and
one chain would give a pool of near-copies); they run on from pool to pool."""
BURN = 8
"""Burn-in of each chain (once per decision), in swap proposals per unseen card."""
THIN = 1.0
"""Swap proposals between two worlds of a chain, per unseen card."""
BETA = 0.5
"""Tempering of the opponent-model likelihood (1 = the model taken at its word)."""
READ_BETA = 1.0
"""Tempering with each seat read as its own mixture of models (``full``): the
mixture is the hedge against a wrong model, so it is taken at its word."""
PRIOR_WEIGHT = 2.0
"""The learned card-location prior (:mod:`.cardnet`) enters a world's log-weight as
this times ``sum log q[seat, card]``."""
MODEL_EPSILON = 0.1
"""The opponent model's chance of not making the heuristic's play."""
READ_WORLDS = 24
"""Worlds within the hard constraints on which each seat's plays are read
(:func:`.opponents.read_seats`)."""
REPLIES = "mix"
"""How a seat's posterior (:meth:`FastFanTan._models`) answers in the worlds (see
:meth:`FastFanTan._replies`): ``mix`` plays the posterior's mixture at every move of
every world (a random move with ``1 - 0.9 x (1 - P(random))``); ``sample`` draws each
seat's model per world from its posterior (posterior sampling: a seat drawn as
``random`` plays at random all through that world's playouts, and the late exact
search, which answers the heuristic, is left to playouts there). Measured equal on 200
paired deals against ``random`` and ``heuristic`` players (docs/bots-lab.md), so the
default stays ``mix``."""
MIN_GROUP = 8
"""``deep``: an information set of mine two moves deep needs this many worlds for its
second card to be chosen on their mean; a smaller one plays the heuristic's card
(:func:`.search_kernel.info_evaluate`)."""
NODE_CAP = 20000
"""Exact-search nodes per (world, move) before falling back to a playout."""
CHUNK = 16
"""Worlds evaluated per kernel call; the budget is checked between calls."""

_TABLES = (K.LANE_CARDS, K.LANE_PREFIX, K.LANE_LEN, K.LANE_MASK)


@dataclass
class _Setup:
    """Everything about one view the kernels need, as numpy arrays."""

    n: int
    me: int
    dealer: int
    af: int
    table: np.uint64
    playable: np.uint64
    start: np.ndarray
    unseen: np.ndarray
    seats: np.ndarray
    sizes: np.ndarray
    voids: np.ndarray
    passes: np.ndarray
    pseat: np.ndarray
    pplay: np.ndarray
    plater: np.ndarray
    streak: int = 0
    """Passes in a row on the table before the decision (FT-11)."""


def _setup(view: FanTanView, inference: str) -> _Setup:
    n, me = view.players, view.seat
    ace_high = view.rules["ace"] == "high"
    unlock = UNLOCKS[ace_high]
    strict = view.rules["strict"]
    opening = view.rules["opening"] == "seven-of-diamonds"
    ev = evidence(view)
    # The playable mask now, and under strict: false every past pass with what was
    # playable then and what each seat has played since (for the world's fines).
    table, playable = 0, SEVENS
    passes_at: list[tuple[int, int, int]] = []
    for t, (seat, move) in enumerate(view.history):
        if move == PASS:
            if not strict:
                passes_at.append((t, seat, 1 << SEVEN_OF_DIAMONDS
                                  if opening and table == 0 else playable))
            continue
        table |= 1 << move
        playable = (playable ^ (1 << move)) | unlock[move]
    pseat = np.array([s for _t, s, _p in passes_at], np.int64)
    pplay = np.array([p for _t, _s, p in passes_at], np.uint64)
    plater = np.zeros((len(passes_at), n), np.uint64)
    for i, (t, _s, _p) in enumerate(passes_at):
        for seat, move in view.history[t:]:
            if move != PASS:
                plater[i, seat] |= np.uint64(1 << move)
    others = [s for s in range(n) if s != me]
    start = np.zeros(n, np.uint64)
    start[me] = view.hand
    voids = np.zeros(n, np.uint64)
    if inference != "none":
        for s in others:
            voids[s] = ev.voids[s]
    unseen = pack_mask(view.rules) & ~(view.hand | view.table)
    return _Setup(
        n=n, me=me, dealer=view.dealer, af=int(ace_high), table=np.uint64(view.table),
        playable=np.uint64(playable), start=start,
        unseen=np.array(cards.cards_of(unseen), np.int64),
        seats=np.array(others, np.int64),
        sizes=np.array([view.hand_counts[s] for s in others], np.int64), voids=voids,
        passes=np.array(view.passes, np.int64), pseat=pseat, pplay=pplay, plater=plater,
        streak=_streak(view.history))


def _streak(history: Any) -> int:
    """The passes in a row at the end of a round's history (FT-11)."""
    k = 0
    for _seat, move in reversed(history):
        if move != PASS:
            break
        k += 1
    return k


class _Chains:
    """The Metropolis chains of one decision: :data:`CHAINS` states of every hand."""

    def __init__(self, n: int) -> None:
        self.hands = np.zeros((CHAINS, n), np.uint64)
        self.ll = np.zeros((CHAINS, n))
        self.started = False


class FastFanTan:
    """The fast PIMC engine for Fan Tan (see the module docstring).

    ``budget`` bounds each decision; ``inference`` is one of
    :data:`.determinize.INFERENCE` (default ``full``); ``worlds``, ``epsilon`` and
    ``exact`` as in :class:`.pimc.Pimc`.
    """

    def __init__(self, budget: Budget, inference: str | None = None,
                 worlds: int | None = None, epsilon: float | None = None,
                 exact: bool = True, deep: bool = False) -> None:
        self.budget = budget
        self.deep = deep
        self.inference = "full" if inference is None else inference
        if self.inference not in INFERENCE:
            raise ValueError(f"inference must be one of {', '.join(INFERENCE)}")
        self.worlds = WORLDS if worlds is None else worlds
        self.epsilon = EPSILON if epsilon is None else epsilon
        self.exact = exact
        self.earlier: Any = None
        """The evidence of the game's earlier rounds about each seat
        (:func:`parlour.bots.opponents.read_earlier`), set by the bot before each
        decision."""

    def estimates(self, view: FanTanView, rng: random.Random) -> list[Estimate]:
        """Every move a search weighs (:func:`.model.root_moves`: the legal moves bar a
        repeated withholding pass) with its value, best first."""
        legal = root_moves(view)
        moves = np.array(legal, np.int64)
        clock = self.budget.clock()
        su = _setup(view, self.inference)
        prior = self._prior(view, rng)
        decisions = decision_arrays(view) if self._likelihood(prior) else None
        hit, miss, prand = self._models(view, su, rng)
        rules = view.rules
        strict, chips = bool(rules["strict"]), rules["stakes"] == "chips"
        any_seven = rules["opening"] == "any-seven"
        unlock = UNLOCKS_U[bool(su.af)]
        nl = len(legal)
        sums = np.zeros(nl)
        wins = np.zeros(nl)
        samples = 0
        out_r = np.empty((CHUNK, nl))
        out_w = np.empty((CHUNK, nl))
        solved_chunk = np.zeros(CHUNK, np.bool_)
        iters = self.budget.iterations
        chains = _Chains(su.n)
        if self.deep and nl >= 2 and view.hand.bit_count() > LATE_HAND:
            return self._deep(view, legal, su, decisions, rng, chains, hit, miss, prior,
                              prand, clock)
        # At least one chunk is evaluated even past the time limit (the first call
        # may spend it compiling the kernels), so every move gets an estimate.
        while samples == 0 or not clock.over:
            pool = self._pool(su, decisions, rng, chains, hit=hit, miss=miss, prior=prior)
            eps = self._replies(len(pool), prand, su.me, rng)
            solved = np.zeros(len(pool), np.bool_)
            while (samples == 0 or not clock.over) and not solved.all():
                todo = np.flatnonzero(~solved)
                pos = 0
                while pos < len(todo) and (samples == 0 or not clock.over):
                    take = min(CHUNK, len(todo) - pos)
                    if iters is not None:
                        take = max(1, min(take, -(-(iters - clock.done) // nl)))
                    which = todo[pos:pos + take].astype(np.int64)
                    seeds = np.array([rng.getrandbits(64) for _ in range(take)], np.uint64)
                    K.evaluate(pool, which, moves, su.n, su.table, su.playable, su.me,
                               su.passes, su.dealer, seeds, eps, self.exact,
                               LATE_HAND, NODE_CAP, solved_chunk, unlock, any_seven,
                               strict, chips, su.pseat, su.pplay, su.plater, su.af,
                               *_TABLES, out_r, out_w, su.streak)
                    sums += out_r[:take].sum(axis=0)
                    wins += out_w[:take].sum(axis=0)
                    solved[which] = solved_chunk[:take]
                    samples += take
                    clock.spend(nl * take)
                    pos += take
        out = [Estimate(m, float(wins[j] / samples), samples, float(sums[j] / samples))
               for j, m in enumerate(legal)]
        out.sort(key=lambda e: -e.reward)
        return out

    def _deep(self, view: FanTanView, legal: list, su: _Setup, decisions: Any,
              rng: random.Random, chains: _Chains, hit: np.ndarray, miss: np.ndarray,
              prior: np.ndarray | None, prand: np.ndarray, clock: Any) -> list[Estimate]:
        """``deep``: one pool, each move judged two of my moves deep with the second
        chosen per information set (:func:`.search_kernel.info_evaluate`). The
        iteration budget counts (world, first move) pairs, as the one-move search."""
        nl = len(legal)
        count = self.worlds
        if self.budget.iterations is not None:
            count = max(MIN_GROUP, min(count, self.budget.iterations // nl))
        pool = self._pool(su, decisions, rng, chains, count=count, hit=hit, miss=miss,
                          prior=prior)
        eps = self._replies(len(pool), prand, su.me, rng)
        seeds = np.array([rng.getrandbits(64) for _ in range(len(pool))], np.uint64)
        rules = view.rules
        out_r = np.empty(nl)
        out_w = np.empty(nl)
        K.info_evaluate(pool, np.array(legal, np.int64), su.n, su.table, su.playable, su.me,
                        su.passes, su.dealer, seeds, eps, MIN_GROUP, UNLOCKS_U[bool(su.af)],
                        rules["opening"] == "any-seven", bool(rules["strict"]),
                        rules["stakes"] == "chips", su.pseat, su.pplay, su.plater, su.af,
                        *_TABLES, out_r, out_w, su.streak)
        clock.spend(nl * len(pool))
        out = [Estimate(m, float(out_w[j]), len(pool), float(out_r[j]))
               for j, m in enumerate(legal)]
        out.sort(key=lambda e: -e.reward)
        return out

    def _prior(self, view: FanTanView, rng: random.Random) -> np.ndarray | None:
        """With ``learned`` or ``blend`` inference, the learned card-location prior
        (:mod:`.cardnet`) as ``PRIOR_WEIGHT * log q[seat, card]``; None without one, or
        when no shipped network fits the view's player count and rules."""
        if self.inference not in ("learned", "blend"):
            return None
        from parlour.games.fantan import cardnet

        net = cardnet.load(view.players)
        if net is None or not net.fits(view):
            return None
        return PRIOR_WEIGHT * np.log(np.maximum(net.probs(view, rng), 1e-6))

    def _likelihood(self, prior: np.ndarray | None) -> bool:
        """Whether the worlds weigh the opponent model's likelihood: ``full``, ``fixed``
        and ``blend``, and ``learned`` when no network fits (it then falls back to
        ``full``)."""
        return self.inference in ("full", "fixed", "blend") or (
            self.inference == "learned" and prior is None)

    def _beta(self) -> float:
        """The tempering: :data:`READ_BETA` when each seat is read on its own (its
        mixture already allows for a wrong model), else :data:`BETA`."""
        return BETA if self.inference == "fixed" else READ_BETA

    def _models(self, view: FanTanView, su: _Setup,
                rng: random.Random) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Each seat's opponent model as kernel tables: ``hit[s, k]`` / ``miss[s, k]``,
        the log-probability of the heuristic's card / another card among ``k``, and
        ``prand[s]``, its posterior weight of ``random`` (0 for my seat and without
        reading), which sets its replies (:meth:`_replies`). With ``full`` inference
        each other seat is read on its own (:func:`.opponents.read_seats`, on
        :data:`READ_WORLDS` worlds within the hard constraints): the weight of the
        heuristic-like models (:func:`parlour.bots.opponents.collapse`: heuristic and
        learned) sets the likelihood (greedy's and search's shares count as random
        there); every model but random answers as the heuristic in replies."""
        n = su.n
        heuristic, sensible = np.ones(n), np.ones(n)
        if self.inference in ("full", "learned", "blend"):
            worlds = self._pool(su, None, rng, count=READ_WORLDS)
            post = read_seats(view, worlds, MODEL_EPSILON, start=self.earlier)
            for s in range(n):
                if s != su.me and s in post.log:
                    heuristic[s] = post.collapsed(s)[2]
                    sensible[s] = 1.0 - post.weight(s, "random")
        hit = np.zeros((n, 53))
        miss = np.zeros((n, 53))
        for s in range(n):
            h = heuristic[s]
            for k in range(2, 53):
                hit[s, k] = math.log(h * (1.0 - MODEL_EPSILON) + (1.0 - h) / k)
                miss[s, k] = math.log(h * MODEL_EPSILON / (k - 1) + (1.0 - h) / k)
        prand = 1.0 - sensible
        prand[su.me] = 0.0
        return hit, miss, prand

    def _replies(self, count: int, prand: np.ndarray, me: int,
                 rng: random.Random) -> np.ndarray:
        """``eps[w, s]``, seat ``s``'s chance of a random move in world ``w`` of a pool
        of ``count`` (:data:`REPLIES`): drawn per world from the posterior (1 for a seat
        drawn as random, :attr:`epsilon` otherwise), or the mixture everywhere."""
        n = len(prand)
        if REPLIES == "mix":
            row = 1.0 - (1.0 - OPP_EPSILON) * (1.0 - prand)
            row[me] = self.epsilon
            return np.tile(row, (count, 1))
        u = np.random.default_rng(rng.getrandbits(64)).random((count, n))
        eps = np.where(u < prand[None, :], 1.0, OPP_EPSILON)
        eps[:, me] = self.epsilon
        return eps

    def _pool(self, su: _Setup, d: DecisionArrays | None, rng: random.Random,
              chains: _Chains | None = None, count: int | None = None,
              hit: np.ndarray | None = None, miss: np.ndarray | None = None,
              prior: np.ndarray | None = None, beta: float | None = None) -> np.ndarray:
        """A pool of ``count`` worlds (default :attr:`worlds`): current hands
        ``[world, seat]``; the opponent model (``hit``/``miss`` tables of
        :meth:`_models`; default: the heuristic for every seat) is used when the
        decisions ``d`` are given, the learned ``prior`` (:meth:`_prior`) when
        given; ``beta`` overrides the tempering (:meth:`_beta`). ``chains`` carries the Metropolis chains from one
        pool of a decision to the next (burnt in on the first)."""
        if chains is None:
            chains = _Chains(su.n)
        full = d is not None
        eps = MODEL_EPSILON
        if hit is None or miss is None:
            logmiss = np.array([math.log(eps / (k - 1)) if k >= 2 else 0.0
                                for k in range(53)])
            hit = np.tile(np.full(53, math.log(1.0 - eps)), (su.n, 1))
            miss = np.tile(logmiss, (su.n, 1))
        if d is None:  # no opponent model: the chains ignore the likelihood
            d = DecisionArrays(np.zeros(su.n, np.int64), np.zeros(su.n, np.int64),
                               np.zeros(0, np.uint64), np.zeros(0, np.int64),
                               np.zeros(0, np.uint64))
        nu = len(su.unseen)
        out = np.empty((self.worlds if count is None else count, su.n), np.uint64)
        args = (su.unseen, su.seats, su.sizes, su.voids, int(BURN * nu),
                max(2, int(THIN * nu)), self._beta() if beta is None else beta, full, d.lo, d.hi, d.playable, d.chosen,
                d.later, su.af, hit, math.log(eps), miss, *_TABLES, prior is not None,
                np.zeros((su.n, 52)) if prior is None else prior)
        fresh = not chains.started
        chains.started = True
        state = (chains.hands, chains.ll, fresh)
        if not K.sample_pool(np.uint64(rng.getrandbits(64)), out, *state, su.start, False,
                             *args):
            # The greedy deal dead-ended every try: deal with the exact sampler.
            start = su.start.copy()
            others = [int(s) for s in su.seats]
            hidden = sample_hands([int(c) for c in su.unseen], others,
                                  [int(x) for x in su.sizes],
                                  [int(su.voids[s]) for s in others], rng)
            for s, h in zip(others, hidden, strict=True):
                start[s] = h
            K.sample_pool(np.uint64(rng.getrandbits(64)), out, *state, start, True, *args)
        return out


def warm() -> float:
    """Compile (or load from numba's on-disk cache) every kernel of this engine by
    searching one small position; returns the seconds it took.

    A cold compile takes several seconds, far over ``hard``'s 1 s a move, so setup
    (scripts/setup.sh) and ``parlour serve`` call this before anyone waits on a move.
    """
    import time

    from parlour.bots.models import practice_view
    from parlour.games.fantan.rules import FANTAN

    started = time.perf_counter()
    view = practice_view(FANTAN, 4, 12)  # cards enough left for the two-move search
    FastFanTan(Budget(iterations=64)).estimates(view, random.Random(0))
    FastFanTan(Budget(iterations=64), deep=True).estimates(view, random.Random(0))
    return time.perf_counter() - started
