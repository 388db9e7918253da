"""The CPU-heavy work of the server, as plain functions a worker process can run.

Each takes and returns only picklable values: a bot's move for a view, the ranked
hints for a view, the check of an uploaded record.
"""

from __future__ import annotations

from typing import Any

from parlour.game import Move


def choose(game: str, bot: str, seed: int, view: Any) -> Move:
    """The move bot ``bot`` (seeded) makes for ``view``."""
    from parlour.bots import make_bot

    return make_bot(bot, game, seed).choose(view)


def rank(game: str, view: Any, level: str, seed: int) -> list[tuple[Move, float]]:
    """Hints: every legal move with its estimated value, best first."""
    from parlour.bots.hints import hints

    return [(m, float(v)) for m, v in hints(game, view, level, seed)]


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
