"""Per-seat opponent modelling: a posterior over a family of player models.

Each other seat is read on its own. A *player model* gives, for one decision, the
probability of each legal move. The family (:data:`FAMILY`):

* ``random``: every legal move alike;
* ``greedy`` and ``heuristic``: the game's own bots;
* ``learned``: the game's shipped policy network (the ``learned`` bot, trained by
  imitation and self-play; where none fits the table it plays as ``greedy``, as the
  bot does);
* ``search``: a player who thinks ahead *as if it saw every hand* -- each legal move
  followed by play to the search horizon, the move best for the seat (what a
  searching player with perfect inference would choose).

Every model but ``random`` makes its own move with probability ``1 - epsilon`` and
another move with ``epsilon`` shared out. After each of the
seat's plays the posterior weight of a model is multiplied by the probability it gave
that play -- averaged over worlds consistent with the public history, since the
seat's hand is hidden -- so a seat that plays like ``random`` is soon treated as
random. A small floor keeps every model possible (people are none of them exactly).

The game supplies the per-decision probabilities (its ``model.OPPONENTS``, a
function ``(view, worlds) -> Posterior``); the search engines turn the posterior into
world weights (how likely the seat's plays are under the mixture) and replies (the
mixture plays for the seat in playouts).

**Earlier rounds of the same game.** Seats keep their players from round to round, so
what a seat showed in the rounds before counts too: :func:`read_earlier` reads each
earlier round as its seat saw it at the end (the game's ``model.read_round``) and
adds up the evidence; the reading of the current round starts from there
(``read_seats(..., start=...)`` in each game). A player who played at random in
round one is read as random from the first play of round two.
"""

from __future__ import annotations

import math
import pickle
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

FAMILY = ("random", "greedy", "heuristic", "learned", "search")
"""The player models, in the order of every probability vector."""
PRIOR = (0.2, 0.2, 0.4, 0.1, 0.1)
"""Before a seat has shown anything: most players play sensibly, most like the
heuristic."""
HEURISTIC_LIKE = ("heuristic", "learned")
"""The models that :func:`collapse` counts as the heuristic: where a model's
probabilities cannot be afforded for every world and move (the weights of worlds),
``learned`` (trained to imitate it) is answered by the heuristic's likelihood, and
``search``, whose plays depend on every hand, counts as uninformative, like
``random``."""
FLOOR = 0.03
"""No model's weight falls below this (renormalised)."""
EPSILON = 0.1
"""A deterministic model's chance of playing another move than its own."""


def choice_probs(k: int, chosen_is: Sequence[bool], epsilon: float = EPSILON) -> list[float]:
    """The family's probabilities of a move among ``k`` legal ones: ``random`` 1/k; each
    deterministic model ``1 - epsilon`` if the move is its own choice (``chosen_is``,
    one per model after ``random``, in :data:`FAMILY` order), else
    ``epsilon / (k - 1)``."""
    if len(chosen_is) != len(FAMILY) - 1:
        raise ValueError(f"one answer per model after random: {', '.join(FAMILY[1:])}")
    miss = epsilon / (k - 1) if k > 1 else 0.0
    return [1.0 / k] + [1.0 - epsilon if hit else miss for hit in chosen_is]


@dataclass
class Posterior:
    """Log-weights of :data:`FAMILY` for each seat read so far."""

    log: dict[int, list[float]] = field(default_factory=dict)
    plays: dict[int, int] = field(default_factory=dict)

    def observe(self, seat: int, probs: Sequence[float]) -> None:
        """One play of ``seat`` that each model gave probability ``probs[i]``."""
        row = self.log.setdefault(seat, [math.log(p) for p in PRIOR])
        for i, p in enumerate(probs):
            row[i] += math.log(max(p, 1e-12))
        self.plays[seat] = self.plays.get(seat, 0) + 1

    def observe_log(self, seat: int, logp: Sequence[float], plays: int = 1) -> None:
        """Several plays of ``seat`` at once: ``logp[i]`` is their joint
        log-probability under model ``i``."""
        row = self.log.setdefault(seat, [math.log(p) for p in PRIOR])
        for i, x in enumerate(logp):
            row[i] += x
        self.plays[seat] = self.plays.get(seat, 0) + plays

    def copy(self) -> Posterior:
        return Posterior({s: list(row) for s, row in self.log.items()}, dict(self.plays))

    def add(self, other: Posterior) -> None:
        """Add the evidence of ``other`` (another round's reading of the same seats)."""
        base = [math.log(p) for p in PRIOR]
        for seat, row in other.log.items():
            self.observe_log(seat, [x - b for x, b in zip(row, base, strict=True)],
                             other.plays.get(seat, 0))

    def weights(self, seat: int) -> list[float]:
        """The posterior of :data:`FAMILY` for ``seat`` (the prior if unread), floored."""
        row = self.log.get(seat)
        if row is None:
            w = list(PRIOR)
        else:
            top = max(row)
            w = [math.exp(x - top) for x in row]
        total = sum(w)
        w = [max(x / total, FLOOR) for x in w]
        total = sum(w)
        return [x / total for x in w]

    def weight(self, seat: int, model: str) -> float:
        return self.weights(seat)[FAMILY.index(model)]

    def collapsed(self, seat: int) -> tuple[float, float, float]:
        """``(uninformative, greedy, heuristic-like)`` of ``seat``: see :func:`collapse`."""
        return collapse(self.weights(seat))

    def describe(self, seats: Iterable[int]) -> dict[int, dict[str, float]]:
        return {s: dict(zip(FAMILY, (round(x, 3) for x in self.weights(s)), strict=True))
                for s in seats}


def collapse(weights: Sequence[float]) -> tuple[float, float, float]:
    """``(uninformative, greedy, heuristic-like)``: weights over :data:`FAMILY` as the
    world weights use them -- ``random`` and ``search`` together, ``greedy``, and the
    :data:`HEURISTIC_LIKE` models together."""
    w = dict(zip(FAMILY, weights, strict=True))
    return w["random"] + w["search"], w["greedy"], sum(w[m] for m in HEURISTIC_LIKE)


def mixture(weights: Sequence[float], probs: Sequence[float]) -> float:
    """The probability of a play under the mixture ``weights`` of the family."""
    return sum(w * p for w, p in zip(weights, probs, strict=True))


CARRY = True
"""Whether the search bots read the earlier rounds of the game (:func:`read_earlier`);
a switch for measuring what it is worth."""


def read_earlier(game: str, views: Sequence[Any]) -> Posterior | None:
    """The evidence of the earlier rounds of a game about every other seat: ``views``
    are the reading seat's views of those rounds (each as it saw the round at its
    end, or at its last decision there), oldest first. None when there is nothing to
    read, the game's model cannot read a round, or :data:`CARRY` is off.

    Deterministic (a round's worlds are drawn from a fixed seed), and remembered per
    process: within a round every decision asks about the same earlier rounds."""
    if not CARRY or not views:
        return None
    total = Posterior()
    for view in views:
        one = _read_round(game, pickle.dumps(view))
        if one is not None:
            total.add(one)
    return total if total.log else None


@lru_cache(maxsize=256)
def _read_round(game: str, key: bytes) -> Posterior | None:
    """One earlier round's reading (a view pickled: the cache's key)."""
    from parlour.games import get_kit

    read_round = get_kit(game).attr("model", "read_round")
    return read_round(pickle.loads(key)) if read_round is not None else None
