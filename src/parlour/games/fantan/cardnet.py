"""A learned card-location model for Fan Tan: who holds each hidden card.

A small network, trained on self-play records (``scripts/train_fantan_cards.py``),
reads the public history as one seat sees it and gives, for every card that seat
cannot see, the probability that each other seat holds it. Its weights ship in this
folder as ``cardnet_<P>p.npz`` (for ``P`` players, the rules it was trained under
in the file); play needs numpy and the compiled feature code below, nothing else.

The search uses it as a *prior* on worlds (:mod:`.search`): a world's log-weight
gains ``sum log q[seat, card]`` over the hidden cards it deals, on top of (or
instead of) the opponent-model likelihood. The hard constraints stay the sampler's
job: the Metropolis chain only ever proposes swaps that keep every hand size and
pass void (FT-5), so a sharp prior can never deal an impossible world.

The network scores each (other seat, hidden card) pair on its own, from features of
that pair read off the public history as one seat sees it (FT-10): where the card
lies in its lane (its distance from the 7, how many cards still lie between it and
the table), who played the cards inward of it and whether they had another play
then, how often the seat let the card or its lane go by while it could have been
played, the seat's pass voids in that suit and lane, its hand size, plays and passes,
what I hold in the lane, and how recently and by choice the seat played into the
card's lane (:func:`features`). One small ReLU network (shared
weights) turns the pair's features into a logit; a softmax over the other seats
gives each card's holder. Scoring pairs with shared weights keeps the model small
and lets every hidden card of every position teach it.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

import numpy as np
from numba import njit

from parlour.batch.bitops import U0, bit
from parlour.game import PASS
from parlour.games.fantan.kernel import SEVENS_U, UNLOCKS_U

HERE = Path(__file__).parent
HISTORY_FEATURES = 44
"""Features per (other seat, hidden card) read off the history (:func:`features`)."""
FEATURES = HISTORY_FEATURES + 3
"""... and three from sampled worlds (:func:`marginals`)."""
MARGINAL_WORLDS = 64
"""Worlds per pool behind :func:`marginals`."""
MAX_SEATS = 6


@njit(cache=True)
def features(n, me, hand, counts, hseat, hmove, length, strict, unlock, out):
    """Fill ``out[j - 1, card, :HISTORY_FEATURES]`` (float32, ``(n - 1, 52, FEATURES)``)
    with what the
    view of seat ``me`` (holding ``hand``, after the first ``length`` moves of the round,
    ``counts[s]`` every seat's hand size then) says about seat ``me + j`` holding
    ``card``; rows of cards ``me`` can see stay zero. Ace low (the card's lane runs from
    its 7 outwards by rank)."""
    out[:] = 0.0
    by = np.full(52, -1, np.int64)        # who played each card
    alt = np.zeros(52, np.bool_)          # did the player have another possible play
    turn_at = np.zeros(52, np.int64)      # the player's own turn count at that play
    declined = np.zeros((n, 52))
    void = np.zeros((n, 52), np.bool_)
    plays = np.zeros(n)
    passes = np.zeros(n)
    turns = np.zeros(n, np.int64)
    last = np.full(n, -1, np.int64)       # each seat's latest card played
    mine = hand                           # my hand at each moment of the replay
    for t in range(length):
        if hseat[t] == me and hmove[t] != PASS:
            mine |= bit(hmove[t])
    table = U0
    playable = SEVENS_U
    for t in range(length):
        s = hseat[t]
        mv = hmove[t]
        turns[s] += 1
        if mv == PASS:
            passes[s] += 1
            if strict:
                for c in range(52):
                    if playable & bit(c):
                        void[s, c] = True
            continue
        plays[s] += 1
        options = playable & ~mine if s != me else playable
        by[mv] = s
        turn_at[mv] = turns[s]
        alt[mv] = table != U0 and (options & ~bit(mv)) != U0
        last[s] = mv
        if table != U0:
            for c in range(52):
                if c != mv and options & bit(c):
                    declined[s, c] += 1.0
        if s == me:
            mine &= ~bit(mv)
        table |= bit(mv)
        playable = (playable & ~bit(mv)) | unlock[mv]
    hidden_total = 0
    for j in range(1, n):
        hidden_total += counts[(me + j) % n]
    for c in range(52):
        if hand & bit(c) or table & bit(c):
            continue
        r = c % 13
        suit = c - r
        d = r - 6 if r >= 6 else 6 - r
        step = 1 if r > 6 else -1
        inward = c - step if r != 6 else -1
        gap = 0
        inner_hidden = 0
        mine_inward = False
        mine_lane = 0
        outer_hidden = 0
        for rr in range(13):
            x = suit + rr
            in_lane = r == 6 or rr == 6 or (rr - 6) * step > 0
            if not in_lane:
                continue
            if hand & bit(x):
                mine_lane += 1
            inside = (rr - 6) * step >= 0 and (rr - r) * step < 0 if r != 6 else False
            outside = (rr - r) * step > 0 if r != 6 else rr != 6
            if inside and not table & bit(x):
                gap += 1
                if hand & bit(x):
                    mine_inward = True
                else:
                    inner_hidden += 1
            if outside and not hand & bit(x) and not table & bit(x):
                outer_hidden += 1
        for j in range(1, n):
            s = (me + j) % n
            f = out[j - 1, c]
            f[0] = 1.0
            f[1 + d] = 1.0
            f[8] = gap / 6.0
            f[9] = 1.0 if gap == 0 else 0.0
            lane_plays = 0.0
            other_plays = 0.0
            lane_void = 0.0
            suit_void = 0.0
            lane_declined = 0.0
            lane_alt = 0.0
            lane_recent = 0.0
            frontier_by_j = False
            suit_recent = 0.0
            seven_alt = False
            for rr in range(13):
                x = suit + rr
                inside = r != 6 and (rr - 6) * step >= 0 and (rr - r) * step < 0
                if by[x] == s:
                    ago = 1.0 / (1.0 + turns[s] - turn_at[x])
                    suit_recent = max(suit_recent, ago)
                    if rr == 6 and alt[x]:
                        seven_alt = True
                    if inside:
                        lane_plays += 1.0
                        if alt[x]:
                            lane_alt += 1.0
                            lane_recent += ago
                        if rr + step == r or not table & bit(x + step):
                            frontier_by_j = True
                    elif rr != r:
                        other_plays += 1.0
                if void[s, x]:
                    suit_void += 1.0
                    if inside:
                        lane_void += 1.0
                if inside:
                    lane_declined += declined[s, x]
            f[10] = min(lane_plays / 3.0, 1.0)
            if inward >= 0:
                who = by[inward]
                if who == s:
                    f[11] = 1.0
                    f[12] = 1.0 if alt[inward] else 0.0
                    f[15] = 1.0 / (1.0 + turns[s] - turn_at[inward])
                elif who == me:
                    f[13] = 1.0
                elif who >= 0:
                    f[14] = 1.0
            f[16] = min(other_plays / 3.0, 1.0)
            f[17] = min(declined[s, c] / 4.0, 1.0)
            f[18] = min(lane_declined / 4.0, 1.0)
            f[19] = min(lane_void / 3.0, 1.0)
            f[20] = suit_void / 6.0
            f[21] = counts[s] / 13.0
            f[22] = np.log(max(counts[s], 1))
            f[23] = counts[s] / max(hidden_total, 1)
            f[24] = plays[s] / 13.0
            f[25] = min(passes[s] / 8.0, 1.0)
            f[26] = length / 100.0
            f[27] = mine_lane / 6.0
            f[28] = 1.0 if mine_inward else 0.0
            f[29] = outer_hidden / 6.0
            f[30] = inner_hidden / 6.0
            f[30 + j] = 1.0
            f[36] = min(lane_alt / 3.0, 1.0)
            f[37] = 1.0 if r != 6 and last[s] >= 0 and last[s] - last[s] % 13 == suit and (
                (last[s] % 13 - 6) * step >= 0 and (last[s] % 13 - r) * step < 0) else 0.0
            f[38] = min(lane_recent, 1.0)
            f[39] = 1.0 if frontier_by_j else 0.0
            f[40] = 1.0 if lane_alt > 0 and gap > 0 else 0.0
            f[41] = 1.0 if seven_alt else 0.0
            f[42] = lane_declined / max(plays[s], 1.0)
            f[43] = suit_recent


def feature_size(players: int) -> tuple[int, int, int]:
    return (players - 1, 52, FEATURES)


def marginals(view: Any, rng: Any,
              worlds: int = MARGINAL_WORLDS) -> tuple[np.ndarray, np.ndarray]:
    """``[seat, card]``: how often each seat holds each card in ``worlds`` worlds drawn
    from the heuristic opponent model's posterior taken at its word (every other seat
    read as the heuristic, beta = 1; :mod:`.infer`), and in as many drawn uniformly
    within the hard constraints -- the search's own samplers."""
    from parlour.bots.budget import Budget
    from parlour.games.fantan.infer import decision_arrays
    from parlour.games.fantan.search import FastFanTan, _setup

    eng = FastFanTan(Budget(1), inference="fixed", worlds=worlds)
    su = _setup(view, "fixed")
    model = eng._pool(su, decision_arrays(view), rng, count=worlds, beta=1.0)
    uniform = eng._pool(su, None, rng, count=worlds)
    return _frequency(model), _frequency(uniform)


