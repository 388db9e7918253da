"""``random``: a uniformly random legal move, for any game."""

from __future__ import annotations

from typing import Any

from parlour.bots.base import Bot
from parlour.game import Move


class RandomBot(Bot):
    name = "random"

    def choose(self, view: Any) -> Move:
        return self.rng.choice(view.legal)
