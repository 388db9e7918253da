"""Bots that search: a :class:`SearchBot` wraps an engine (:mod:`.pimc`, :mod:`.ismcts`).

The bot passes the engine nothing but its view and a random generator drawn from its
own seeded one, so with an iteration budget its moves are reproducible from the seed.
A decision with one legal move is answered at once, without search.

A bot that plays a whole game keeps its views of the earlier rounds (the last one it
saw of each: a view that does not continue the one before starts a new round), and
the engine reads each opponent starting from what those rounds showed
(:func:`.opponents.read_earlier`). A bot made for one decision is told them
(:meth:`SearchBot.remember`), as the server does with the seat's views of the
finished rounds.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, Protocol

from parlour.bots.base import Bot
from parlour.bots.opponents import read_earlier
from parlour.bots.pimc import Estimate
from parlour.game import Move


class Engine(Protocol):
    def estimates(self, view: Any, rng: random.Random) -> list[Estimate]: ...


MAX_EARLIER = 12
"""The most earlier rounds a bot reads (the latest), so a long game costs no more to
read than this many rounds."""


def continues(before: Any, after: Any) -> bool:
    """Whether view ``after`` is of the same round as ``before``, later or the same."""
    return (after.players == before.players and after.dealer == before.dealer
            and after.history[:len(before.history)] == before.history)


class SearchBot(Bot):
    """A bot that plays the first move of its engine's estimates."""

    def __init__(self, game: str, seed: int | None, engine: Engine, label: str) -> None:
        super().__init__(game, seed)
        self.engine = engine
        self.name = label
        self.earlier: list[Any] = []
        """This seat's views of the game's earlier rounds, oldest first."""
        self._last: Any = None

    def remember(self, views: Sequence[Any]) -> None:
        self.earlier = list(views)[-MAX_EARLIER:]
        self._last = None

    def estimates(self, view: Any) -> list[Estimate]:
        """Every legal move with its value, best first (searching even a forced move)."""
        self._follow(view)
        if hasattr(self.engine, "earlier"):
            self.engine.earlier = read_earlier(self.game.name, self.earlier)
        return self.engine.estimates(view, random.Random(self.rng.getrandbits(64)))

    def choose(self, view: Any) -> Move:
        if len(view.legal) == 1:
            self._follow(view)
            return view.legal[0]
        return self.estimates(view)[0].move

    def _follow(self, view: Any) -> None:
        """Keep the last view of each round: a view that does not continue the last
        one seen belongs to a new round."""
        last = self._last
        if last is not None and view is not last and not continues(last, view):
            self.earlier = [*self.earlier, last][-MAX_EARLIER:]
        self._last = view

    def __repr__(self) -> str:
        return f"<SearchBot {self.name} {self.game.name}>"
