"""Playing levels and search bots, generic over every game whose kit offers what
they need.

========  =========================================================================
level     bot
========  =========================================================================
easy      the game's ``greedy`` (its kit's ``bots.BOTS``): one-move rules
medium    the game's ``heuristic``: its hand-written strategy (docs/bots.md)
hard      PIMC with inference and the late-game solver, per move at most the
          game's ``model.HARD`` iterations and :data:`HARD_SECONDS` of search (so at
          most 1 s a move): the game's own engine when its ``model`` part offers
          ``engine(budget, inference)`` (Fan Tan's compiled one), else
          :class:`.pimc.Pimc`
expert    the same engine with ``model.EXPERT`` iterations and
          :data:`EXPERT_SECONDS` (3 s a move), and whatever better judgement the
          game's model offers its expert (:attr:`.models.SearchModel.expert`;
          Fanti 2 players: a deal-end value fitted to self-play)
========  =========================================================================

A level exists for a game when its kit has what it needs: ``easy``/``medium`` the
game's ``greedy``/``heuristic`` bot, the search levels a ``model`` part with a
:class:`~.models.SearchModel`.

Search bots can also be named with an explicit iteration budget and no time limit,
which makes them reproducible from their seed on any machine (the arena's
benchmarks use these): ``pimc:N`` (the generic :class:`.pimc.Pimc`), ``ismcts:N``,
``hard:N`` (hard's engine and settings at ``N`` iterations), ``expert:N`` (expert's
engine at ``N`` iterations), ``deep:N`` (hard's
engine with the model's farther horizon where it offers one), and a third part to set
the world inference (:data:`.determinize.INFERENCE`): ``hard:N:fixed`` (every
opponent read as the heuristic, no per-seat reading), ``hard:N:constraints`` (hard
constraints only, no opponent model), ``hard:N:none`` or ``hard:N:noinfer`` (Fan
Tan pass voids ignored too: uniform worlds), ``hard:N:learned`` / ``hard:N:blend`` (a
game's learned card-location prior instead of / with the opponent model; ``full``
where none fits). ``pimc`` and ``ismcts`` alone use
:data:`DEFAULT_ITERATIONS`.
"""

from __future__ import annotations

from parlour.bots.base import Bot
from parlour.bots.budget import Budget
from parlour.bots.ismcts import Ismcts
from parlour.bots.pimc import Pimc
from parlour.bots.search_bot import SearchBot
from parlour.games import get_kit

HARD_SECONDS, EXPERT_SECONDS = 0.9, 2.8
"""Search time limits, a little under the promised 1 s and 3 s: the check comes
between worlds, so a decision can overrun its limit by one world's evaluation."""
DEFAULT_ITERATIONS = 1000
LEVELS = ("easy", "medium", "hard", "expert")
SEARCH_LEVELS = ("hard", "expert")
ENGINES = ("hard", "expert", "deep", "pimc", "ismcts")
"""Search engines that can be named with an iteration budget (``pimc:500``)."""
INFERENCE_NAMES = {"full": "full", "fixed": "fixed", "constraints": "constraints",
                   "none": "none", "noinfer": "none", "learned": "learned", "blend": "blend"}


PROMISED_SECONDS = {"hard": 1.0, "expert": 3.0}
"""The most a level's decision takes, as promised above (its search stops a little
earlier: :data:`HARD_SECONDS`, :data:`EXPERT_SECONDS`)."""


def time_limit(name: str) -> float | None:
    """The longest a bot of this name thinks over one move, in seconds: a search level's
    promise, 0 for the bots that answer at once (``random``, ``easy``, ``medium``,
    ``learned``...), None for a search with an iteration budget and no time limit
    (``pimc``, ``ismcts``, ``pimc:500``)."""
    key = name.strip().lower()
    if key in PROMISED_SECONDS:
        return PROMISED_SECONDS[key]
    if key in ENGINES or key.split(":")[0] in ENGINES:
        return None
    return 0.0


def searchable(game: str) -> bool:
    """Whether ``game``'s kit offers a search model (and so the search bots)."""
    return get_kit(game).attr("model", "MODEL") is not None


def iterations(game: str, level: str) -> int:
    """The iteration budget of a search level (``hard``/``expert``) for ``game``."""
    if level not in SEARCH_LEVELS:
        raise ValueError(f"{level!r} is not a search level")
    return get_kit(game).need("model", level.upper(), f"the {level} level")


def level_budget(game: str, level: str) -> Budget:
    """What one decision of ``hard``/``expert`` may spend: iterations and seconds."""
    return Budget(iterations=iterations(game, level),
                  seconds=HARD_SECONDS if level == "hard" else EXPERT_SECONDS)


def search_bot(engine: str, game: str, seed: int | None, budget: Budget,
               inference: str | None = None, label: str | None = None) -> SearchBot:
    """A search bot: ``engine`` is ``hard`` (the level's engine for the game),
    ``expert`` (the same with the model's expert judgement where it has one),
    ``deep`` (the same with the model's farther horizon where it has one),
    ``pimc`` or ``ismcts``."""
    kit = get_kit(game)
    kit.need("model", "MODEL", "search bots")
    deep, expert = engine == "deep", engine == "expert"
    if engine in ("hard", "expert", "deep"):
        own = kit.attr("model", "engine")
        if own is not None:
            made = own(budget, inference, deep=True) if deep else own(budget, inference)
            return SearchBot(kit.name, seed, made, label or engine)
        engine = "pimc"
    if engine == "pimc":
        eng = Pimc(kit.name, budget, inference=inference, deep=deep, expert=expert)
    elif engine == "ismcts":
        eng = Ismcts(kit.name, budget, inference=inference)
    else:
        raise ValueError(f"unknown search engine {engine!r}")
    return SearchBot(kit.name, seed, eng, label or engine)


def parse_search_name(name: str, game: str, seed: int | None) -> Bot | None:
    """A bot for names like ``pimc:500``, ``ismcts:2000``, ``hard:300:none``; None
    when ``name`` is not such a name."""
    parts = name.split(":")
    if parts[0] not in ENGINES or len(parts) not in (2, 3):
        return None
    try:
        its = int(parts[1])
    except ValueError:
        return None
    if its < 1 or (len(parts) == 3 and parts[2] not in INFERENCE_NAMES):
        return None
    inference = INFERENCE_NAMES[parts[2]] if len(parts) == 3 else None
    return search_bot(parts[0], game, seed, Budget(iterations=its), inference, label=name)


def level_bot(level: str, game: str, seed: int | None) -> Bot:
    """The bot of a search level (``hard``/``expert``) for ``game``."""
    return search_bot(level, game, seed, level_budget(game, level), label=level)


def engine_bot(engine: str, game: str, seed: int | None) -> Bot:
    """``pimc`` or ``ismcts`` at :data:`DEFAULT_ITERATIONS`."""
    return search_bot(engine, game, seed, Budget(iterations=DEFAULT_ITERATIONS),
                      label=engine)
