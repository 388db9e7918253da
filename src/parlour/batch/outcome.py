"""Who wins a game, from its totals (FA-10, FT-9), vectorised over games."""

from __future__ import annotations

from typing import Any

import numpy as np

from parlour.games import get_game


def winners_mask(game: str, rules: dict[str, Any], totals: np.ndarray,
                 won: np.ndarray) -> np.ndarray:
    """(games, players) bool: each game's winning seats (several on a tie).

    The best total wins (lowest under Fan Tan points); but a Fan Tan game of one round
    is won by that round's winner whatever the chips say (FT-9), ``won[:, 0]``.
    """
    g = get_game(game)
    if g.name == "fantan" and rules["rounds"] == 1:
        return np.arange(totals.shape[1])[None, :] == won[:, :1]
    best = totals.min(axis=1) if g.lower_wins(rules) else totals.max(axis=1)
    return totals == best[:, None]
