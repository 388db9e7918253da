"""The operator's moderation page (``/admin``) and its API, behind the operator secret.

Off (404) unless ``operator_secret`` is set. Each request carries the secret as
``Authorization: Bearer SECRET`` (compared in constant time); every request, a wrong
secret included, counts against ``admin_per_minute`` for the address (429). Actions
are written and logged by :mod:`parlour.server.moderation`, as ``parlour admin`` does.
"""

from __future__ import annotations

import hmac
import time
from pathlib import Path
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Request
from fastapi.responses import Response
from pydantic import BaseModel, ConfigDict, Field

from parlour.server import moderation
from parlour.server.api import ErrorBody
from parlour.server.errors import ServiceError
from parlour.server.guard import client_address
from parlour.server.limits import bucket_on, refuse_if_waiting
from parlour.server.pages import page

STATIC = Path(__file__).resolve().parent.parent / "web" / "static"
router = APIRouter()


def _errors(*codes: int) -> dict[int | str, dict[str, Any]]:
    words = {401: "The operator secret is missing or wrong", 404: "Moderation is off "
             "(no operator secret is set), or no such player or report",
             400: "The action is not valid", 429: "Too many requests from this address",
             413: "The request body is larger than the server's limit",
             503: "The database is busy or unreachable: nothing changed, try again"}
    return {c: {"model": ErrorBody, "description": words[c]} for c in (*codes, 401, 404, 413, 429, 503)}


class Action(BaseModel):
    model_config = ConfigDict(extra="forbid")

    action: Literal["mute", "suspend", "ban", "unmute", "unsuspend", "unban", "close"]
    target: Annotated[str, Field(min_length=1, max_length=64)]
    """A player id or an account's name (a report's number for ``close``)."""
    reason: Annotated[str, Field(min_length=1, max_length=400)]
    hours: Annotated[float, Field(gt=0, le=24 * 3650)] | None = None


def _operator(request: Request) -> str:
    """Check the operator secret; the address (the log's actor)."""
    svc = request.app.state.service
    st = svc.settings
    if not st.operator_secret:
        raise ServiceError(404, "not_found", "there is no such page")
    addr = client_address(request.scope, st)
    limit = bucket_on(svc, "admin_limit", st.admin_per_minute, st.admin_burst)
    refuse_if_waiting(limit.allow(addr), "too many requests")
    given = request.headers.get("authorization", "")
    scheme, _, secret = given.partition(" ")
    if scheme.lower() != "bearer" or not hmac.compare_digest(
            secret.encode("utf-8"), st.operator_secret.encode("utf-8")):
        raise ServiceError(401, "unauthorised", "the operator secret is missing or wrong")
    return addr


@router.get("/admin", include_in_schema=False)
def admin_page(request: Request) -> Response:
    if not request.app.state.settings.operator_secret:
        raise ServiceError(404, "not_found", "there is no such page")
    return page(request, "admin.html")


@router.get("/api/admin/reports", responses=_errors(), summary="Operator: reports, newest first")
async def reports(request: Request, status: Literal["open", "closed", "all"] = "open"
                  ) -> list[dict[str, Any]]:
    _operator(request)
    engine = request.app.state.service.store.engine
    return moderation.reports(engine, None if status == "all" else status)


@router.get("/api/admin/log", responses=_errors(), summary="Operator: every moderation action")
async def log(request: Request) -> list[dict[str, Any]]:
    _operator(request)
    return moderation.history(request.app.state.service.store.engine)


@router.post("/api/admin/actions", status_code=201, responses=_errors(400),
             summary="Operator: mute, suspend, ban (or lift), or close a report; logged")
async def act(request: Request, body: Action) -> dict[str, Any]:
    addr = _operator(request)
    svc = request.app.state.service
    engine = svc.store.engine
    try:
        if body.action == "close":
            if not body.target.isdigit():
                raise ValueError("close takes a report's number")
            pid = body.target
        else:
            pid, _name = moderation.resolve(engine, body.target)
        until = time.time() + body.hours * 3600 if body.hours else None
        done = moderation.act(engine, f"page:{addr}", body.action, pid, body.reason, until)
    except ValueError as e:
        raise ServiceError(400, "bad_action", str(e)) from None
    svc.moderation.forget(pid)
    return done
