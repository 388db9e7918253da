"""Fan Tan opponent reading: each other seat's posterior over the player models of
:mod:`parlour.bots.opponents` (random, greedy, heuristic, learned, search), from its
own plays.

A seat's hand at an earlier decision is its hand now plus the cards it has played
since (:func:`.infer.decisions`); its hand now is hidden, so the probability of the
seat's plays under a model is averaged over worlds within the hard constraints (hand
sizes and FT-5 pass voids) -- the marginal likelihood -- not over the model's own
posterior (which would read every seat as the model it assumes). Forced plays say
nothing and are skipped. A withholding pass (``strict: false``, FT-8) has probability
``1 / (k + 1)`` under ``random`` and ``epsilon`` under the others (they never withhold,
unless the learned policy chose to).

The two costlier models:

* ``learned`` asks the shipped policy network (:mod:`parlour.envs.learned`) what it
  would have played: the seat's observation at that moment is encoded once from the
  public state (the environments' own encoder), and only its hand plane changes from
  world to world, so one batched pass of the network answers every world. Where no
  shipped network fits the table the model is ``greedy`` (the ``learned`` bot refuses it).
* ``search`` is the player who sees every hand: in the world, every seat's hand at
  that moment is its hand now plus what it has played since, and each legal card is
  followed by noise-free heuristic play to the end of the round (the compiled
  playout of :mod:`.search_kernel`); the card best for the seat is its choice.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np

from parlour.bots.opponents import EPSILON, FAMILY, Posterior, choice_probs
from parlour.cards import Mask
from parlour.game import PASS
from parlour.games.fantan.bots import greedy_card
from parlour.games.fantan.heuristic import best_card
from parlour.games.fantan.infer import Decision, decisions
from parlour.games.fantan.kernel import UNLOCKS_U, pass_turn
from parlour.games.fantan.rules import FanTanView

MODELS = len(FAMILY)


@dataclass(frozen=True)
class _Moment:
    """The public state before decision ``t`` of the history."""

    table: Mask
    passes: tuple[int, ...]
    counts: tuple[int, ...]
    since: tuple[Mask, ...]
    """What each seat played from ``t`` on (its hand then = now + this)."""


def _moments(view: FanTanView) -> list[_Moment]:
    n = view.players
    history = view.history
    since = [[0] * n for _ in range(len(history) + 1)]
    for t in range(len(history) - 1, -1, -1):
        seat, move = history[t]
        since[t] = list(since[t + 1])
        if move != PASS:
            since[t][seat] |= 1 << move
    out = []
    table = 0
    passes = [0] * n
    streak = 0
    for t, (seat, move) in enumerate(history):
        counts = tuple(view.hand_counts[s] + since[t][s].bit_count() for s in range(n))
        out.append(_Moment(table, tuple(passes), counts, tuple(since[t])))
        if move == PASS:  # charged as the compiled engines charge it (FT-7, FT-11)
            charge, streak, _blocked = pass_turn.py_func(streak, n)
            passes[seat] += charge
        else:
            table |= 1 << move
            streak = 0
    return out


class _Searcher:
    """The ``search`` model's choices at one decision, in every world at once (the
    compiled :func:`.search_kernel.seeing_choices`)."""

    def __init__(self, view: FanTanView) -> None:
        from parlour.games.fantan import search as S

        rules = view.rules
        self.S = S
        self.n = view.players
        self.dealer = view.dealer
        self.af = int(rules["ace"] == "high")
        self.unlock = UNLOCKS_U[bool(self.af)]
        self.any_seven = rules["opening"] == "any-seven"
        self.strict = bool(rules["strict"])
        self.chips = rules["stakes"] == "chips"

    def choices(self, hands: np.ndarray, seat: int, m: _Moment, playable: Mask,
                legal: Sequence[Mask]) -> list[int]:
        """``hands[w, s]``: every seat's hand at the decision in world ``w``; ``legal[w]``
        the seat's playable cards there (two or more)."""
        out = np.empty(len(legal), np.int64)
        self.S.K.seeing_choices(hands, np.array(legal, np.uint64), self.n,
                                np.uint64(m.table), np.uint64(playable), seat,
                                np.array(m.passes, np.int64), self.dealer, self.unlock,
                                self.any_seven, self.strict, self.chips, self.af,
                                *self.S._TABLES, out)
        return [int(x) for x in out]


@lru_cache(maxsize=8)
def _network(players: int) -> tuple[Any, Any] | None:
    """The shipped policy and its observation encoder at ``players`` (None if none)."""
    from parlour.envs.learned import load, shipped
    from parlour.envs.observation import encoder_for

    if players not in shipped("fantan"):
        return None
    return load("fantan", players), encoder_for("fantan", players)


