"""The service's refusals and the words it uses when the database is away."""

from __future__ import annotations

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
