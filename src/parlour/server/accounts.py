"""The HTTP side of people: who am I, accounts, sessions, export and deletion.

* ``GET /api/me``: this browser's player (a guest, an account, or nobody yet).
* ``POST /api/accounts``: sign up with a name and a password (argon2id). A guest who
  signs up keeps their player id, so their seats, games and rating follow.
* ``POST /api/session`` / ``DELETE /api/session``: sign in (a new session id: the
  one the browser came with ends) and out; ``DELETE /api/sessions``: everywhere.
* ``POST /api/me/password``, ``PATCH /api/me`` (a guest's name), ``GET /api/me/export``,
  ``GET /api/me/tables``, ``DELETE /api/me`` (the account and its personal data; the
  records of finished games keep the seat under :data:`people.FORMER`).

A failed sign-in says the same words with the same status whether the name exists or
not, after the same work (``passwords.Passwords.verify``); attempts are limited per
address and per name. Cross-site requests carrying the cookie are refused by the
guard (``guard.py``: CSRF).
"""

from __future__ import annotations

import math
import time
from typing import Annotated, Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response
from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy.exc import IntegrityError

from parlour.server import names, people, rated, standings
from parlour.server.api import _errors
from parlour.server.errors import ServiceError
from parlour.server.guard import client_address, public_base
from parlour.server.identity import (
    DAY,
    Player,
    end_session,
    new_player_id,
    player_of,
    session_secret,
    start_session,
)
from parlour.server.limits import PerAddress
from parlour.server.pages import page
from parlour.server.passwords import Passwords

router = APIRouter(prefix="/api")
pages = APIRouter()

Password = Annotated[str, Field(max_length=1024)]
AccountName = Annotated[str, Field(max_length=64)]
WRONG = "the name or the password is wrong"
"""The one answer to a failed sign-in, whether the name exists or not."""


