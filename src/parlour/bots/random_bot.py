"""``random``: a uniformly random legal move."""

from __future__ import annotations

from typing import Any

from parlour.bots.base import Bot, register
from parlour.game import Move


@register("random", "fantan")
@register("random", "fanti")
class RandomBot(Bot):
    def choose(self, view: Any) -> Move:
        return self.rng.choice(view.legal)