class _Learned:
    """The ``learned`` model's choices at one decision, for a batch of hands."""

    def __init__(self, view: FanTanView) -> None:
        net = _network(view.players)
        self.policy = None if net is None else net[0]
        if net is not None:
            self.encoder = net[1]
            self.hand_at = self.encoder.offsets["hand"]

    def choices(self, view: FanTanView, seat: int, m: _Moment,
                helds: Sequence[Mask], allowed: Sequence[Mask],
                can_pass: bool) -> list[int] | None:
        """The policy's move for each hand of ``helds`` (its legal cards ``allowed``);
        None where no network fits (the model is then ``greedy``)."""
        if self.policy is None:
            return None
        from parlour.envs.policy import ViewMatch
        from parlour.games import get_game

        past = FanTanView(seat, view.players, view.dealer, view.rules, 0, m.table, m.counts,
                          m.passes, (), seat, (), None, -1)
        obs = self.encoder.encode(ViewMatch(get_game("fantan"), past), seat)  # type: ignore[arg-type]
        batch = np.tile(obs, (len(helds), 1))
        raw = np.array(helds, np.uint64).view(np.uint8).reshape(len(helds), 8)
        bits = np.unpackbits(raw, axis=1, bitorder="little")[:, :52]
        batch[:, self.hand_at:self.hand_at + 52] = bits
        z = self.policy.logits(batch)
        ok = np.zeros(z.shape, np.bool_)
        raw = np.array(allowed, np.uint64).view(np.uint8).reshape(len(allowed), 8)
        ok[:, :52] = np.unpackbits(raw, axis=1, bitorder="little")[:, :52]
        ok[:, PASS] = can_pass
        return [int(x) for x in np.argmax(np.where(ok, z, -np.inf), axis=1)]


def read_seats(view: FanTanView, worlds: Sequence[Sequence[int]],
               epsilon: float = EPSILON, start: Posterior | None = None) -> Posterior:
    """The posterior of every other seat of ``view``; ``worlds[w][seat]`` are current
    hands consistent with the view (the seat's own hand is ignored). ``start``: the
    evidence of the game's earlier rounds (:func:`parlour.bots.opponents.read_earlier`)."""
    ace_high = view.rules["ace"] == "high"
    loose = not view.rules["strict"]
    post = start.copy() if start is not None else Posterior()
    per_seat = decisions(view)
    if not any(per_seat.values()):
        return post
    moments = _moments(view)
    searcher = _Searcher(view)
    learned = _Learned(view)
    n, me = view.players, view.seat
    now = [[int(w[s]) if s != me else view.hand for s in range(n)] for w in worlds]
    memo: dict[tuple[Mask, Mask], tuple[int, int]] = {}
    for seat, decs in per_seat.items():
        # joint[w][i]: the log-probability of all the seat's plays under model i in world w
        joint = [[0.0] * MODELS for _ in worlds]
        for d in decs:
            for w, p in enumerate(_decision_probs(view, seat, d, moments[d.t], now,
                                                  searcher, learned, memo, ace_high,
                                                  loose, epsilon)):
                for i in range(MODELS):
                    joint[w][i] += math.log(max(p[i], 1e-12))
        if decs and joint:
            post.observe_log(seat, [_log_mean_exp([x[i] for x in joint])
                                    for i in range(MODELS)], len(decs))
    return post


def _decision_probs(view: FanTanView, seat: int, d: Decision, m: _Moment,
                    now: list[list[int]], searcher: _Searcher, learned: _Learned,
                    memo: dict[tuple[Mask, Mask], tuple[int, int]], ace_high: bool,
                    loose: bool, epsilon: float) -> list[list[float]]:
    """Per world, the family's probabilities of the seat's play at decision ``d``."""
    helds = [h[seat] | d.later for h in now]
    alloweds = [held & d.playable for held in helds]
    mine = learned.choices(view, seat, m, helds, alloweds, loose)
    free = [w for w, (held, legal) in enumerate(zip(helds, alloweds, strict=True))
            if d.chosen != PASS and legal.bit_count() >= 2 and legal >> d.chosen & 1]
    seen: dict[int, int] = {}
    if free:
        hands = np.array([[now[w][s] | m.since[s] for s in range(view.players)]
                          for w in free], np.uint64)
        seen = dict(zip(free, searcher.choices(hands, seat, m, d.playable,
                                               [alloweds[w] for w in free]), strict=True))
    out = []
    for w, (held, legal) in enumerate(zip(helds, alloweds, strict=True)):
        k = legal.bit_count()
        if d.chosen == PASS:
            if not k:
                out.append([1.0] * MODELS)
                continue
            lp = mine is not None and mine[w] == PASS
            out.append([1.0 / (k + 1), epsilon, epsilon, 1 - epsilon if lp else epsilon,
                        epsilon])
            continue
        if k < 2:
            out.append([1.0] * MODELS if legal >> d.chosen & 1 else [0.0] * MODELS)
            continue
        if not legal >> d.chosen & 1:
            out.append([0.0] * MODELS)  # impossible in this world
            continue
        bots = memo.get((held, legal))
        if bots is None:
            bots = memo[held, legal] = (greedy_card(held, legal, ace_high),
                                        best_card(held, legal, ace_high))
        greedy, heur = bots
        learn = greedy if mine is None else mine[w]
        out.append(choice_probs(k, (greedy == d.chosen, heur == d.chosen,
                                    learn == d.chosen, seen[w] == d.chosen), epsilon))
    return out


def _log_mean_exp(xs: list[float]) -> float:
    top = max(xs)
    return top + math.log(sum(math.exp(x - top) for x in xs) / len(xs))

