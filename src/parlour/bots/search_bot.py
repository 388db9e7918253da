"""Bots that search: a :class:`SearchBot` wraps an engine (:mod:`.pimc`, :mod:`.ismcts`).

The bot passes the engine nothing but its view and a random generator drawn from its
own seeded one, so with an iteration budget its moves are reproducible from the seed.
A decision with one legal move is answered at once, without search.
"""

from __future__ import annotations

import random
from typing import Any, Protocol

from parlour.bots.base import Bot
from parlour.bots.pimc import Estimate
from parlour.game import Move


class Engine(Protocol):
    def estimates(self, view: Any, rng: random.Random) -> list[Estimate]: ...


class SearchBot(Bot):
    """A bot that plays the first move of its engine's estimates."""

    def __init__(self, game: str, seed: int | None, engine: Engine, label: str) -> None:
        super().__init__(game, seed)
        self.engine = engine
        self.name = label

    def estimates(self, view: Any) -> list[Estimate]:
        """Every legal move with its value, best first (searching even a forced move)."""
        return self.engine.estimates(view, random.Random(self.rng.getrandbits(64)))

    def choose(self, view: Any) -> Move:
        if len(view.legal) == 1:
            return view.legal[0]
        return self.estimates(view)[0].move

    def __repr__(self) -> str:
        return f"<SearchBot {self.name} {self.game.name}>"
