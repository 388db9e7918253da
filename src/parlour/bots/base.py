"""The bot interface: a seeded computer player that sees only its seat's view."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from parlour.game import Move
from parlour.games import get_game


class BotFailed(RuntimeError):
    """An entered agent broke off a game (no answer, an illegal move, an exception):
    :mod:`parlour.bots.entrants`."""


class Bot:
    """A computer player: ``choose(view)`` returns one of ``view.legal``.

    Bots are seeded, so the same seed and the same views give the same moves. A bot
    gets only its seat's view (FT-10, FA-7), never the round.
    """

    name = "bot"

    def __init__(self, game: str, seed: int | None = 0) -> None:
        self.game = get_game(game)
        self.rng = random.Random(seed)

    def choose(self, view: Any) -> Move:
        raise NotImplementedError

    def remember(self, views: Sequence[Any]) -> None:
        """This seat's views of the game's earlier rounds, oldest first, for a bot made
        afresh in the middle of a game (the server makes one for every decision) or at
        the start of a new one (``()``). Bots that read their opponents across rounds
        use them (:class:`.search_bot.SearchBot`); the others need nothing."""

    def check_table(self, players: int) -> None:
        """Raise ``ValueError`` in plain words if this bot cannot play a table of
        ``players`` (the ``learned`` bot where it has no weights, say); the arena asks
        before the first game, so nothing plays as something it was not named."""

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.game.name}>"


BotFactory = Callable[[str, int | None], Bot]
"""``factory(game_name, seed) -> Bot``: what a game kit's ``bots.BOTS`` maps names to."""
