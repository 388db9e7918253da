"""Fast within-deal search for Fanti PIMC: worlds at the current moment, compact solver.

A Fanti world only matters up to the end of the current deal (the search horizon):
until then nothing is dealt (FA-3), so the undealt deck order is irrelevant and a
world is just the other seats' current hands. :func:`deal_hands` shares the unseen
cards out uniformly at the view's moment -- no deck to rebuild, no history to
replay. (Fanti has no hard constraints beyond hand sizes, FA-7, so this is the same
distribution as :class:`.determinize.FantiDeterminizer` followed by a replay.)

The solver (:class:`Solver`) works on bare masks -- hands, table, piles, whose turn,
last collector -- and plays moves with the engine's own transition
(:func:`parlour.games.fanti.rules.play_card`, FA-5..FA-7, and
:func:`parlour.games.fanti.rules.last_collector_after`, FA-8), lists them with
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

The search is in three modules by concern -- :mod:`.worlds` (worlds and their
evidence), :mod:`.leaf` (the leaf values), :mod:`.solver` (the solver) -- and
:class:`NowWorlds` here puts them together; every name they define can still be
imported from this module.
"""

from __future__ import annotations

import random
from typing import Any

from parlour.cards import Mask
from parlour.game import Move
from parlour.games.fanti.leaf import (  # noqa: F401  (import paths kept)
    _LEAVES_MEMO,
    CLUMP,
    FITTED_LEAF,
    LEAD_SCALE,
    TEN_D,
    TWO_C,
    _spread,
    _win_2p,
    deal_end_2p,
    deal_end_n,
    final_outcome,
    fitted_leaf,
    fitted_weights,
    leaf,
    leaf_2p,
    leaf_features,
    leaf_lead,
)
from parlour.games.fanti.solver import (  # noqa: F401  (import paths kept)
    _ORDERED,
    _ORDERED_LIMIT,
    MAXN_CARDS,
    Solver,
    _order,
    light_move,
    ordered_moves,
    solve_judge,
    solve_moves,
)
from parlour.games.fanti.worlds import (  # noqa: F401  (import paths kept)
    _CHOICES,
    _MEMO_LIMIT,
    EPSILON,
    PRIOR_WEIGHT,
    READ_WORLDS,
    DealEvidence,
    deal_hands,
    heuristic_choice,
    next_deal,
)


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
