"""The registry of games: every package under ``parlour/games/`` is a game.

>>> from parlour.games import get_game, get_kit
>>> get_game("fan-tan").title
'Fan Tan'
>>> {"fantan", "fanti"} <= set(GAMES)     # and any game registered besides
True

A game joins by being a folder here with a ``rules.py`` (see :mod:`parlour.kit`), or,
from outside the package, by :func:`register` or the ``PARLOUR_GAMES`` environment
variable (a comma-separated list of importable packages, read at import).
"""

from __future__ import annotations

import os
import pkgutil

from parlour.game import Game
from parlour.kit import Kit

KITS: dict[str, Kit] = {}
"""Every registered game's kit, by name."""
GAMES: dict[str, Game] = {}
"""Every registered game, by name."""


def register(package: str) -> Kit:
    """Register the game package ``package`` (importable by that dotted name)."""
    kit = Kit(package)
    KITS[kit.name] = kit
    GAMES[kit.name] = kit.game
    return kit


def _key(name: str) -> str:
    return name.strip().lower().replace("-", "").replace("_", "").replace(" ", "")


def get_kit(name: str) -> Kit:
    """The kit of the game called ``name`` (``"fan-tan"`` and ``"Fan Tan"`` also work)."""
    if not isinstance(name, str):
        raise ValueError(f"unknown game {name!r}; choose one of: {', '.join(GAMES)}")
    try:
        return KITS[_key(name)]
    except KeyError:
        raise ValueError(f"unknown game {name!r}; choose one of: {', '.join(GAMES)}") from None


def get_game(name: str) -> Game:
    """The game called ``name`` (``"fanti"`` or ``"fantan"``; ``"fan-tan"`` also works)."""
    return get_kit(name).game


for _info in sorted(pkgutil.iter_modules(__path__), key=lambda i: i.name):
    if _info.ispkg:
        register(f"{__name__}.{_info.name}")
for _package in filter(None, (p.strip() for p in os.environ.get("PARLOUR_GAMES", "").split(","))):
    register(_package)
