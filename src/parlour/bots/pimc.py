"""PIMC: Perfect Information Monte Carlo over determinized worlds.

For one decision:

1. Deal a pool of worlds consistent with the view (:mod:`.determinize`), with the
   game's inference: in Fan Tan drawn from the tempered posterior of the heuristic
   opponent model, in Fanti weighted by how likely it makes the plays of the
   current deal (tempered).
2. World after world, evaluate *every* legal move in it, with the same world and the
   same playout seed for each move (common random numbers): the comparison between
   moves is paired, far less noisy than independent samples. Each world counts with
   its weight.
3. A move is evaluated by a playout to the end of the round with the heuristic for
   every seat (with a little random noise), or, once the world is small enough
   (:attr:`.models.SearchModel.late`), by the exact solver (:mod:`.solver`).
4. Worlds are revisited with fresh playout noise while budget remains; a world solved
   exactly is not revisited, and when every world of the pool is solved a new pool
   is dealt.

A game whose model offers worlds at the view's moment
(:attr:`.models.SearchModel.now`, Fanti's) takes a faster road (:meth:`Pimc._now`):
a world is only the other seats' current hands, and every world is solved exactly to
the game's search horizon.

A move's ``value`` is its mean share of the round's win (a win probability, ties
split); moves are ranked by the search reward (:func:`.models.rewards`). One
iteration is one evaluated (world, move) pair. Strategy fusion -- choosing as if the
hidden cards were known -- is PIMC's known weakness; docs/bots.md says why it is
still the ``hard`` engine.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from parlour.bots.budget import Budget
from parlour.bots.determinize import temper, world_pool
from parlour.bots.models import model_for, noisy, outcomes, rewards, win_shares
from parlour.bots.solver import TooBig, solve
from parlour.game import Move

WORLDS = 48
"""Worlds dealt at a time (a pool); more are dealt while budget remains."""
EPSILON = 0.1
"""Playout noise: the chance of a uniformly random move instead of the heuristic's."""
NOW_POOL = 16
"""Worlds at the view's moment with ``full`` inference: worlds weighted together
(see :meth:`Pimc._now`)."""
COLLECT_SHARE = 0.5
"""Worlds searched together (:attr:`.models.NowWorlds.joint`) are dealt in at most this
share of a decision's time limit, so the search of them has the rest (the limit is
reached only on an overloaded machine; the iterations end the dealing long before)."""
NOW_CANDIDATES = 1
"""Candidate worlds dealt per world solved, with ``full`` inference: a pool of
``NOW_POOL * NOW_CANDIDATES`` dealt worlds is weighed by the opponent model
(tempered only as far as its effective size needs to stay at ``NOW_POOL``) and
``NOW_POOL`` of them are drawn by those weights to be solved. 1: the pool is solved
as dealt, weighed (tempered to half its size)."""


@dataclass(frozen=True)
class Estimate:
    """A legal move with its estimated win probability, search reward and samples.

    ``value`` is the mean share of the round's win; ``reward`` adds the placing term
    of :func:`.models.rewards` and is what the search ranks moves by.
    """

    move: Move
    value: float
    samples: int
    reward: float = 0.0


