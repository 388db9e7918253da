"""The ratings' HTTP side: ``/api/leaderboard/{game}``, ``/api/players/{name}`` and the
pages ``/leaderboard/{game}`` and ``/u/{name}`` (drawn by ``web/static/js/players.js``).

The reads run in a thread (``def`` routes: the database is not read on the event
loop) and are limited per address (``standings_per_minute``: 429 with Retry-After).
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Query, Request
from fastapi.responses import Response

from parlour.games import KITS
from parlour.server import standings
from parlour.server.api import _errors
from parlour.server.errors import ServiceError
from parlour.server.guard import client_address
from parlour.server.limits import bucket_on, refuse_if_waiting
from parlour.server.room import _page

router = APIRouter()


def _admit(request: Request) -> None:
    settings = request.app.state.settings
    limit = bucket_on(request.app.state, "standings_limit", settings.standings_per_minute,
                      settings.standings_burst)
    refuse_if_waiting(limit.allow(client_address(request.scope, settings)),
                      "too many looks at ratings from your address")


@router.get("/api/leaderboard/{game}", responses=_errors(400, 404, 429),
            summary="The best rated players of a game (one table size: ?pool=)")
def leaderboard(request: Request, game: str,
                pool: str | None = Query(None, max_length=32)) -> dict[str, Any]:
    _admit(request)
    svc = request.app.state.service
    return standings.leaderboard(svc.store, game, pool, svc.settings)


@router.get("/api/players/{name}", responses=_errors(404, 429),
            summary="A player's ratings, rating history, recent games and opponents")
def player(request: Request, name: str) -> dict[str, Any]:
    _admit(request)
    svc = request.app.state.service
    return standings.profile(svc.store, name, svc.settings)


@router.get("/leaderboard/{game}", include_in_schema=False)
def leaderboard_page(request: Request, game: str) -> Response:
    if game not in KITS:
        raise ServiceError(404, "not_found", f"there is no game {game[:40]!r}")
    return _page(request)


@router.get("/u/{name}", include_in_schema=False)
def profile_page(request: Request, name: str) -> Response:
    return _page(request)
