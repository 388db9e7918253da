"""The service's refusals, their shape in the HTTP API, and the words it uses when the
database is away."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

RETRY_AFTER = 0.5
"""Seconds before the server retries its own action after a failed write."""
UNAVAILABLE = ("the database is busy or unreachable, so nothing was saved or changed: "
               "please try again")


class ServiceError(Exception):
    """A refused request: an HTTP status, a short code and a message for people."""

    def __init__(self, status: int, code: str, message: str,
                 headers: dict[str, str] | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.headers = headers


class ErrorBody(BaseModel):
    """A refused request: a short code and a message for people."""

    error: str
    message: str


def _errors(*codes: int) -> dict[int | str, dict[str, Any]]:
    """OpenAPI entries for the error answers a route can give (503: the database is busy
    or unreachable; nothing changed, try again)."""
    words = {400: "The request breaks the rules of the game or the table",
             401: "Not signed in, or the name or the password is wrong",
             403: "This key does not open a seat or a view at this table",
             404: "There is no such table", 409: "The table is not in a state that allows this",
             410: "The table has expired",
             413: "The request body is larger than the server's limit",
             422: "The request body does not have the documented shape",
             429: "Too many requests from this address: wait for Retry-After seconds",
             503: "The database is busy or unreachable: nothing changed, try again"}
    return {c: {"model": ErrorBody, "description": words[c]} for c in (*codes, 413, 503)}
