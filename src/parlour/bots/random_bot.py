"""``random``: a uniformly random legal move."""

from __future__ import annotations

from typing import Any

from ..game import Move
from .base import Bot, register


@register("random", "fantan")
@register("random", "fanti")
class RandomBot(Bot):
    def choose(self, view: Any) -> Move:
        return self.rng.choice(view.legal)
