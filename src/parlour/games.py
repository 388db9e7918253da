"""The registry of games by name. A new game is one module plus one line here."""

from __future__ import annotations

from .fantan import FANTAN
from .fanti import FANTI
from .game import Game

GAMES: dict[str, Game] = {FANTI.name: FANTI, FANTAN.name: FANTAN}


def get_game(name: str) -> Game:
    """The game called ``name`` (``"fanti"`` or ``"fantan"``; ``"fan-tan"`` also works)."""
    key = name.strip().lower().replace("-", "").replace("_", "").replace(" ", "")
    try:
        return GAMES[key]
    except KeyError:
        raise ValueError(f"unknown game {name!r}; choose one of: {', '.join(GAMES)}") from None
