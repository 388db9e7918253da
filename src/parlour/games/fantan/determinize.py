"""Fan Tan determinizer: deal the unseen cards consistently with the table and passes.

What a seat knows (FT-10): its own hand, the table, every hand's size, and the whole
history of plays and passes. From the history it rebuilds, pass by pass, the cards
that were playable at that moment. Under ``strict: true`` a pass proves the passer
held none of them (FT-5), and hands only shrink, so that *void* lasts all round.
Under ``strict: false`` a pass may be a withholding, so it proves nothing.

The unseen cards are then shared among the other seats with exactly their hand
sizes and none of their void cards (:func:`.determinize.sample_hands`), each seat's
starting hand is that plus the cards it has played, and the deck is arranged so the
FT-1 deal gives those hands.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from parlour import cards
from parlour.bots.determinize import deck_for_hands, sample_hands
from parlour.cards import Mask
from parlour.game import PASS
from parlour.games.fantan.infer import Likelihood, metropolis
from parlour.games.fantan.rules import FANTAN, SEVENS, UNLOCKS, FanTanRound, FanTanView, pack_mask

BETA = 0.5
"""Tempering of the opponent-model likelihood (1 = the model taken at its word)."""
EPSILON = 0.1
"""The opponent model's chance of not making the heuristic's play."""
CHAINS = 8
"""Independent chains per pool: a sharp posterior mixes slowly, and one chain would
give a pool of near-copies."""


@dataclass(frozen=True)
class Evidence:
    """What the public history proves about the hidden hands."""

    played: tuple[Mask, ...]
    """The cards each seat has played."""
    voids: tuple[Mask, ...]
    """Cards each seat cannot hold (from strict passes); empty without ``strict``."""


def evidence(view: FanTanView) -> Evidence:
    """Replay the public history on the table alone to collect plays and pass voids."""
    n = view.players
    unlock = UNLOCKS[view.rules["ace"] == "high"]
    strict = view.rules["strict"]
    played, voids = [0] * n, [0] * n
    table, playable = 0, SEVENS
    for seat, move in view.history:
        if move == PASS:
            if strict:
                voids[seat] |= playable  # held nothing that fitted (FT-5)
            continue
        played[seat] |= 1 << move
        table |= 1 << move
        playable = (playable ^ (1 << move)) | unlock[move]
    return Evidence(tuple(played), tuple(voids))


class FanTanDeterminizer:
    """Deals Fan Tan worlds consistent with a view (see the module docstring)."""

    def __init__(self) -> None:
        self._last: tuple[Any, Evidence] | None = None

    def evidence(self, view: FanTanView) -> Evidence:
        """:func:`evidence`, remembered for the last view asked about."""
        if self._last is None or self._last[0] is not view:
            self._last = (view, evidence(view))
        return self._last[1]

    def unseen(self, view: FanTanView) -> Mask:
        return pack_mask(view.rules) & ~(view.hand | view.table)

    def hands(self, view: FanTanView, rng: random.Random,
              constrained: bool = True) -> list[Mask]:
        """Current hands of every seat in one sampled world (mine as it is); with
        ``constrained`` false the pass voids are ignored."""
        ev = self.evidence(view)
        others = [s for s in range(view.players) if s != view.seat]
        unseen = self.unseen(view)
        hidden = sample_hands(cards.cards_of(unseen), others,
                              [view.hand_counts[s] for s in others],
                              [ev.voids[s] if constrained else 0 for s in others], rng)
        out = [0] * view.players
        out[view.seat] = view.hand
        for s, h in zip(others, hidden, strict=True):
            out[s] = h
        return out

    def deal(self, view: Any, rng: random.Random, constrained: bool = True) -> FanTanRound:
        return self._start(view, self.hands(view, rng, constrained))

    def tidy(self, world: FanTanRound) -> None:
        """After an unchecked replay under ``strict: true``: forget the withholdings
        the replay recorded (they only exist because the world broke a pass void)."""
        if world.rules["strict"]:
            world.withholdings.clear()

    def _start(self, view: FanTanView, now: list[Mask]) -> FanTanRound:
        """The starting round whose deal leads to the current hands ``now``."""
        ev = self.evidence(view)
        start = [now[s] | ev.played[s] for s in range(view.players)]
        deck = deck_for_hands(view.players, view.dealer, start)
        return FANTAN.new_round(view.rules, view.players, view.dealer, deck)

    def posterior(self, view: FanTanView, count: int, rng: random.Random,
                  beta: float | None = None,
                  epsilon: float | None = None) -> list[FanTanRound]:
        """``count`` starting rounds drawn from the tempered posterior of the
        heuristic opponent model (:mod:`.infer`): :data:`CHAINS` independent
        Metropolis chains, each started from its own constrained deal, burnt in and
        thinned, always within the hard constraints."""
        beta = BETA if beta is None else beta
        ev = self.evidence(view)
        like = Likelihood(view, EPSILON if epsilon is None else epsilon)
        others = [s for s in range(view.players) if s != view.seat]
        voids = {s: ev.voids[s] for s in others}
        unseen = self.unseen(view).bit_count()
        out: list[FanTanRound] = []
        chains = max(1, min(CHAINS, count))
        for c in range(chains):
            now = self.hands(view, rng)
            hands = {s: now[s] for s in others}
            ll = metropolis(hands, voids, like, rng, 4 * unseen, beta)
            for _ in range(count // chains + (c < count % chains)):
                ll = metropolis(hands, voids, like, rng, max(2, unseen // 3), beta, ll)
                for s in others:
                    now[s] = hands[s]
                out.append(self._start(view, now))
        return out