class Pimc:
    """PIMC search for one game (see the module docstring).

    ``worlds`` is the size of the world pool, ``epsilon`` the playout noise,
    ``inference`` is how worlds are drawn (:data:`.determinize.INFERENCE`; default:
    the game's),
    ``exact`` the late-game solver.
    """

    def __init__(self, game: str, budget: Budget, worlds: int | None = None,
                 epsilon: float | None = None, inference: str | None = None,
                 exact: bool = True, deep: bool = False, expert: bool = False) -> None:
        self.model = model_for(game)
        self.budget = budget
        self.worlds = WORLDS if worlds is None else worlds
        self.playout = noisy(self.model.policy, EPSILON if epsilon is None else epsilon)
        self.inference = self.model.inference if inference is None else inference
        self.exact = exact
        self.determinizer = self.model.determinizer()
        self.respond = self.model.respond
        self.earlier: Any = None
        """The evidence of the game's earlier rounds about each seat
        (:func:`.opponents.read_earlier`), set by the bot before each decision."""
        self.now = self.model.now
        """Worlds at the view's moment: the model's ``deep`` or ``expert`` ones when
        asked for and offered, else its ``now`` ones."""
        if deep and self.model.deep is not None:
            self.now = self.model.deep
        elif expert and self.model.expert is not None:
            self.now = self.model.expert

    def estimates(self, view: Any, rng: random.Random) -> list[Estimate]:
        """Every legal move with its value, best first."""
        legal = self.model.root_moves(view)
        if self.now is not None and self.exact:
            return self._now(view, legal, rng)
        clock = self.budget.clock()
        me = view.seat
        tally = _Tally(len(legal))
        while not clock.over:
            pool = world_pool(self.determinizer, view, self.worlds, rng,
                              self.model.policy, self.inference)
            solved: dict[int, list[tuple[float, float]]] = {}
            too_big: set[int] = set()
            while not clock.over and len(solved) < len(pool):
                for i, world in enumerate(pool):
                    if i in solved:
                        continue  # an exact value: a second visit would add nothing
                    values = None
                    if self.exact and i not in too_big and self.model.late(world.round):
                        values = self._solve(world.round, legal, me)
                        if values is not None:
                            solved[i] = values
                        else:
                            too_big.add(i)
                    if values is None:
                        values = self._playouts(world.round, legal, me, rng.getrandbits(64))
                    tally.add(values, world.weight)
                    clock.spend(len(legal))
                    if clock.over:
                        break
        return tally.ranked(legal)

    def _now(self, view: Any, legal: list[Move], rng: random.Random) -> list[Estimate]:
        """Worlds dealt at the view's moment and solved exactly to the search horizon
        (:attr:`.models.SearchModel.now`); worlds are never revisited. With ``full``
        inference, worlds come in pools of :data:`NOW_POOL` weighted by how likely
        the opponent model makes the other seats' plays (tempered,
        :func:`.determinize.temper`); otherwise every world weighs the same."""
        now = self.now
        assert now is not None
        clock = self.budget.clock()
        evidence = (now.evidence(view, rng, self.inference != "fixed", self.inference,
                                 self.earlier)
                    if self.inference in ("full", "fixed", "learned", "blend") else None)
        if evidence is not None and not evidence.plays:
            evidence = None  # nothing seen yet: every world is as likely
        tally = _Tally(len(legal))
        joint = self.respond and now.joint
        together: list[tuple[Any, float]] = []  # joint: every world, searched at the end
        first = True  # one pool whatever the clock says: a decision needs a world
        while first or (not clock.over and (not joint or clock.before(COLLECT_SHARE))):
            first = False
            if evidence is None:
                pool = [(now.deal(view, rng), 1.0)]
            elif NOW_CANDIDATES > 1:
                worlds = [now.deal(view, rng) for _ in range(NOW_POOL * NOW_CANDIDATES)]
                weights, _beta = temper([evidence.loglik(w) for w in worlds],
                                        min_ess=1.0 / NOW_CANDIDATES)
                pool = _resample(worlds, weights, NOW_POOL, rng)
            else:
                worlds = [now.deal(view, rng) for _ in range(NOW_POOL)]
                weights, _beta = temper([evidence.loglik(w) for w in worlds])
                pool = list(zip(worlds, weights, strict=True))
            for world, weight in pool:
                if weight < 1e-4 / len(pool):
                    continue  # not worth a solve
                if joint:
                    together.append((world, weight))
                else:
                    tally.add(now.solve(view, world, legal, self.respond), weight)
                clock.spend(len(legal))
                if clock.over or (joint and not clock.before(COLLECT_SHARE)):
                    break
        if together:
            tally.add(now.solve_all(view, together, legal, clock.deadline),
                      sum(w for _, w in together), len(together))
        return tally.ranked(legal)

    def _playouts(self, world: Any, legal: list[Move], me: int,
                  seed: int) -> list[tuple[float, float]]:
        values = []
        for m in legal:
            r = world.copy()
            r.advance(m)
            prng = random.Random(seed)  # the same noise for every move: paired samples
            while not r.is_over:
                r.advance(self.playout(r, prng))
            values.append(_mine(r, me))
        return values

    def _solve(self, world: Any, legal: list[Move],
               me: int) -> list[tuple[float, float]] | None:
        memo: dict = {}
        horizon = self.model.horizon(world)
        try:
            values = []
            for m in legal:
                r = world.copy()
                r.advance(m)
                values.append(solve(
                    r, outcomes, self.model.key, self.model.policy, memo, horizon=horizon,
                    moves=self.model.moves, me=me,
                    opponents=self.model.policy if self.model.respond else None)[me])
            return values
        except TooBig:
            return None


def _resample(worlds: list[Any], weights: list[float], k: int,
              rng: random.Random) -> list[tuple[Any, float]]:
    """``k`` draws from ``worlds`` by ``weights`` (systematic resampling: one random
    offset, evenly spaced), a world drawn several times solved once with its count."""
    step = sum(weights) / k
    u = rng.random() * step
    counts: dict[int, int] = {}
    acc = 0.0
    j = 0
    for i, w in enumerate(weights):
        acc += w
        while j < k and u + j * step < acc:
            counts[i] = counts.get(i, 0) + 1
            j += 1
    if j < k:  # rounding at the end
        counts[len(worlds) - 1] = counts.get(len(worlds) - 1, 0) + k - j
    return [(worlds[i], c / k) for i, c in counts.items()]


class _Tally:
    """Weighted sums of every move's (reward, win share) over the worlds seen."""

    def __init__(self, moves: int) -> None:
        self.sums = [0.0] * moves
        self.wins = [0.0] * moves
        self.mass = 0.0
        self.samples = 0

    def add(self, values: Any, weight: float, worlds: int = 1) -> None:
        """One world (or ``worlds`` searched together, ``weight`` their total):
        ``values[j]`` is move ``j``'s ``(reward, win share)`` there."""
        for j, (v, w) in enumerate(values):
            self.sums[j] += weight * v
            self.wins[j] += weight * w
        self.mass += weight
        self.samples += worlds

    def ranked(self, legal: list[Move]) -> list[Estimate]:
        """The moves with their mean values, best reward first."""
        out = [Estimate(m, self.wins[j] / self.mass, self.samples, self.sums[j] / self.mass)
               for j, m in enumerate(legal)]
        out.sort(key=lambda e: -e.reward)
        return out


def _mine(r: Any, me: int) -> tuple[float, float]:
    """``(reward, win share)`` of seat ``me`` in a finished world."""
    return rewards(r)[me], win_shares(r)[me]
