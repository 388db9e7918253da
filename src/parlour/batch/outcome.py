"""Who wins a game, from its totals (FA-10, FT-9), vectorised over games."""

from __future__ import annotations

from typing import Any

import numpy as np

from parlour.batch.engine import kernel_for
from parlour.games import get_game


def winners_mask(game: str, rules: dict[str, Any], totals: np.ndarray,
                 won: np.ndarray) -> np.ndarray:
    """(games, players) bool: each game's winning seats (several on a tie), as the
    game's kernel rules them (the best total, unless the game says otherwise)."""
    return kernel_for(game).winners(rules, totals, won, get_game(game).lower_wins(rules))
