"""Per-address limits every process of a cluster shares: token buckets and holds.

One process keeps them in memory; ``--cluster`` keeps them in the database (table
``limits``), so that ten tables a minute from one address means ten over every process,
not ten on each. A key names what is limited (``create:<address class>``,
``chat:<table>:<seat>``...). Client addresses never reach the database in the clear:
each is replaced by an HMAC under the server secret (:meth:`Quotas.address_key`).
"""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
import time
from typing import Any

PRUNE_AFTER = 3600.0
"""Buckets untouched this long are full again (every rate here refills far sooner) and
are forgotten, like holds that ended this long ago."""


def address_class(addr: str) -> str:
    """The block an address belongs to, for limits one person could dodge by moving
    inside it: the /24 of an IPv4 address, the /48 of an IPv6 address (what one site
    is usually given), the address itself when it is not an IP address."""
    try:
        ip = ipaddress.ip_address(addr)
    except ValueError:
        return addr
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    prefix = 24 if ip.version == 4 else 48
    return str(ipaddress.ip_network(f"{ip}/{prefix}", strict=False))


class Quotas:
    """Token buckets and holds, in memory or (``store`` given) in the database."""

    def __init__(self, secret: bytes, store: Any = None) -> None:
        self._secret = secret
        self.store = store
        self._buckets: dict[str, tuple[float, float]] = {}
        self._holds: dict[str, float] = {}
        self._pruned = time.time()

    def address_key(self, addr: str) -> str:
        """What stands for an address in keys and rows: an HMAC under the server
        secret (every process of a cluster shares it), never the address itself."""
        mac = hmac.new(self._secret, f"parlour-addr/1\0{addr}".encode(), hashlib.sha256)
        return mac.hexdigest()[:24]

    def class_key(self, addr: str) -> str:
        """:meth:`address_key` of the address's class (:func:`address_class`)."""
        return self.address_key(address_class(addr))

    def take(self, key: str, rate: float, burst: int) -> float:
        """Take a token from bucket ``key`` (``rate`` a second, bursts of ``burst``):
        0.0 when taken, else the seconds until the next one."""
        now = time.time()
        self._prune(now)
        if self.store is not None:
            return self.store.take_token(key, rate, burst, now)
        tokens, stamp = self._buckets.get(key, (float(burst), now))
        tokens = min(float(burst), tokens + (now - stamp) * rate)
        if tokens >= 1:
            self._buckets[key] = (tokens - 1, now)
            return 0.0
        self._buckets[key] = (tokens, now)
        return (1 - tokens) / rate if rate > 0 else 3600.0

    def hold(self, key: str, seconds: float) -> None:
        """Hold ``key`` for ``seconds`` (a cool-down)."""
        until = time.time() + seconds
        if self.store is not None:
            self.store.hold(key, until)
        else:
            self._holds[key] = until

    def held(self, key: str) -> float:
        """Seconds left on the hold of ``key`` (0.0: none)."""
        until = (self.store.held_until(key) if self.store is not None
                 else self._holds.get(key, 0.0))
        return max(0.0, until - time.time())

    def _prune(self, now: float) -> None:
        if now - self._pruned < 60.0:
            return
        self._pruned = now
        before = now - PRUNE_AFTER
        if self.store is not None:
            self.store.prune_limits(before)
            return
        for k in [k for k, (_, stamp) in self._buckets.items() if stamp < before]:
            del self._buckets[k]
        for k in [k for k, until in self._holds.items() if until < now]:
            del self._holds[k]
