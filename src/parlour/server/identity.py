"""Who is asking: a player known by a cookie, a guest first.

A browser holds one cookie: a random 256-bit secret (HttpOnly, SameSite=Lax, Secure and
``__Host-`` named when the public URL is https). The database keeps only its SHA-256, in
``sessions``, pointing at a player (``people.PlayerRow``). A first visit that takes a
seat gets a guest (``ensure_player``) whose cookie lasts ``guest_days``; signing up turns
that guest into an account under the same player id (so its seats, games and rating
follow), and signing in or up starts a new session (the secret is rotated).
"""

from __future__ import annotations

import hashlib
import secrets
import time
from dataclasses import dataclass
from typing import Any

from starlette.requests import HTTPConnection, Request
from starlette.responses import Response
from starlette.websockets import WebSocket

from parlour.server import people
from parlour.server.guard import client_address
from parlour.server.limits import PerAddress, bucket_on, refuse_if_waiting
from parlour.server.settings import Settings

COOKIE = "parlour_id"
SECURE_COOKIE = "__Host-parlour_id"
DAY = 86400.0
_NOBODY = object()


@dataclass(frozen=True)
class Player:
    """A person as the server knows them: ``id`` is never shown to anyone."""

    id: str
    name: str
    guest: bool
    banned: str | None = None


def secure(settings: Settings) -> bool:
    """Whether cookies are marked Secure (the public URL is https)."""
    return settings.public_url.lower().startswith("https://")


def cookie_name(settings: Settings) -> str:
    return SECURE_COOKIE if secure(settings) else COOKIE


def digest(secret: str) -> str:
    return hashlib.sha256(secret.encode("utf-8")).hexdigest()


def new_player_id() -> str:
    return secrets.token_urlsafe(16)


def _settings(conn: HTTPConnection) -> Settings:
    return conn.app.state.settings


def _engine(conn: HTTPConnection) -> Any:
    return conn.app.state.service.store.engine


def session_secret(conn: HTTPConnection) -> str | None:
    """The cookie's secret, if it has the shape of one."""
    secret = conn.cookies.get(cookie_name(_settings(conn)))
    if not secret or len(secret) > 64:
        return None
    return secret


def _player(conn: HTTPConnection) -> Player | None:
    cached = conn.scope.get("parlour.player", _NOBODY)
    if cached is not _NOBODY:
        return cached  # type: ignore[return-value]
    secret = session_secret(conn)
    found = None
    if secret is not None:
        row = people.session_player(_engine(conn), digest(secret), time.time())
        if row is not None:
            found = Player(row["id"], row["name"], bool(row["guest"]), row["banned"])
    conn.scope["parlour.player"] = found
    return found


def player_of(request: Request) -> Player | None:
    """The player whose cookie this request carries (None: no live session)."""
    return _player(request)


def player_of_ws(websocket: WebSocket) -> Player | None:
    """The player whose cookie rode the WebSocket's upgrade request."""
    return _player(websocket)


def set_cookie(conn: HTTPConnection, response: Response, secret: str, max_age: float) -> None:
    settings = _settings(conn)
    response.set_cookie(cookie_name(settings), secret, max_age=int(max_age), path="/",
                        httponly=True, samesite="lax", secure=secure(settings))


def clear_cookie(conn: HTTPConnection, response: Response) -> None:
    settings = _settings(conn)
    response.delete_cookie(cookie_name(settings), path="/", httponly=True, samesite="lax",
                           secure=secure(settings))


def start_session(conn: HTTPConnection, response: Response, player: Player,
                  lifetime: float) -> None:
    """A fresh session secret for ``player`` in the cookie; the session the request came
    with (if any) ends: the session id is never kept across a sign-in or sign-up."""
    secret = secrets.token_urlsafe(32)
    old = session_secret(conn)
    people.add_session(_engine(conn), digest(secret), player.id, time.time() + lifetime,
                       replaces=digest(old) if old else None)
    set_cookie(conn, response, secret, lifetime)
    conn.scope["parlour.player"] = player


def end_session(conn: HTTPConnection, response: Response) -> None:
    old = session_secret(conn)
    if old:
        people.end_session(_engine(conn), digest(old))
    clear_cookie(conn, response)
    conn.scope["parlour.player"] = None


def _guest_limit(conn: HTTPConnection) -> PerAddress:
    s = _settings(conn)
    return bucket_on(conn.app.state, "guest_limit", s.guests_per_minute, s.guests_burst)


def ensure_player(request: Request, response: Response) -> Player:
    """The player asking, made a guest (with its cookie on ``response``) on first use.
    New guests are limited per address (``guests_per_minute``: 429 beyond it)."""
    found = player_of(request)
    if found is not None:
        return found
    settings = _settings(request)
    refuse_if_waiting(_guest_limit(request).allow(client_address(request.scope, settings)),
                      "too many new visitors from your address")
    player = Player(new_player_id(), "", True)
    people.add_player(_engine(request), player.id)
    start_session(request, response, player, settings.guest_days * DAY)
    return player
