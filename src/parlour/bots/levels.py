"""Playing levels and search-bot names, in the one ``make_bot`` registry.

========  =========================================================================
level     bot
========  =========================================================================
easy      ``greedy``: one-move rules
medium    ``heuristic``: the game's hand-written strategy (docs/bots.md)
hard      ``pimc`` with inference and the late-game solver, per move at most
          :data:`HARD` iterations **and** 1 s of wall time
expert    the same engine with :data:`EXPERT` iterations and 3 s
========  =========================================================================

Search bots can also be named with an explicit iteration budget and no time limit,
which makes them reproducible from their seed on any machine (the arena's
benchmarks use these): ``pimc:N``, ``ismcts:N``, ``hard:N`` (hard's engine and
settings at ``N`` iterations), and ``pimc:N:noinfer`` / ``hard:N:noinfer`` with the
opponent-model weighting and the Fan Tan pass voids switched off (uniform worlds).
``pimc`` and ``ismcts`` alone use :data:`DEFAULT_ITERATIONS`.
"""

from __future__ import annotations

from .base import BOTS, Bot, register_factory
from .budget import Budget
from .ismcts import Ismcts
from .pimc import Pimc
from .search_bot import SearchBot

GAMES = ("fantan", "fanti")
HARD = {"fantan": 4000, "fanti": 1200}
"""Iterations per decision for ``hard`` (capped by 1 s of wall time)."""
EXPERT = {"fantan": 12000, "fanti": 3600}
"""Iterations per decision for ``expert`` (capped by 3 s of wall time)."""
DEFAULT_ITERATIONS = 1000
LEVELS = ("easy", "medium", "hard", "expert")


def search_bot(engine: str, game: str, seed: int | None, budget: Budget,
               infer: bool | None = None, label: str | None = None) -> SearchBot:
    """A search bot: ``engine`` is ``pimc`` or ``ismcts``."""
    if engine == "pimc":
        eng = Pimc(game, budget, infer=infer)
    elif engine == "ismcts":
        eng = Ismcts(game, budget, infer=infer)
    else:
        raise ValueError(f"unknown search engine {engine!r}")
    return SearchBot(game, seed, eng, label or engine)


def parse_search_name(name: str, game: str, seed: int | None) -> Bot | None:
    """A bot for names like ``pimc:500``, ``ismcts:2000``, ``hard:300:noinfer``."""
    parts = name.split(":")
    if parts[0] not in ("pimc", "ismcts", "hard") or len(parts) not in (2, 3):
        return None
    try:
        iterations = int(parts[1])
    except ValueError:
        return None
    if iterations < 1 or (len(parts) == 3 and parts[2] != "noinfer"):
        return None
    infer = False if len(parts) == 3 else None
    engine = "pimc" if parts[0] == "hard" else parts[0]
    return search_bot(engine, game, seed, Budget(iterations=iterations), infer, label=name)


def _level(level: str, game: str, seed: int | None) -> Bot:
    if level == "easy":
        return BOTS["greedy"][game](game, seed)
    if level == "medium":
        return BOTS["heuristic"][game](game, seed)
    its, secs = (HARD[game], 1.0) if level == "hard" else (EXPERT[game], 3.0)
    return search_bot("pimc", game, seed, Budget(iterations=its, seconds=secs), label=level)


for _game in GAMES:
    for _lvl in LEVELS:
        register_factory(_lvl, _game, lambda g, s, _l=_lvl: _level(_l, g, s))
    for _engine in ("pimc", "ismcts"):
        register_factory(_engine, _game, lambda g, s, _e=_engine: search_bot(
            _e, g, s, Budget(iterations=DEFAULT_ITERATIONS)))
