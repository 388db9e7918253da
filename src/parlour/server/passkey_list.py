"""Your passkeys on /account: list, rename, remove.

* ``GET /api/passkeys`` -> ``{"passkeys": [{"id", "label", "created", "used"}]}``: the
  signed-in account's passkeys, oldest first. ``id`` is a handle made for this list
  (an HMAC of the credential under the server secret): never the credential id, the
  public key or anything the authenticator holds.
* ``PATCH /api/passkeys/{id}`` ``{"label"}``: a new label (what the page shows).
* ``DELETE /api/passkeys/{id}``: forget one. An account without a password keeps its
  last passkey: removing it is refused in words (``409`` ``last_sign_in``), in the same
  transaction as the count, so two removals at once cannot both pass.

Every change is cookie-authenticated, so the guard's CSRF check covers it
(``guard.py``); all three are limited with the other account requests
(``me_per_minute``).
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import time
from typing import Annotated, Any

from fastapi import APIRouter, Request
from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy import delete, func, select, update

from parlour.i18n import t
from parlour.server import people
from parlour.server.accounts import _engine, _reads, signed_in
from parlour.server.api import _errors
from parlour.server.cardroom import clean_text
from parlour.server.errors import ServiceError
from parlour.server.pages import lang_of

router = APIRouter(prefix="/api")

LABEL_LENGTH = 40
WORDS = {
    "unknown": "you have no such passkey (it may have been removed already)",
    "bad_label": f"a label is 1 to {LABEL_LENGTH} characters",
    "last": "this passkey is the only way to sign in to your account: add another passkey "
            "first, then remove this one",
}
"""The words of this module (one place, for the message catalogs)."""

Handle = Annotated[str, Field(min_length=1, max_length=32)]


class Label(BaseModel):
    model_config = ConfigDict(extra="forbid")

    label: Annotated[str, Field(max_length=LABEL_LENGTH * 4)]


def handle(request: Request, credential_id: str) -> str:
    """The name a passkey has in this list (stable, meaningless without the secret)."""
    key = request.app.state.service.keys.subkey("passkey-handle")
    mac = hmac.new(key, credential_id.encode("utf-8"), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(mac[:12]).decode("ascii")


def label_of(raw: str) -> str:
    """A label as kept and shown, or 400 in words."""
    label = clean_text(raw, LABEL_LENGTH + 1)
    if not label or len(label) > LABEL_LENGTH:
        raise ServiceError(400, "bad_label", WORDS["bad_label"])
    return label


def default_label(engine: Any, player_id: str, lang: str = "en") -> str:
    """``Passkey N`` in ``lang`` (the catalog's ``account.passkeys.default``, in the
    language of the request that makes it): the first N no passkey of the account is
    labelled with."""
    taken = {p.get("label") for p in people.passkeys_of(engine, player_id)}
    n = 1
    while t(lang, "account.passkeys.default", n=n) in taken:
        n += 1
    return t(lang, "account.passkeys.default", n=n)


def listed(request: Request, rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    rows = sorted(rows, key=lambda r: r["created"])
    return [{"id": handle(request, r["id"]),
             "label": r.get("label") or t(lang_of(request), "account.passkeys.default", n=i + 1),
             "created": r["created"], "used": r.get("used")} for i, r in enumerate(rows)]


def _find(request: Request, player_id: str, key: str) -> dict[str, Any]:
    for row in people.passkeys_of(_engine(request), player_id):
        if hmac.compare_digest(handle(request, row["id"]), key):
            return row
    raise ServiceError(404, "not_found", WORDS["unknown"])


@router.get("/passkeys", responses=_errors(401, 429), summary="Your passkeys")
def list_passkeys(request: Request) -> dict[str, Any]:
    _reads(request)
    player = signed_in(request)
    return {"passkeys": listed(request, people.passkeys_of(_engine(request), player.id))}


@router.patch("/passkeys/{key}", responses=_errors(400, 401, 404, 429),
              summary="Rename one of your passkeys")
def rename_passkey(request: Request, key: Handle, body: Label) -> dict[str, Any]:
    _reads(request)
    player = signed_in(request)
    row = _find(request, player.id, key)
    label = label_of(body.label)
    with _engine(request).begin() as c:
        c.execute(update(people.PASSKEYS).where(people.PASSKEYS.c.id == row["id"],
                                                people.PASSKEYS.c.player_id == player.id)
                  .values(label=label))
    return {"passkeys": listed(request, people.passkeys_of(_engine(request), player.id))}


@router.delete("/passkeys/{key}", responses=_errors(401, 404, 409, 429),
               summary="Remove one of your passkeys")
def remove_passkey(request: Request, key: Handle) -> dict[str, Any]:
    _reads(request)
    player = signed_in(request)
    row = _find(request, player.id, key)
    table, players = people.PASSKEYS, people.PLAYERS
    with _engine(request).begin() as c:  # one transaction: the count and the removal
        password = c.scalar(select(players.c.password).where(players.c.id == player.id)
                            .with_for_update())
        c.execute(delete(table).where(table.c.id == row["id"], table.c.player_id == player.id))
        left = c.scalar(select(func.count()).select_from(table)
                        .where(table.c.player_id == player.id))
        if not password and not left:  # (raising here rolls the removal back)
            raise ServiceError(409, "last_sign_in", WORDS["last"])
    return {"passkeys": listed(request, people.passkeys_of(_engine(request), player.id))}


def used(engine: Any, credential_id: str, sign_count: int) -> None:
    """A passkey signed someone in: its count and when (``used``)."""
    with engine.begin() as c:
        c.execute(update(people.PASSKEYS).where(people.PASSKEYS.c.id == credential_id)
                  .values(sign_count=sign_count, used=time.time()))
