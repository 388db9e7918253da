"""The bot interface and registry."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from parlour.game import Move
from parlour.games import get_game


class Bot:
    """A computer player: ``choose(view)`` returns one of ``view.legal``.

    Bots are seeded, so the same seed and the same views give the same moves.
    """

    name = "bot"

    def __init__(self, game: str, seed: int | None = 0) -> None:
        self.game = get_game(game)
        self.rng = random.Random(seed)

    def choose(self, view: Any) -> Move:
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.game.name}>"


BotFactory = Callable[[str, int | None], Bot]
BOTS: dict[str, dict[str, BotFactory]] = {}
"""``BOTS[name][game]`` makes that bot for that game."""


def register(name: str, game: str) -> Callable[[type[Bot]], type[Bot]]:
    def deco(cls: type[Bot]) -> type[Bot]:
        BOTS.setdefault(name, {})[game] = cls
        cls.name = name
        return cls
    return deco


def register_factory(name: str, game: str, factory: BotFactory) -> None:
    """Register a function ``factory(game, seed) -> Bot`` under ``name``."""
    BOTS.setdefault(name, {})[game] = factory


def bot_names(game: str | None = None) -> list[str]:
    _load()
    return [n for n, per in BOTS.items() if game is None or get_game(game).name in per]


def make_bot(name: str, game: str, seed: int | None = 0) -> Bot:
    """A bot by name for a game, seeded.

    Names: ``random``, ``greedy``, ``heuristic``, ``pimc``, ``ismcts``, the levels
    ``easy``, ``medium``, ``hard``, ``expert``, and search bots with an explicit
    iteration budget such as ``pimc:500`` (see :mod:`parlour.bots.levels`).
    """
    _load()
    g = get_game(game).name
    key = name.strip().lower()
    if ":" in key:
        from parlour.bots.levels import parse_search_name

        bot = parse_search_name(key, g, seed)
        if bot is not None:
            return bot
    if key not in BOTS or g not in BOTS[key]:
        raise ValueError(f"unknown bot {name!r} for {g}; choose one of: "
                         f"{', '.join(bot_names(g))}")
    return BOTS[key][g](g, seed)


def _load() -> None:
    from parlour.bots import greedy, levels, random_bot  # noqa: F401
    from parlour.games.fantan import heuristic as heuristic_fantan  # noqa: F401
    from parlour.games.fanti import heuristic as heuristic_fanti  # noqa: F401