def _frequency(pool: np.ndarray) -> np.ndarray:
    shifts = np.arange(52, dtype=np.uint64)
    return ((pool[:, :, None] >> shifts) & np.uint64(1)).mean(axis=0)


def view_features(view: Any, rng: Any) -> np.ndarray:
    """:func:`features` of a Fan Tan view, with the :func:`marginals` of each (seat,
    card): the model's, the uniform one, and their log ratio."""
    n = view.players
    hist = view.history
    hseat = np.array([s for s, _m in hist], np.int64)
    hmove = np.array([m for _s, m in hist], np.int64)
    out = np.zeros(feature_size(n), np.float32)
    features(n, view.seat, np.uint64(view.hand), np.array(view.hand_counts, np.int64),
             hseat, hmove, len(hist), bool(view.rules["strict"]),
             UNLOCKS_U[view.rules["ace"] == "high"], out)
    model, uniform = marginals(view, rng)
    for j in range(1, n):
        s = (view.seat + j) % n
        out[j - 1, :, HISTORY_FEATURES] = model[s]
        out[j - 1, :, HISTORY_FEATURES + 1] = uniform[s]
        out[j - 1, :, HISTORY_FEATURES + 2] = np.log((model[s] + 0.02) / (uniform[s] + 0.02))
    hidden = np.array([not ((view.hand | view.table) >> c & 1) for c in range(52)])
    out[:, ~hidden, :] = 0.0
    return out


