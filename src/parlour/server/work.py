"""The CPU-heavy work of the server, as plain functions a worker process can run.

Each takes and returns only picklable values: a bot's move for a view, the ranked
hints for a view, the check of an uploaded record, a replay or a review (request bodies
arrive as the bytes the client sent, parsed here; answers leave encoded, so neither
costs the server's event loop more than moving bytes).
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
         earlier: tuple[Any, ...] = ()) -> list[tuple[Move, float, float | None, bool]]:
    """Hints: every legal move with its chance to win, its expected score where the
    game's kit counts hints in points (else None) and whether it is as good as the
    best, best first (:func:`parlour.bots.hints.rich_hints`)."""
    from parlour.bots.hints import rich_hints

    return [(h.move, float(h.value), None if h.points is None else float(h.points),
             h.equal_to_best) for h in rich_hints(game, view, level, seed, earlier)]


class Refused(Exception):
    """A request the work itself refuses (a record that does not check, a review of a
    round that is not there): an HTTP status, a short code and words for people."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status, self.code, self.message = status, code, message


def verify(body: Any) -> dict[str, Any]:
    """An uploaded record's commitments and consistency (:mod:`parlour.server.verify`)."""
    import orjson

    from parlour.server.verify import verify as check

    if isinstance(body, bytes | bytearray):
        try:
            body = orjson.loads(body)
        except orjson.JSONDecodeError:
            raise Refused(400, "bad_request", "the request body is not JSON the server can "
                          "read (malformed, or nested too deeply)") from None
    return check(body).to_json()


def replay(body: Any, max_bytes: int) -> bytes:
    """A record's replay, encoded (:func:`parlour.server.replay.frames`): ``body`` is
    the record as sent (bytes) or a finished table's record."""
    from parlour.server import replay as rp

    try:
        return rp.frames(rp.load(rp.parse(body)), max_bytes)
    except rp.TooLarge as e:
        raise Refused(413, "too_large", str(e)) from None
    except rp.ReplayError as e:
        raise Refused(400, "bad_record", str(e)) from None


def review(body: bytes, table_record: Any, max_moves: int) -> bytes:
    """A review (:func:`parlour.server.replay.review`), encoded. ``body`` is the request
    as sent; ``table_record`` the record of the finished table it names, if any."""
    import orjson
    from pydantic import ValidationError

    from parlour.server import replay as rp
    from parlour.server.protocol import ReviewBody

    try:
        asked = ReviewBody.model_validate(orjson.loads(body))
    except orjson.JSONDecodeError:
        raise Refused(400, "bad_request", "the request body is not JSON the server can "
                      "read (malformed, or nested too deeply)") from None
    except ValidationError as e:
        first = e.errors()[0]
        where = ".".join(str(x) for x in first.get("loc", ()))
        raise Refused(422, "invalid", f"{where}: {first['msg']}" if where
                      else first["msg"]) from None
    if (asked.table is None) == (asked.record is None) or (asked.table is None) != (
            table_record is None):
        raise Refused(400, "bad_request", "name a finished table or send a record, not both")
    try:
        match = rp.load(asked.record if table_record is None else table_record)
        moves = rp.review(match, asked.round, asked.seat, max_moves=max_moves)
    except rp.ReplayError as e:
        raise Refused(400, "bad_request", str(e)) from None
    return orjson.dumps({"round": asked.round, "seat": asked.seat, "moves": moves,
                         "drop": rp.DROP})


def warm() -> None:
    """Load what the first real job would (bots, compiled kernels), so it is quick."""
    from parlour.bots import bot_names
    from parlour.bots.registry import warm as warm_search

    bot_names()
    warm_search()
    # A hint's search needs kernels a bot's move does not: compile (or load) them here,
    # outside any job's CPU budget. A hint stopped by its budget in the middle of a
    # first compile never answered (the terminal client then waited for good).
    import contextlib

    from parlour.bots.hints import hints
    from parlour.bots.models import practice_view
    from parlour.games import KITS, get_game

    for name in KITS:
        game = get_game(name)
        with contextlib.suppress(Exception):  # a game without a search: nothing to load
            hints(game.name, practice_view(game, game.usual_players, 3), "hard")


JOBS = {"choose": choose, "rank": rank, "verify": verify, "replay": replay,
        "review": review, "warm": warm}
