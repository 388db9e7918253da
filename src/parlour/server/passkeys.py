"""Passkeys (WebAuthn) through the kept ``webauthn`` library (py_webauthn).

Two steps each, with a one-use challenge kept in the database (``auth_challenges``,
so any process of a cluster can answer the second step):

* ``POST /api/passkeys/options`` ``{"purpose": "register", "name"?}`` or
  ``{"purpose": "sign-in"}``: the options for ``navigator.credentials.create`` /
  ``get`` and a challenge id. Registering makes a new account named ``name`` (a guest
  keeps their player, as with a password), or adds a passkey to the signed-in account.
  Signing in asks for a discoverable credential: no name is given, so nothing tells
  whether one exists.
* ``POST /api/passkeys`` ``{"id", "credential"}`` (registration) and
  ``POST /api/session/passkey`` ``{"id", "credential"}`` (sign-in, a new session).

The relying party is the public URL's host (or the request's, which the guard has
checked against the allowed hosts); the expected origin is the page's own.
"""

from __future__ import annotations

import base64
import hashlib
import json
import secrets
import time
from typing import Annotated, Any, Literal
from urllib.parse import urlsplit

from fastapi import APIRouter, Request
from fastapi.responses import Response
from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy import delete, insert, select
from sqlalchemy.exc import IntegrityError
from webauthn import (
    generate_authentication_options,
    generate_registration_options,
    options_to_json,
    verify_authentication_response,
    verify_registration_response,
)
from webauthn.helpers.exceptions import WebAuthnException
from webauthn.helpers.structs import (
    AuthenticatorSelectionCriteria,
    PublicKeyCredentialDescriptor,
    ResidentKeyRequirement,
    UserVerificationRequirement,
)

from parlour.server import names, people
from parlour.server.accounts import (
    AccountName,
    Gate,
    _addr,
    _engine,
    _lifetime,
    _limited,
    account_name,
    me,
)
from parlour.server.api import _errors
from parlour.server.errors import ServiceError
from parlour.server.guard import public_base
from parlour.server.identity import Player, new_player_id, player_of, start_session
from parlour.server.pages import lang_of
from parlour.server.passkey_list import default_label, label_of, used

router = APIRouter(prefix="/api")
CHALLENGE_SECONDS = 300.0
RP_NAME = "parlour"
REFUSED = "this passkey does not open an account here"


class Options(BaseModel):
    model_config = ConfigDict(extra="forbid")

    purpose: Literal["register", "sign-in"]
    name: AccountName | None = None


class Answer(BaseModel):
    model_config = ConfigDict(extra="forbid")

    id: Annotated[str, Field(min_length=1, max_length=64)]
    credential: dict[str, Any]
    label: Annotated[str, Field(max_length=160)] | None = None
    """A new passkey's label (else ``Passkey N``); ignored when signing in."""


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode("ascii").rstrip("=")


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def _party(request: Request) -> tuple[str, str]:
    """The relying party id (a host name) and the page's origin."""
    origin = public_base(request.app.state.settings, request.scope)
    host = urlsplit(origin).hostname or "localhost"
    return host, origin


def _digest(challenge_id: str) -> str:
    return hashlib.sha256(challenge_id.encode("utf-8")).hexdigest()


def _keep(request: Request, challenge: bytes, purpose: str, data: dict[str, Any]) -> str:
    """A one-use challenge in the database; returns the id the browser sends back."""
    engine = _engine(request)
    now = time.time()
    people.delete_expired(engine, now)
    challenge_id = secrets.token_urlsafe(24)
    with engine.begin() as c:
        c.execute(insert(people.CHALLENGES).values(
            id=_digest(challenge_id), challenge=_b64(challenge), purpose=purpose, data=data,
            expires=now + CHALLENGE_SECONDS))
    return challenge_id


def _take(request: Request, challenge_id: str, purpose: str) -> dict[str, Any] | None:
    """The challenge, used up (deleted) whatever the answer; None if unknown or old."""
    engine = _engine(request)
    table = people.CHALLENGES
    with engine.begin() as c:
        row = c.execute(select(table).where(table.c.id == _digest(challenge_id))
                        ).mappings().first()
        if row is None:
            return None
        c.execute(delete(table).where(table.c.id == row["id"]))
    if row["purpose"] != purpose or row["expires"] < time.time():
        return None
    return dict(row)


def _options_limit(request: Request) -> None:
    wait = Gate.of(request).passkey_options.allow(_addr(request))
    if wait > 0:
        raise _limited(wait, "passkey requests from your address")


@router.post("/passkeys/options", responses=_errors(400, 409, 429),
             summary="Options for creating a passkey or signing in with one")
