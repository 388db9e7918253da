"""Fan Tan soft inference: who holds what, judged by how the others have played.

Hard constraints (hand sizes, pass voids) say which deals are *possible*; this
module says which are *likely*. The opponent model is the ``heuristic`` bot: at each
earlier decision where a seat had two or more playable cards, it played the
heuristic's card with probability ``1 - epsilon`` and each other card with
``epsilon / (k - 1)``. Under ``strict: false`` a pass while holding a playable card
counts as a miss too (the model never withholds).

Worlds are drawn by a Metropolis chain over deals: start from a deal consistent
with the hard constraints, propose swapping two cards between two other seats (only
where neither card is void for its new seat, so every state stays possible), and
accept with probability ``min(1, exp(beta * (loglik' - loglik)))``. The target is
the model's posterior *tempered* by ``beta`` < 1, so that a wrong model -- a human,
a random player -- flattens the sample instead of collapsing it onto a few deals.
Only the two seats involved are re-scored for each proposal.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass

import numpy as np

from parlour import cards
from parlour.cards import Card, Mask
from parlour.game import PASS
from parlour.games.fantan.heuristic import best_card
from parlour.games.fantan.rules import SEVENS, UNLOCKS, FanTanView


@dataclass(frozen=True)
class Decision:
    """One earlier turn of another seat: what was playable and what it did."""

    playable: Mask
    chosen: Card
    """The card played, or PASS."""
    later: Mask
    """The cards this seat played from this turn on (its hand then = now + later)."""
    t: int = -1
    """Its index in the view's history."""


def decisions(view: FanTanView) -> dict[int, list[Decision]]:
    """The informative past turns of every other seat."""
    unlock = UNLOCKS[view.rules["ace"] == "high"]
    loose = not view.rules["strict"]
    opening = view.rules["opening"] == "seven-of-diamonds"
    history = view.history
    later_at = [0] * len(history)
    suffix = [0] * view.players
    for t in range(len(history) - 1, -1, -1):
        seat, move = history[t]
        if move != PASS:
            suffix[seat] |= 1 << move
        later_at[t] = suffix[seat]
    out: dict[int, list[Decision]] = {s: [] for s in range(view.players) if s != view.seat}
    table, playable = 0, SEVENS
    for t, (seat, move) in enumerate(history):
        forced_opening = opening and table == 0
        if seat != view.seat and not forced_opening and (move != PASS or loose):
            out[seat].append(Decision(playable, move, later_at[t], t))
        if move != PASS:
            table |= 1 << move
            playable = (playable ^ (1 << move)) | unlock[move]
    return out


class Likelihood:
    """Log-likelihood of a seat's current hand under the heuristic opponent model."""

    def __init__(self, view: FanTanView, epsilon: float = 0.1) -> None:
        self.ace_high = view.rules["ace"] == "high"
        self.hit = math.log(1.0 - epsilon)
        self.epsilon = epsilon
        self.decisions = decisions(view)

    def seat(self, seat: int, hand: Mask) -> float:
        """The log-likelihood of ``seat``'s past choices if it holds ``hand`` now."""
        ll = 0.0
        for d in self.decisions.get(seat, ()):
            held = hand | d.later
            legal = held & d.playable
            k = legal.bit_count()
            if d.chosen == PASS:
                if k:
                    ll += math.log(self.epsilon)
                continue
            if k < 2:
                continue
            if best_card(held, legal, self.ace_high) == d.chosen:
                ll += self.hit
            else:
                ll += math.log(self.epsilon / (k - 1))
        return ll


def metropolis(hands: dict[int, Mask], voids: dict[int, Mask], like: Likelihood,
               rng: random.Random, steps: int, beta: float,
               scores: dict[int, float] | None = None) -> dict[int, float]:
    """Run ``steps`` swap proposals on ``hands`` (changed in place); returns the
    per-seat log-likelihoods of the final state."""
    seats = [s for s, h in hands.items() if h]
    ll = scores if scores is not None else {s: like.seat(s, h) for s, h in hands.items()}
    if len(seats) < 2:
        return ll
    for _ in range(steps):
        a, b = rng.sample(seats, 2)
        ha, hb = hands[a], hands[b]
        x = _pick(ha, rng)
        y = _pick(hb, rng)
        if voids[b] >> x & 1 or voids[a] >> y & 1:
            continue
        na = (ha & ~(1 << x)) | (1 << y)
        nb = (hb & ~(1 << y)) | (1 << x)
        la, lb = like.seat(a, na), like.seat(b, nb)
        delta = la + lb - ll[a] - ll[b]
        if delta >= 0 or rng.random() < math.exp(beta * delta):
            hands[a], hands[b] = na, nb
            ll[a], ll[b] = la, lb
    return ll


def _pick(mask: Mask, rng: random.Random) -> Card:
    n = mask.bit_count()
    k = rng.randrange(n)
    for c in cards.iter_cards(mask):
        if k == 0:
            return c
        k -= 1
    raise AssertionError("unreachable")


@dataclass(frozen=True)
class DecisionArrays:
    """:func:`decisions` as flat numpy arrays for the nopython kernels
    (:mod:`.search_kernel`): seat ``s``'s decisions are rows ``lo[s]`` to
    ``hi[s] - 1``."""

    lo: np.ndarray
    hi: np.ndarray
    playable: np.ndarray
    chosen: np.ndarray
    later: np.ndarray


def decision_arrays(view: FanTanView) -> DecisionArrays:
    """The informative past turns of every other seat (:func:`decisions`), flattened."""
    per = decisions(view)
    lo = np.zeros(view.players, np.int64)
    hi = np.zeros(view.players, np.int64)
    play, chosen, later = [], [], []
    for s in range(view.players):
        lo[s] = len(play)
        for d in per.get(s, ()):
            play.append(d.playable)
            chosen.append(d.chosen)
            later.append(d.later)
        hi[s] = len(play)
    return DecisionArrays(lo, hi, np.array(play, np.uint64), np.array(chosen, np.int64),
                          np.array(later, np.uint64))
