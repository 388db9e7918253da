"""The CPU-heavy work of the server, as plain functions a worker process can run.

Each takes and returns only picklable values: a bot's move for a view, the ranked
hints for a view, the check of an uploaded record.
"""

from __future__ import annotations

from typing import Any

from parlour.game import Move


def choose(game: str, bot: str, seed: int, view: Any, seconds: float | None = None,
           earlier: tuple[Any, ...] = ()) -> Move:
    """The move bot ``bot`` (seeded) makes for ``view``; a search bot searches at most
    ``seconds`` when given (a quicker budget than its own). ``earlier``: the seat's
    views of the game's finished rounds (:meth:`parlour.bots.base.Bot.remember`)."""
    from parlour.bots import make_bot

    made = make_bot(bot, game, seed)
    if seconds is not None:
        cap_search(made, seconds)
    made.remember(earlier)
    return made.choose(view)


def cap_search(bot: Any, seconds: float) -> bool:
    """Limit a search bot's time a decision to ``seconds`` (its iterations unchanged);
    False for a bot that does not search."""
    from parlour.bots.budget import Budget

    engine = getattr(bot, "engine", None)
    budget = getattr(engine, "budget", None)
    if not isinstance(budget, Budget):
        return False
    limit = seconds if budget.seconds is None else min(budget.seconds, seconds)
    engine.budget = Budget(iterations=budget.iterations, seconds=limit)
    return True


def rank(game: str, view: Any, level: str, seed: int,
         earlier: tuple[Any, ...] = ()) -> list[tuple[Move, float]]:
    """Hints: every legal move with its estimated value, best first."""
    from parlour.bots.hints import hints

    return [(m, float(v)) for m, v in hints(game, view, level, seed, earlier)]


def verify(data: Any) -> dict[str, Any]:
    """An uploaded record's commitments and consistency (:mod:`parlour.server.verify`)."""
    from parlour.server.verify import verify as check

    return check(data).to_json()


def warm() -> None:
    """Load what the first real job would (bots, compiled kernels), so it is quick."""
    from parlour.bots import bot_names
    from parlour.bots.registry import warm as warm_search

    bot_names()
    warm_search()


JOBS = {"choose": choose, "rank": rank, "verify": verify, "warm": warm}