def passkey_options(request: Request, body: Options) -> dict[str, Any]:
    _options_limit(request)
    rp_id, _ = _party(request)
    if body.purpose == "sign-in":
        opts = generate_authentication_options(
            rp_id=rp_id, user_verification=UserVerificationRequirement.PREFERRED)
        cid = _keep(request, opts.challenge, "sign-in", {})
        return {"id": cid, "options": json.loads(options_to_json(opts))}
    current = player_of(request)
    engine = _engine(request)
    if current is not None and not current.guest:  # another passkey for this account
        name, data = current.name, {"player": current.id}
        existing = [PublicKeyCredentialDescriptor(id=_unb64(p["id"]))
                    for p in people.passkeys_of(engine, current.id)]
        user_id = hashlib.sha256(b"parlour-user/" + current.id.encode()).digest()[:16]
    else:
        if not body.name:
            raise ServiceError(400, "bad_name", "choose a name for the new account")
        name = account_name(body.name)
        if people.player_by_key(engine, names.key(name)) is not None:
            raise ServiceError(409, "name_taken", f"there is already an account called "
                               f"{name}: choose another name")
        wait = Gate.of(request).signup.allow(_addr(request))
        if wait > 0:
            raise _limited(wait, "new accounts from your address")
        data = {"name": name, "guest": current.id if current else None}
        existing, user_id = [], secrets.token_bytes(16)
    opts = generate_registration_options(
        rp_id=rp_id, rp_name=RP_NAME, user_name=name, user_id=user_id,
        exclude_credentials=existing,
        authenticator_selection=AuthenticatorSelectionCriteria(
            resident_key=ResidentKeyRequirement.REQUIRED,
            user_verification=UserVerificationRequirement.PREFERRED))
    cid = _keep(request, opts.challenge, "register", data)
    return {"id": cid, "options": json.loads(options_to_json(opts))}


@router.post("/passkeys", status_code=201, responses=_errors(400, 409),
             summary="Keep a new passkey: a new account, or one more for yours")
def register_passkey(request: Request, response: Response, body: Answer) -> dict[str, Any]:
    row = _take(request, body.id, "register")
    if row is None:
        raise ServiceError(400, "bad_challenge", "this passkey request has expired or was "
                           "used: start again")
    rp_id, origin = _party(request)
    try:
        checked = verify_registration_response(
            credential=body.credential, expected_challenge=_unb64(row["challenge"]),
            expected_rp_id=rp_id, expected_origin=origin)
    except (WebAuthnException, ValueError, KeyError, TypeError) as e:
        raise ServiceError(400, "bad_passkey", f"the passkey could not be checked: {e}"
                           ) from None
    engine = _engine(request)
    data = row["data"] or {}
    current = player_of(request)
    if data.get("player"):
        if current is None or current.id != data["player"]:
            raise ServiceError(400, "bad_challenge", "sign in again to add a passkey")
        player = current
    else:
        name = data["name"]
        guest = data.get("guest")
        try:
            if guest and current is not None and current.id == guest and current.guest:
                people.set_player(engine, guest, name=name, name_key=names.key(name),
                                  guest=False)
                player = Player(guest, name, False, current.banned)
            else:
                player = Player(new_player_id(), name, False)
                people.add_player(engine, player.id, name, guest=False,
                                  name_key=names.key(name))
        except IntegrityError:
            raise ServiceError(409, "name_taken", f"there is already an account called "
                               f"{name}: choose another name") from None
    label = label_of(body.label) if body.label and body.label.strip() \
        else default_label(engine, player.id, lang_of(request))
    answer = body.credential.get("response")
    transports = answer.get("transports") if isinstance(answer, dict) else None
    try:
        with engine.begin() as c:
            c.execute(insert(people.PASSKEYS).values(
                id=_b64(checked.credential_id), player_id=player.id,
                public_key=_b64(checked.credential_public_key),
                sign_count=checked.sign_count, created=time.time(), label=label, used=None,
                transports=[str(t) for t in transports][:8] if isinstance(transports, list)
                else []))
    except IntegrityError:
        raise ServiceError(409, "passkey_known", "this passkey is already kept here"
                           ) from None
    if not data.get("player"):
        start_session(request, response, player, _lifetime(request))
    return me(request, player)


@router.post("/session/passkey", responses=_errors(400, 401, 403, 429),
             summary="Sign in with a passkey")
def passkey_sign_in(request: Request, response: Response, body: Answer) -> dict[str, Any]:
    gate = Gate.of(request)
    wait = gate.signin_address.allow(_addr(request))
    if wait > 0:
        raise _limited(wait, "sign-in attempts")
    row = _take(request, body.id, "sign-in")
    if row is None:
        raise ServiceError(400, "bad_challenge", "this sign-in has expired or was used: "
                           "start again")
    engine = _engine(request)
    cred_id = body.credential.get("rawId") or body.credential.get("id")
    key = None
    if isinstance(cred_id, str) and len(cred_id) <= 400:
        with engine.connect() as c:
            key = c.execute(select(people.PASSKEYS).where(people.PASSKEYS.c.id == cred_id)
                            ).mappings().first()
    if key is None:
        raise ServiceError(401, "wrong_sign_in", REFUSED)
    rp_id, origin = _party(request)
    try:
        checked = verify_authentication_response(
            credential=body.credential, expected_challenge=_unb64(row["challenge"]),
            expected_rp_id=rp_id, expected_origin=origin,
            credential_public_key=_unb64(key["public_key"]),
            credential_current_sign_count=key["sign_count"])
    except (WebAuthnException, ValueError, KeyError, TypeError):
        raise ServiceError(401, "wrong_sign_in", REFUSED) from None
    used(engine, key["id"], checked.new_sign_count)
    found = people.get_player(engine, key["player_id"])
    if found is None:
        raise ServiceError(401, "wrong_sign_in", REFUSED)
    if found["banned"]:
        raise ServiceError(403, "banned", f"this account is banned: {found['banned']}")
    player = Player(found["id"], found["name"], bool(found["guest"]), found["banned"])
    start_session(request, response, player, _lifetime(request))
    return me(request, player)

