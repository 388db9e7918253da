"""Passwords: argon2id through argon2-cffi, off the event loop, at a bounded rate.

A hash costs tens of milliseconds of CPU and ``password_memory_kib`` of memory, so it
runs in a thread, at most ``password_concurrency`` at once (the rest wait their
turn). A sign-in for a name that does not exist, or an account without a password,
still verifies the password against a dummy hash made with the same parameters: the
answer takes as long whether the name exists or not.
"""

from __future__ import annotations

import asyncio

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError

from parlour.server.settings import Settings

MAX_LENGTH = 256
"""Characters in a password at most (a longer one is refused before it is hashed)."""


class Passwords:
    """Hashing and checking passwords for one server process."""

    def __init__(self, settings: Settings) -> None:
        self.hasher = PasswordHasher(time_cost=settings.password_time_cost,
                                     memory_cost=settings.password_memory_kib,
                                     parallelism=1)
        self.slots = asyncio.Semaphore(max(1, settings.password_concurrency))
        self.min_length = settings.password_min_length
        self._dummy: str | None = None

    def refusal(self, password: str, name: str = "") -> str | None:
        """Why ``password`` may not be an account's password, or None."""
        if len(password) < self.min_length:
            return f"a password has at least {self.min_length} characters"
        if len(password) > MAX_LENGTH:
            return f"a password has at most {MAX_LENGTH} characters"
        if name and password.casefold() == name.casefold():
            return "the password may not be the name"
        return None

    async def hash(self, password: str) -> str:
        async with self.slots:
            return await asyncio.to_thread(self.hasher.hash, password)

    async def verify(self, stored: str | None, password: str) -> bool:
        """Whether ``password`` matches ``stored``; with no stored hash (no such name,
        or no password on the account) a dummy is checked instead and False comes back,
        after the same work."""
        async with self.slots:
            if self._dummy is None:
                self._dummy = await asyncio.to_thread(self.hasher.hash, "not a password")
            return await asyncio.to_thread(self._check, stored, password)

    def _check(self, stored: str | None, password: str) -> bool:
        if len(password) > MAX_LENGTH:  # no account has one: the same work, and no
            stored, password = None, password[:MAX_LENGTH]
        try:
            self.hasher.verify(stored or self._dummy or "", password)
        except (VerifyMismatchError, VerificationError, InvalidHashError):
            return False
        return stored is not None

    def needs_rehash(self, stored: str) -> bool:
        try:
            return self.hasher.check_needs_rehash(stored)
        except InvalidHashError:
            return True
