"""Fan Tan opponent reading: each other seat's posterior over the player models of
:mod:`parlour.bots.opponents` (random, greedy, heuristic), from its own plays.

A seat's hand at an earlier decision is its hand now plus the cards it has played
since (:func:`.infer.decisions`); its hand now is hidden, so the probability of the
seat's plays under a model is averaged over worlds within the hard constraints (hand
sizes and FT-5 pass voids) -- the marginal likelihood -- not over the model's own
posterior (which would read every seat as the model it assumes). Forced plays say nothing and are skipped. A withholding pass
(``strict: false``, FT-8) has probability ``1 / (k + 1)`` under ``random`` and
``epsilon`` under the others (they never withhold).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from parlour.bots.opponents import EPSILON, Posterior, choice_probs
from parlour.cards import Mask
from parlour.game import PASS
from parlour.games.fantan.bots import greedy_card
from parlour.games.fantan.heuristic import best_card
from parlour.games.fantan.infer import decisions
from parlour.games.fantan.rules import FanTanView


def read_seats(view: FanTanView, worlds: Sequence[Sequence[int]],
               epsilon: float = EPSILON) -> Posterior:
    """The posterior of every other seat of ``view``; ``worlds[w][seat]`` are current
    hands consistent with the view (the seat's own hand is ignored)."""
    ace_high = view.rules["ace"] == "high"
    post = Posterior()
    memo: dict[tuple[Mask, Mask, int], list[float]] = {}
    for seat, decs in decisions(view).items():
        joint = []  # per world: the log-probability of all the seat's plays, per model
        for world in worlds:
            logp = [0.0, 0.0, 0.0]
            for d in decs:
                held = int(world[seat]) | d.later
                legal = held & d.playable
                key = (held, legal, d.chosen)
                probs = memo.get(key)
                if probs is None:
                    probs = memo[key] = _probs(held, legal, d.chosen, ace_high, epsilon)
                for i, p in enumerate(probs):
                    logp[i] += math.log(max(p, 1e-12))
            joint.append(logp)
        if decs and joint:
            post.observe_log(seat, [_log_mean_exp([x[i] for x in joint]) for i in range(3)],
                             len(decs))
    return post


def _log_mean_exp(xs: list[float]) -> float:
    top = max(xs)
    return top + math.log(sum(math.exp(x - top) for x in xs) / len(xs))


def _probs(held: Mask, legal: Mask, chosen: int, ace_high: bool,
           epsilon: float) -> list[float]:
    k = legal.bit_count()
    if chosen == PASS:
        return [1.0 / (k + 1), epsilon, epsilon] if k else [1.0, 1.0, 1.0]
    if k < 2:
        return [1.0, 1.0, 1.0] if legal >> chosen & 1 else [0.0, 0.0, 0.0]
    if not legal >> chosen & 1:
        return [0.0, 0.0, 0.0]  # impossible in this world
    return choice_probs(k, (greedy_card(held, legal, ace_high) == chosen,
                            best_card(held, legal, ace_high) == chosen), epsilon)
