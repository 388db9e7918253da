"""The HTTP side of people: who am I (``/api/me``)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request

from parlour.server import standings
from parlour.server.api import _errors
from parlour.server.identity import Player, player_of

router = APIRouter(prefix="/api")


def ratings_for(request: Request, player: Player) -> dict[str, Any]:
    """``{GAME: {"rating", "games", "provisional", ...}}`` of a player
    (:func:`parlour.server.standings.player_ratings`)."""
    svc = request.app.state.service
    return standings.player_ratings(svc.store, player.id, svc.settings)


def me(request: Request, player: Player | None) -> dict[str, Any]:
    """What a player may know of themselves (never their id)."""
    if player is None:
        return {"name": "", "guest": True, "known": False, "ratings": {}}
    return {"name": player.name, "guest": player.guest, "known": True,
            "ratings": ratings_for(request, player)}


@router.get("/me", responses=_errors(), summary="Who this browser is: a guest or an account")
def get_me(request: Request) -> dict[str, Any]:
    return me(request, player_of(request))
