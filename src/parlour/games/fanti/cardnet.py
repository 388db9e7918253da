"""A learned card-location model for Fanti: which hidden cards each other seat holds.

A small network, trained on self-play records (``scripts/train_fanti_cards.py``),
reads the public history as one seat sees it (FA-7: hands are hidden, every play and
pile is public) and gives, for every card that seat cannot see and every other seat,
the probability that the seat holds it now (rather than another seat or the undealt
deck). Its weights ship in this folder as ``cardnet.npz``; play needs numpy only.

Hands are refilled every deal (FA-3), so what says anything about a hand now is the
seat's plays *of the current deal*: a seat that discarded, or took little, when a card
would have collected more from the table it faced, probably does not hold that card.
The features of a (seat, card) pair (:func:`pair_features`) are the card itself (rank,
Leaf, 2C, 10D), the seat's share of the hidden cards, and, over the seat's plays of
this deal, how often the card could have collected, how often the seat then
discarded, and how much more it would have taken than the play made; with the seat's
reading as a player (:mod:`.opponents`: random / greedy / heuristic) and the player
count, so the network learns how far a play says something about a hand.

The search uses it to weight worlds (:mod:`.search`, ``learned`` and ``blend``
inference): a world's log-weight gains, for each other seat, the sum of the logits
of the cards it deals that seat (for a hand of fixed size that is exactly the
network's independent per-card probabilities conditioned on the size).
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

import numpy as np

from parlour import cards
from parlour.bots.opponents import PRIOR, collapse
from parlour.cards import Mask
from parlour.games.fanti import heuristic as heuristic_fanti
from parlour.games.fanti.rules import (
    LEAVES,
    TEN_OF_DIAMONDS,
    TWO_OF_CLUBS,
    collections,
    pack_mask,
)

HERE = Path(__file__).parent
FEATURES = 34
"""Features of one (other seat, hidden card) pair (:func:`pair_features`)."""


def _best_take(card: int, table: Mask, gtg: bool) -> float:
    """The most ``card`` could collect from ``table`` (with itself), by
    :func:`.heuristic.value`; 0 when it collects nothing."""
    takes = collections(card, table, gtg)
    if not takes:
        return 0.0
    return max(heuristic_fanti.value(t) for t in takes) + heuristic_fanti.value(1 << card)


def view_pairs(view: Any, weights: dict[int, list[float]] | None = None
               ) -> tuple[list[int], list[int], np.ndarray]:
    """Every (other seat with cards, hidden card) pair of ``view`` and their features
    (float32, ``(pairs, FEATURES)``). ``weights``: each seat's posterior over
    :data:`parlour.bots.opponents.FAMILY` (default: the prior)."""
    from parlour.games.fanti.opponents import round_plays

    n, me = view.players, view.seat
    gtg = view.rules["guardian_takes_guardians"]
    seen = view.hand | view.table
    for p in view.piles:
        seen |= p
    hidden = cards.cards_of(pack_mask(view.rules) & ~seen)
    plays: dict[int, list[Any]] = {}
    for play in round_plays(view):
        if play.current:
            plays.setdefault(play.seat, []).append(play)
    seats_out, cards_out, rows = [], [], []
    for s in range(n):
        if s == me or view.hand_counts[s] == 0:
            continue
        w = (weights or {}).get(s, list(PRIOR))
        mine = plays.get(s, [])
        actual = []
        for pl in mine:
            take = pl.move >> 6
            actual.append(heuristic_fanti.value(take | 1 << (pl.move & 63)) if take else 0.0)
        share = view.hand_counts[s] / max(len(hidden), 1)
        dist = (s - me) % n
        for c in hidden:
            x = np.zeros(FEATURES, np.float32)
            x[c % 13] = 1.0
            x[13] = 1.0 if (LEAVES >> c) & 1 else 0.0
            x[14] = 1.0 if c == TWO_OF_CLUBS else 0.0
            x[15] = 1.0 if c == TEN_OF_DIAMONDS else 0.0
            x[16] = share
            x[17] = np.log(share / (1.0 - share)) if 0 < share < 1 else 0.0
            x[18] = len(mine) / 4.0
            could = could_discard = 0
            missed_max, missed_sum = -1.0, 0.0
            for pl, got in zip(mine, actual, strict=True):
                if (pl.later >> c) & 1:
                    continue  # cannot happen for a hidden card; kept for safety
                best = _best_take(c, pl.table, gtg)
                if best > 0:
                    could += 1
                    if not pl.move >> 6:
                        could_discard += 1
                    miss = best - got
                    missed_max = max(missed_max, miss)
                    missed_sum += max(miss, 0.0)
            x[19] = could / 4.0
            x[20] = could_discard / 4.0
            x[21] = max(min(missed_max, 3.0), -1.0) if could else 0.0
            x[22] = min(missed_sum, 4.0)
            x[23] = 1.0 if could and missed_max > 0 else 0.0
            x[24:27] = collapse(w)  # random, greedy, heuristic-like
            x[27 + n - 2] = 1.0  # players: 27..29
            x[30 + dist - 1] = 1.0  # seats after me: 30..32
            x[33] = view.deck_left / 48.0
            seats_out.append(s)
            cards_out.append(c)
            rows.append(x)
    return seats_out, cards_out, (np.array(rows, np.float32) if rows
                                  else np.zeros((0, FEATURES), np.float32))


class CardNet:
    """The trained network: two ReLU layers and one logit per (seat, card) pair."""

    def __init__(self, weights: dict[str, np.ndarray]) -> None:
        self.w = {k: np.asarray(v, np.float32) for k, v in weights.items()}

    def logits(self, x: np.ndarray) -> np.ndarray:
        w = self.w
        h = np.maximum((x - w["mu"]) / w["sd"] @ w["w1"] + w["b1"], 0.0)
        h = np.maximum(h @ w["w2"] + w["b2"], 0.0)
        return (h @ w["w3"] + w["b3"])[:, 0]

    def table(self, view: Any, weights: dict[int, list[float]] | None = None
              ) -> dict[int, dict[int, float]]:
        """``logit[seat][card]`` for every other seat with cards and hidden card."""
        seats, cs, x = view_pairs(view, weights)
        out: dict[int, dict[int, float]] = {}
        if len(seats):
            for s, c, z in zip(seats, cs, self.logits(x), strict=True):
                out.setdefault(s, {})[c] = float(z)
        return out


@cache
def load() -> CardNet | None:
    """The shipped network, or None when the file is absent."""
    path = HERE / "cardnet.npz"
    if not path.exists():
        return None
    with np.load(path) as f:
        return CardNet({k: f[k] for k in f.files})
