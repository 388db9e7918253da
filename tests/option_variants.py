"""Rule variants drawn from a game's declared options, never from a hand-written list.

Every option with a list of choices counts (``rounds`` has none), but a research variant
(``Option.research``: the small packs, FT-12 and FA-11), which its own tests cover. :func:`option_variants`
gives every value of every option (the defaults, then each other value with the rest at
their defaults) and then a seeded sample of the other combinations, up to ``limit``: a
product that fits is given whole, in ``itertools.product`` order. So an option declared
tomorrow is in every conformance and differential test the day it is declared.
"""

from __future__ import annotations

import itertools
import random
from typing import Any

from parlour.game import Game
from parlour.games import get_game

LIMIT = 16
"""Variants per game at most, unless every value alone needs more."""
SEED = 34


def _game(game: str | Game) -> Game:
    return get_game(game) if isinstance(game, str) else game


def option_product(game: str | Game) -> list[dict[str, Any]]:
    """Every combination of the game's options that have a list of choices."""
    choice = [o for o in _game(game).options if o.choices and not o.research]
    return [dict(zip([o.name for o in choice], values, strict=True))
            for values in itertools.product(*(o.choices for o in choice))]


def option_variants(game: str | Game, limit: int = LIMIT, seed: int = SEED
                    ) -> list[dict[str, Any]]:
    """Every value of every option, then seeded combinations, ``limit`` in all (more
    only when every value needs more); the whole product when it fits."""
    g = _game(game)
    product = option_product(g)
    if len(product) <= limit:
        return product
    choice = [o for o in g.options if o.choices and not o.research]
    defaults = {o.name: o.default for o in choice}
    out = [defaults]
    for o in choice:
        out += [{**defaults, o.name: v} for v in o.choices if v != o.default]
    rest = [v for v in product if v not in out]
    return out + random.Random(seed).sample(rest, max(0, min(len(rest), limit - len(out))))


def variant_id(rules: dict[str, Any]) -> str:
    return "-".join(map(str, rules.values()))
