"""Secrets of a table: seat tokens, invite and spectator keys, table ids.

Seat tokens are 256-bit (``secrets.token_urlsafe(32)``) and only their SHA-256 is
stored, so a leaked database does not hand out seats; every comparison is constant
time (``hmac.compare_digest``).

Invite and spectator keys are not stored at all: each is derived from a server secret
and the table's id (:class:`KeyRing`), so the server can rebuild the links for the
people at the table whenever it sends them, and a copy of the tables holds nothing
that opens one. Tables made by versions that stored the keys keep their old links
working through the key's SHA-256, kept in place of the key (:func:`stored_form`).
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
from collections.abc import Sequence

PURPOSES = ("invite", "watch")
"""What a table's keys open: a seat (the invite link) or a spectator's view."""

LEGACY = "sha256:"
"""Prefix of the stored form of a key made by an earlier version (its hash)."""


def new_token() -> str:
    """A fresh seat token (shown to its holder once, stored only hashed)."""
    return secrets.token_urlsafe(32)


def new_key() -> str:
    """A fresh invite or spectator key."""
    return secrets.token_urlsafe(18)


def new_table_id() -> str:
    return secrets.token_urlsafe(9)


def new_salt() -> str:
    """A deal-commitment salt: 32 random bytes as 64 hex digits (RECORD.md)."""
    return secrets.token_hex(32)


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def token_matches(token: str | None, stored_hash: str | None) -> bool:
    """Whether ``token`` is the one whose hash is stored."""
    if not token or not stored_hash:
        return False
    return hmac.compare_digest(hash_token(token), stored_hash)


def new_server_secret() -> str:
    """A fresh server secret for deriving table keys (256 bits)."""
    return secrets.token_urlsafe(32)


def stored_form(key: str) -> str:
    """What is kept of a key an earlier version stored in the clear: its SHA-256
    (base64url, 50 characters with the prefix)."""
    digest = hashlib.sha256(key.encode("utf-8")).digest()
    return LEGACY + base64.urlsafe_b64encode(digest).decode("ascii").rstrip("=")


class KeyRing:
    """Derives each table's invite and spectator keys from server secrets.

    ``key(table, purpose)`` is HMAC-SHA256(secret, "parlour-key/1" purpose table id),
    cut to 144 bits (24 characters, like the random keys of earlier versions). The
    first secret makes the links; every secret is accepted, so an operator who moves
    the secret out of the database (``key_secret``) keeps the links already given out.
    """

    def __init__(self, secrets_: Sequence[str]) -> None:
        if not secrets_ or not all(secrets_):
            raise ValueError("a key ring needs at least one non-empty secret")
        self._secrets = [s.encode("utf-8") for s in secrets_]

    def _derive(self, secret: bytes, table_id: str, purpose: str) -> str:
        if purpose not in PURPOSES:
            raise ValueError(f"no key purpose {purpose!r}")
        msg = f"parlour-key/1\0{purpose}\0{table_id}".encode()
        mac = hmac.new(secret, msg, hashlib.sha256).digest()[:18]
        return base64.urlsafe_b64encode(mac).decode("ascii")

    def subkey(self, purpose: str) -> bytes:
        """A secret of its own for ``purpose`` (e.g. keying client addresses), derived
        from the first secret: the same in every process that shares it."""
        return hmac.new(self._secrets[0], f"parlour-sub/1\0{purpose}".encode(),
                        hashlib.sha256).digest()

    def key(self, table_id: str, purpose: str) -> str:
        """The key for ``purpose`` at ``table_id`` (what links carry)."""
        return self._derive(self._secrets[0], table_id, purpose)

    def opens(self, key: str | None, table_id: str, purpose: str,
              stored: str | None = None) -> bool:
        """Whether ``key`` is the table's key for ``purpose``: derived from any of the
        secrets, or the key an earlier version stored (``stored``: its hash, or the key
        itself in a database not migrated yet). Every candidate is compared, in
        constant time, whatever matched first."""
        if not key:
            return False
        given = key.encode("utf-8")
        ok = False
        for secret in self._secrets:
            ok |= hmac.compare_digest(given, self._derive(secret, table_id, purpose).encode())
        if stored:
            kept = stored if stored.startswith(LEGACY) else stored_form(stored)
            ok |= hmac.compare_digest(stored_form(key).encode("ascii"), kept.encode("utf-8"))
        return ok
