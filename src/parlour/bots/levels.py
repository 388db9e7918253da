"""Playing levels and search-bot names, in the one ``make_bot`` registry.

========  =========================================================================
level     bot
========  =========================================================================
easy      ``greedy``: one-move rules
medium    ``heuristic``: the game's hand-written strategy (docs/bots.md)
hard      PIMC with inference and the late-game solver, per move at most
          :data:`HARD` iterations and 0.9 s of search (so at most 1 s a move):
          for Fan Tan the compiled engine :class:`.fast_fantan.FastFanTan`, for
          Fanti :class:`.pimc.Pimc`
expert    the same engine with :data:`EXPERT` iterations and 2.8 s (3 s a move)
========  =========================================================================

Search bots can also be named with an explicit iteration budget and no time limit,
which makes them reproducible from their seed on any machine (the arena's
benchmarks use these): ``pimc:N`` (the Python :class:`.pimc.Pimc`, also for Fan
Tan, for comparison), ``ismcts:N``, ``hard:N`` (hard's engine and settings at ``N``
iterations), and a third part to set the world inference
(:data:`.determinize.INFERENCE`): ``hard:N:constraints`` (hard constraints only,
no opponent model), ``hard:N:none`` or ``hard:N:noinfer`` (Fan Tan pass voids
ignored too: uniform worlds).
``pimc`` and ``ismcts`` alone use :data:`DEFAULT_ITERATIONS`.
"""

from __future__ import annotations

from parlour.bots.base import BOTS, Bot, register_factory
from parlour.bots.budget import Budget
from parlour.bots.ismcts import Ismcts
from parlour.bots.pimc import Pimc
from parlour.bots.search_bot import SearchBot
from parlour.games.fantan.search import FastFanTan

GAMES = ("fantan", "fanti")
HARD = {"fantan": 3000, "fanti": 200}
"""Iterations per decision for ``hard`` (capped by :data:`HARD_SECONDS`)."""
EXPERT = {"fantan": 9000, "fanti": 800}
"""Iterations per decision for ``expert`` (capped by :data:`EXPERT_SECONDS`)."""
HARD_SECONDS, EXPERT_SECONDS = 0.9, 2.8
"""Search time limits, a little under the promised 1 s and 3 s: the check comes
between worlds, so a decision can overrun its limit by one world's evaluation."""
DEFAULT_ITERATIONS = 1000
LEVELS = ("easy", "medium", "hard", "expert")


def search_bot(engine: str, game: str, seed: int | None, budget: Budget,
               inference: str | None = None, label: str | None = None) -> SearchBot:
    """A search bot: ``engine`` is ``hard`` (the level's engine for the game),
    ``pimc`` or ``ismcts``."""
    if engine == "hard":
        if game == "fantan":
            return SearchBot(game, seed, FastFanTan(budget, inference=inference),
                             label or engine)
        engine = "pimc"
    if engine == "pimc":
        eng = Pimc(game, budget, inference=inference)
    elif engine == "ismcts":
        eng = Ismcts(game, budget, inference=inference)
    else:
        raise ValueError(f"unknown search engine {engine!r}")
    return SearchBot(game, seed, eng, label or engine)


def parse_search_name(name: str, game: str, seed: int | None) -> Bot | None:
    """A bot for names like ``pimc:500``, ``ismcts:2000``, ``hard:300:none``."""
    parts = name.split(":")
    if parts[0] not in ("pimc", "ismcts", "hard") or len(parts) not in (2, 3):
        return None
    try:
        iterations = int(parts[1])
    except ValueError:
        return None
    modes = {"full": "full", "constraints": "constraints", "none": "none", "noinfer": "none"}
    if iterations < 1 or (len(parts) == 3 and parts[2] not in modes):
        return None
    inference = modes[parts[2]] if len(parts) == 3 else None
    return search_bot(parts[0], game, seed, Budget(iterations=iterations), inference,
                      label=name)


def _level(level: str, game: str, seed: int | None) -> Bot:
    if level == "easy":
        return BOTS["greedy"][game](game, seed)
    if level == "medium":
        return BOTS["heuristic"][game](game, seed)
    its, secs = ((HARD[game], HARD_SECONDS) if level == "hard"
                 else (EXPERT[game], EXPERT_SECONDS))
    return search_bot("hard", game, seed, Budget(iterations=its, seconds=secs), label=level)


for _game in GAMES:
    for _lvl in LEVELS:
        register_factory(_lvl, _game, lambda g, s, _l=_lvl: _level(_l, g, s))
    for _engine in ("pimc", "ismcts"):
        register_factory(_engine, _game, lambda g, s, _e=_engine: search_bot(
            _e, g, s, Budget(iterations=DEFAULT_ITERATIONS)))