class CardNet:
    """The trained network: ``probs(view)`` is ``q[seat, card]``, the chance that
    ``seat`` holds ``card`` (rows of absolute seats; zero for my own seat and for
    cards I can see)."""

    def __init__(self, weights: dict[str, np.ndarray]) -> None:
        self.w = {k: np.asarray(v, np.float32) for k, v in weights.items()
                  if k.startswith(("w", "b"))}
        self.players = int(weights["players"])
        self.rules = {"strict": bool(weights["strict"]), "ace": str(weights["ace"]),
                      "opening": str(weights["opening"])}

    def fits(self, view: Any) -> bool:
        """Whether the network was trained for this view's player count and rules."""
        r = view.rules
        return view.players == self.players and all(r[k] == v for k, v in self.rules.items())

    def logits(self, x: np.ndarray) -> np.ndarray:
        """One logit per (seat, card) row of features ``x[..., FEATURES]``."""
        w = self.w
        h = np.maximum(x @ w["w1"] + w["b1"], 0.0)
        h = np.maximum(h @ w["w2"] + w["b2"], 0.0)
        return (h @ w["w3"] + w["b3"])[..., 0]

    def probs(self, view: Any, rng: Any) -> np.ndarray:
        """``q[seat, card]`` for ``view``; ``rng`` draws the worlds of :func:`marginals`."""
        n, me = view.players, view.seat
        z = self.logits(view_features(view, rng)).astype(np.float64)
        others = [(me + j) % n for j in range(1, n)]
        allowed = np.array([[view.hand_counts[s] > 0] * 52 for s in others])
        allowed &= ~_voids(view, others)
        z = np.where(allowed, z, -np.inf)
        top = z.max(axis=0)
        top = np.where(np.isfinite(top), top, 0.0)
        e = np.exp(z - top)
        tot = e.sum(axis=0)
        q = np.divide(e, tot, out=np.zeros_like(e), where=tot > 0)
        out = np.zeros((n, 52))
        for j, s in enumerate(others):
            out[s] = q[j]
        hidden = np.array([not ((view.hand | view.table) >> c & 1) for c in range(52)])
        return out * hidden


def _voids(view: Any, seats: list[int]) -> np.ndarray:
    """``[i, card]``: seat ``seats[i]`` is proven void in the card (FT-5)."""
    from parlour.games.fantan.determinize import evidence

    ev = evidence(view)
    return np.array([[bool(ev.voids[s] >> c & 1) for c in range(52)] for s in seats])


@cache
def load(players: int) -> CardNet | None:
    """The shipped network for ``players`` seats, or None."""
    path = HERE / f"cardnet_{players}p.npz"
    if not path.exists():
        return None
    with np.load(path) as f:
        return CardNet({k: f[k] for k in f.files})
