"""Between visits: the games waiting on you ("Your move") and what the front page says
of the room (players online, games in play).

"You" is the player of the request's cookie (:func:`parlour.server.identity.player_of`)
and your games are the seats you took (``seat_owners``). Only public facts are listed:
the game, the other players' names, the round, the time left for the move; never a card.
The room's numbers come from the database where several processes share it: the
presence rows (``--cluster``) say who is connected to a table anywhere.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

from fastapi import APIRouter, Request
from sqlalchemy import select

from parlour.server import people
from parlour.server.api import _errors
from parlour.server.db import TABLES
from parlour.server.guard import client_address
from parlour.server.identity import player_of
from parlour.server.limits import bucket_on, refuse_if_waiting

if TYPE_CHECKING:
    from parlour.server.live import LiveTable
    from parlour.server.service import TableService

router = APIRouter()


def waiting_on(t: LiveTable, seat: int) -> bool:
    """Whether the table waits for the person in ``seat`` to move now (no stand-in, no
    pass the server makes for them)."""
    r = t.match.current if t.match is not None and t.status == "playing" else None
    if r is None or r.is_over or r.current_player != seat or seat >= len(t.seats):
        return False
    s = t.seats[seat]
    return (s.kind == "person" and s.token_hash is not None and t.controller(seat) == "person"
            and not t.forced_pass(r))


def entry(t: LiveTable, seat: int, now: float) -> dict[str, Any]:
    """One game of the list, in public facts."""
    timed = bool(t.timer and t.deadline)
    return {"table": t.id, "game": t.game.name, "title": t.game.title, "url": f"/t/{t.id}",
            "seat": seat, "days": t.days,
            "others": [s.name for i, s in enumerate(t.seats) if i != seat],
            "round": t.round_number, "rounds": t.rules.get("rounds"),
            "since": t.updated,
            "deadline": t.deadline if timed else None,
            "left": round(max(0.0, t.deadline - now), 1) if timed and t.deadline else None}


def your_move(svc: TableService, player_id: str, now: float | None = None) -> list[dict[str, Any]]:
    """Every game in play waiting on the player, the most pressing first (the least time
    left, then the longest wait); at most ``your_move_listed``, looking through the
    player's ``your_move_scan`` latest seats."""
    now = time.time() if now is None else now
    settings = svc.settings
    mine = people.seats_of(svc.store.engine, player_id)[:settings.your_move_scan]
    seat_of = {}
    for row in mine:
        seat_of.setdefault(row["table_id"], row["seat"])
    if not seat_of:
        return []
    with svc.store.engine.connect() as c:
        playing = list(c.scalars(select(TABLES.c.id).where(
            TABLES.c.id.in_(list(seat_of)), TABLES.c.status == "playing")))
    out = []
    for tid in playing:
        try:
            t = svc.load(tid)
        except Exception:  # a table that cannot be read is not listed
            continue
        if waiting_on(t, seat_of[tid]):
            out.append(entry(t, seat_of[tid], now))
    out.sort(key=lambda e: (e["deadline"] is None, e["deadline"] or 0.0, e["since"]))
    return out[:settings.your_move_listed]


class RoomCounts:
    """Players online and games in play, counted at most every ``room_counts_every``
    seconds (the front page asks on every visit)."""

    def __init__(self) -> None:
        self._last: tuple[float, dict[str, int]] | None = None

    def get(self, svc: TableService) -> dict[str, int]:
        now = time.monotonic()
        if self._last is not None and now - self._last[0] < svc.settings.room_counts_every:
            return self._last[1]
        counts = {"players_online": players_online(svc), "games_in_play": games_in_play(svc)}
        self._last = (now, counts)
        return counts


def players_online(svc: TableService) -> int:
    """Players online over every process: a live table socket or an open page within
    ``online_window`` (server/presence.py); one person at two tables counts once."""
    return svc.presence.count()


def games_in_play(svc: TableService) -> int:
    """Tables in play, over every process (the database's count)."""
    return len(svc.store.ids_with_status("playing"))


@router.get("/api/your-move", responses=_errors(429), summary="The games in play waiting on "
            "you (the player of this browser's cookie), the most pressing first")
def your_move_list(request: Request) -> dict[str, Any]:
    settings, state = request.app.state.settings, request.app.state
    limit = bucket_on(state, "your_move_limit", settings.your_move_per_minute,
                      settings.your_move_burst)
    refuse_if_waiting(limit.allow(client_address(request.scope, settings)),
                      "too many looks at your games from your address")
    player = player_of(request)
    if player is None:
        return {"games": []}
    return {"games": your_move(request.app.state.service, player.id)}


@router.get("/api/room", responses=_errors(), summary="Players online and games in play")
def room(request: Request) -> dict[str, int]:
    state = request.app.state
    counts = getattr(state, "room_counts", None)
    if counts is None:
        counts = state.room_counts = RoomCounts()
    return counts.get(state.service)