class Credentials(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: AccountName
    password: Password


class NewPassword(BaseModel):
    model_config = ConfigDict(extra="forbid")

    password: Password
    new_password: Password


class GuestName(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: AccountName


class Confirm(BaseModel):
    model_config = ConfigDict(extra="forbid")

    password: Password | None = None
    confirm: AccountName | None = None
    """Accounts without a password (passkeys only) type their name to confirm."""


class Shared:
    """A token bucket per key kept in the service's quotas (``server/quotas.py``): in
    ``--cluster`` the database, so every process counts against one budget. Keys (an
    address, a casefolded name) are stored only as an HMAC under the server secret."""

    def __init__(self, quotas: Any, what: str, rate: float, burst: int) -> None:
        self.quotas, self.what, self.rate, self.burst = quotas, what, rate, burst

    def allow(self, key: str) -> float:
        """0.0 if ``key`` may go ahead now (a token is taken), else the seconds to wait."""
        return self.quotas.take(f"{self.what}:{self.quotas.address_key(key)}",
                                self.rate, self.burst)


class Gate:
    """The limits and the password hasher of one app (made on first use). The sign-in,
    sign-up and passkey limits are shared by every process of a cluster."""

    def __init__(self, request: Request) -> None:
        s = request.app.state.settings
        quotas = request.app.state.service.limits
        self.passwords = Passwords(s)
        self.signin_address = Shared(quotas, "signin-addr", s.signin_per_minute / 60.0,
                                     s.signin_burst)
        self.signin_name = Shared(quotas, "signin-name", s.signin_name_per_minute / 60.0,
                                  s.signin_name_burst)
        self.signup = Shared(quotas, "signup", s.signup_per_minute / 60.0, s.signup_burst)
        self.passkey_options = Shared(quotas, "passkey-options",
                                      s.passkey_options_per_minute / 60.0,
                                      s.passkey_options_burst)
        self.reads = PerAddress(s.me_per_minute / 60.0, s.me_burst)

    @staticmethod
    def of(request: Request) -> Gate:
        state = request.app.state
        gate = getattr(state, "accounts_gate", None)
        if gate is None:
            gate = state.accounts_gate = Gate(request)
        return gate


def _limited(wait: float, what: str) -> ServiceError:
    s = math.ceil(wait)
    return ServiceError(429, "rate_limited", f"too many {what}: try again in {s} s",
                        {"Retry-After": str(s)})


def _reads(request: Request) -> None:
    """The per-address limit on the other account requests (``me_per_minute``)."""
    wait = Gate.of(request).reads.allow(_addr(request))
    if wait > 0:
        raise _limited(wait, "requests from your address")


def _engine(request: Request) -> Any:
    return request.app.state.service.store.engine


def _addr(request: Request) -> str:
    return client_address(request.scope, request.app.state.settings)


def _lifetime(request: Request) -> float:
    return request.app.state.settings.session_days * DAY


def name_key(raw: str) -> str:
    """The key an account name is unique by (case, width and look-alikes folded)."""
    try:
        shown = names.clean(raw)
    except names.BadName:
        shown = raw.strip()
    return names.key(shown)


def account_name(raw: str) -> str:
    """The name as an account holds it, or 400 with the reason."""
    why = names.refusal(raw)
    if why is None and names.key(names.clean(raw)) == names.key(people.FORMER):
        why = f"{people.FORMER!r} is what the card room calls a deleted account"
    if why is not None:
        raise ServiceError(400, "bad_name", why)
    return names.clean(raw)


def signed_in(request: Request) -> Player:
    player = player_of(request)
    if player is None or player.guest:
        raise ServiceError(401, "not_signed_in", "sign in first")
    return player


def ratings_for(request: Request, player: Player) -> dict[str, Any]:
    """``{GAME: {"rating", "games", "provisional", ...}}`` of a player
    (:func:`parlour.server.standings.player_ratings`)."""
    svc = request.app.state.service
    return standings.player_ratings(svc.store, player.id, svc.settings)


def me(request: Request, player: Player | None) -> dict[str, Any]:
    """What a player may know of themselves (never their id)."""
    if player is None:
        return {"name": "", "guest": True, "known": False, "ratings": {}}
    out = {"name": player.name, "guest": player.guest, "known": True,
           "ratings": ratings_for(request, player)}
    if not player.guest:
        row = people.get_player(_engine(request), player.id) or {}
        out["password"] = bool(row.get("password"))
        out["passkeys"] = len(people.passkeys_of(_engine(request), player.id))
    return out


@router.get("/me", responses=_errors(429), summary="Who this browser is: a guest or an account")
def get_me(request: Request) -> dict[str, Any]:
    _reads(request)
    return me(request, player_of(request))


@router.post("/accounts", status_code=201, responses=_errors(400, 409, 429),
             summary="Sign up with a name and a password (a guest keeps their games)")
async def sign_up(request: Request, response: Response, body: Credentials) -> dict[str, Any]:
    gate = Gate.of(request)
    name = account_name(body.name)
    why = gate.passwords.refusal(body.password, name)
    if why is not None:
        raise ServiceError(400, "weak_password", why)
    current = player_of(request)
    if current is not None and not current.guest:
        raise ServiceError(409, "signed_in", "you are signed in to an account: sign out to "
                           "make another")
    key = names.key(name)
    engine = _engine(request)
    taken = ServiceError(409, "name_taken", f"there is already an account called {name}: "
                         "choose another name")
    if people.player_by_key(engine, key) is not None:
        raise taken
    wait = gate.signup.allow(_addr(request))  # (refusals above cost no hash: not counted)
    if wait > 0:
        raise _limited(wait, "new accounts from your address")
    hashed = await gate.passwords.hash(body.password)
    try:
        if current is not None:  # the guest becomes the account: same id, same games
            people.set_player(engine, current.id, name=name, name_key=key, guest=False,
                              password=hashed)
            player = Player(current.id, name, False, current.banned)
        else:
            player = Player(new_player_id(), name, False)
            people.add_player(engine, player.id, name, guest=False, name_key=key,
                              password=hashed)
    except IntegrityError:
        raise taken from None
    start_session(request, response, player, _lifetime(request))
    return me(request, player)


@router.post("/session", responses=_errors(400, 401, 403, 429),
             summary="Sign in with a name and a password")
async def sign_in(request: Request, response: Response, body: Credentials) -> dict[str, Any]:
    gate = Gate.of(request)
    key = name_key(body.name)
    wait = max(gate.signin_address.allow(_addr(request)), gate.signin_name.allow(key))
    if wait > 0:
        raise _limited(wait, "sign-in attempts")
    engine = _engine(request)
    row = people.player_by_key(engine, key)
    ok = await gate.passwords.verify(row["password"] if row else None, body.password)
    if not ok or row is None:
        raise ServiceError(401, "wrong_sign_in", WRONG)
    if row["banned"]:
        raise ServiceError(403, "banned", f"this account is banned: {row['banned']}")
    if gate.passwords.needs_rehash(row["password"]):
        people.set_player(engine, row["id"], password=await gate.passwords.hash(body.password))
    player = Player(row["id"], row["name"], False, row["banned"])
    start_session(request, response, player, _lifetime(request))
    return me(request, player)


@router.delete("/session", responses=_errors(429), summary="Sign out (this browser)")
def sign_out(request: Request, response: Response) -> dict[str, Any]:
    _reads(request)
    end_session(request, response)
    return me(request, None)


@router.delete("/sessions", responses=_errors(401, 429), summary="Sign out everywhere")
def sign_out_everywhere(request: Request, response: Response) -> dict[str, Any]:
    _reads(request)
    player = signed_in(request)
    people.end_sessions(_engine(request), player.id)
    end_session(request, response)
    return me(request, None)


@router.post("/me/password", responses=_errors(400, 401, 429),
             summary="Change the password (other sessions end)")
async def change_password(request: Request, response: Response,
                          body: NewPassword) -> dict[str, Any]:
    player = signed_in(request)
    gate = Gate.of(request)
    wait = max(gate.signin_address.allow(_addr(request)),
               gate.signin_name.allow(names.key(player.name)))
    if wait > 0:
        raise _limited(wait, "password attempts")
    engine = _engine(request)
    row = people.get_player(engine, player.id) or {}
    if not await gate.passwords.verify(row.get("password"), body.password):
        raise ServiceError(401, "wrong_password", "the current password is wrong")
    why = gate.passwords.refusal(body.new_password, player.name)
    if why is not None:
        raise ServiceError(400, "weak_password", why)
    people.set_player(engine, player.id, password=await gate.passwords.hash(body.new_password))
    people.end_sessions(engine, player.id)
    start_session(request, response, player, _lifetime(request))
    return me(request, player)


@router.patch("/me", responses=_errors(400, 401, 409, 429),
              summary="A guest's name (an account's name stays)")
def rename_guest(request: Request, body: GuestName) -> dict[str, Any]:
    _reads(request)
    player = player_of(request)
    if player is None:
        raise ServiceError(401, "not_signed_in", "take a seat first: then this browser "
                           "has a name to change")
    if not player.guest:
        raise ServiceError(409, "account_name", "an account keeps the name it was made with")
    name = account_name(body.name)
    if people.player_by_key(_engine(request), names.key(name)) is not None:
        raise ServiceError(409, "name_taken", f"{name} is the name of an account: choose "
                           "another name")
    people.set_player(_engine(request), player.id, name=name)
    updated = Player(player.id, name, True, player.banned)
    request.scope["parlour.player"] = updated
    return me(request, updated)


@router.get("/me/tables", responses=_errors(429), summary="The tables where you hold a seat")
def my_tables(request: Request) -> list[dict[str, Any]]:
    """Tables waiting or in play where this player holds a seat: the page offers to
    take each back (``POST /api/tables/ID/rejoin`` without a key)."""
    _reads(request)
    player = player_of(request)
    if player is None:
        return []
    svc = request.app.state.service
    out = []
    for s in people.seats_of(_engine(request), player.id):
        try:
            t = svc.load(s["table_id"])
        except ServiceError:
            continue
        if t.status not in ("waiting", "playing") or s["seat"] >= len(t.seats) \
                or t.seats[s["seat"]].rejoin_hash is None:
            continue
        out.append({"table": t.id, "game": t.game.name, "title": t.game.title,
                    "status": t.status, "seat": s["seat"], "name": t.seats[s["seat"]].name,
                    "url": f"/t/{t.id}"})
    return out


@router.get("/me/export", responses=_errors(401, 429), summary="Everything kept about you, as JSON")
def export(request: Request) -> JSONResponse:
    _reads(request)
    player = player_of(request)
    if player is None:
        raise ServiceError(401, "not_signed_in", "this browser has no player to export")
    engine = _engine(request)
    row = people.get_player(engine, player.id) or {}
    current = session_secret(request)
    from parlour.server.identity import digest

    here = digest(current) if current else None
    base = public_base(request.app.state.settings, request.scope)
    svc = request.app.state.service
    seats = []
    for s in people.seats_of(engine, player.id):
        row_t = svc.store.get(s["table_id"])
        seats.append({"table": s["table_id"], "seat": s["seat"], "name": s["name"],
                      "at": s["at"], "game": row_t.game if row_t else None,
                      "status": row_t.status if row_t else "deleted",
                      "replay": f"{base}/replay/{s['table_id']}"
                      if row_t and row_t.status == "over" else None})
    data = {"format": "parlour-export/1", "exported": time.time(),
            "player": {"name": row.get("name", ""), "guest": bool(row.get("guest", True)),
                       "created": row.get("created"), "password": bool(row.get("password")),
                       "banned": row.get("banned")},
            "sessions": [{"created": x["created"], "expires": x["expires"],
                          "this_browser": x["id"] == here}
                         for x in people.sessions_of(engine, player.id)],
            "passkeys": [{"label": x["label"], "created": x["created"], "used": x["used"],
                          "sign_count": x["sign_count"]}
                         for x in people.passkeys_of(engine, player.id)],
            "seats": seats, "ratings": ratings_for(request, player),
            "rated_games": rated.export(request.app.state.service.store,
                                        player.id)["rated_games"],
            "other": people.rows_of(engine, player.id)}
    return JSONResponse(data, headers={"Content-Disposition":
                                       'attachment; filename="parlour-my-data.json"'})


@router.delete("/me", responses=_errors(400, 401, 429),
               summary="Delete this player: the account and its personal data")
async def delete_me(request: Request, response: Response, body: Confirm) -> dict[str, Any]:
    player = player_of(request)
    if player is None:
        raise ServiceError(401, "not_signed_in", "this browser has no player to delete")
    engine = _engine(request)
    if not player.guest:
        row = people.get_player(engine, player.id) or {}
        if row.get("password"):
            gate = Gate.of(request)
            wait = max(gate.signin_address.allow(_addr(request)),
                       gate.signin_name.allow(names.key(player.name)))
            if wait > 0:
                raise _limited(wait, "password attempts")
            if not await gate.passwords.verify(row["password"], body.password or ""):
                raise ServiceError(401, "wrong_password", "the password is wrong: the "
                                   "account is kept")
        elif body.confirm is None or names.key(body.confirm) != names.key(player.name):
            raise ServiceError(400, "confirm", "type the account's name to confirm")
    seats = people.forget(engine, player.id, "gone-" + new_player_id())
    await rename_seats(request.app.state.service, seats)
    end_session(request, response)
    return me(request, None)


async def rename_seats(svc: Any, seats: list[dict[str, Any]]) -> None:
    """Every table's own copy of a deleted player's seat names (settings, log, record,
    chat) becomes :data:`people.FORMER`."""
    by_table: dict[str, list[int]] = {}
    for s in seats:
        by_table.setdefault(s["table_id"], []).append(s["seat"])
    for table_id, numbers in by_table.items():
        try:
            t = svc.load(table_id)
        except ServiceError:
            continue  # deleted since
        async with t.lock:
            for n, seat in enumerate(sorted(numbers)):
                if seat >= len(t.seats):
                    continue
                new = people.FORMER if n == 0 else f"{people.FORMER} ({n + 1})"
                t.seats[seat].name = new
                if t.match is not None:
                    t.match.seats[seat] = new
                for entry in t.log:
                    if entry.get("seat") == seat and "name" in entry:
                        entry["name"] = new
                for line in t.chat:
                    if line.get("seat") == seat:
                        line["name"] = new
            t.derived = {}  # the views' kept pieces held the old name
            svc.writer.save(t, config=t.config_json())
            if t.conns:
                await svc.hub.broadcast(t, "state")


@pages.get("/account", include_in_schema=False)
def account_page(request: Request) -> Response:
    """The account page (the page's own script draws it: js/account.js)."""
    return page(request)
