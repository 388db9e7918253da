"""Secrets of a table: seat tokens, invite and spectator keys, table ids.

Seat tokens are 256-bit (``secrets.token_urlsafe(32)``) and only their SHA-256 is
stored, so a leaked database does not hand out seats; every comparison is constant
time (``hmac.compare_digest``).
"""

from __future__ import annotations

import hashlib
import hmac
import secrets


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


def same(a: str | None, b: str | None) -> bool:
    """Constant-time equality of two secrets; False when either is missing."""
    if not a or not b:
        return False
    return hmac.compare_digest(a.encode("utf-8"), b.encode("utf-8"))


def token_matches(token: str | None, stored_hash: str | None) -> bool:
    """Whether ``token`` is the one whose hash is stored."""
    if not token or not stored_hash:
        return False
    return hmac.compare_digest(hash_token(token), stored_hash)
