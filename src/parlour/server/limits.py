"""Limits: token buckets (per connection, per address) and socket counts."""

from __future__ import annotations

import contextlib
import math
import time
from collections import Counter
from typing import Any

from parlour.server.errors import ServiceError


class RateLimiter:
    """A token bucket: ``rate`` messages a second on average, bursts up to ``burst``."""

    def __init__(self, rate: float, burst: int) -> None:
        self.rate = rate
        self.burst = burst
        self.tokens = float(burst)
        self.stamp = time.monotonic()
        self.refused = 0

    def allow(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        self.refused += 1
        return False

    def wait(self) -> float:
        """Seconds until the next token (rounded up to a tenth), after a refusal."""
        return max(0.1, -(-(1 - self.tokens) * 10 // self.rate) / 10)


def origin_allowed(origin: str | None, host: str | None, extra: list[str],
                   public_url: str = "") -> bool:
    """A browser's WebSocket must come from this server's own page (or a listed origin).

    The page's own origin is the public URL's when one is set; else the request's
    ``Host``, which the guard has already checked against the allowed hosts (so a
    rebound DNS name fails there). Clients that are not browsers send no ``Origin``;
    they are allowed, since only a browser can be tricked into connecting from
    another site with its user's cookies.
    """
    if origin is None:
        return True
    if origin in extra:
        return True
    if public_url:
        from urllib.parse import urlsplit

        p = urlsplit(public_url)
        return origin == f"{p.scheme}://{p.netloc}"
    return host is not None and origin in (f"http://{host}", f"https://{host}")


class PerAddress:
    """One token bucket per client address (``rate`` a second, bursts of ``burst``);
    buckets that have refilled are dropped, so the map stays small."""

    def __init__(self, rate: float, burst: int) -> None:
        self.rate = rate
        self.burst = burst
        self.buckets: dict[str, RateLimiter] = {}

    def allow(self, addr: str) -> float:
        """0.0 if ``addr`` may go ahead now (a token is taken), else the seconds until
        it may try again."""
        if len(self.buckets) > 10_000:
            self._prune()
        b = self.buckets.get(addr)
        if b is None:
            b = self.buckets[addr] = RateLimiter(self.rate, self.burst)
        if b.allow():
            return 0.0
        return (1 - b.tokens) / self.rate if self.rate > 0 else 3600.0

    def _prune(self) -> None:
        now = time.monotonic()
        for addr, b in list(self.buckets.items()):
            if b.tokens + (now - b.stamp) * self.rate >= b.burst:
                del self.buckets[addr]


def refuse_if_waiting(wait: float, too_many: str) -> None:
    """Refuse with 429 ``rate_limited`` and a ``Retry-After`` header when ``wait`` (the
    seconds :meth:`PerAddress.allow` or :meth:`Limits.take` answered) is above 0; the
    message is ``too_many`` then "try again in N s" (N rounded up)."""
    if wait > 0:
        secs = math.ceil(wait)
        raise ServiceError(429, "rate_limited", f"{too_many}: try again in {secs} s",
                           {"Retry-After": str(secs)})


def bucket_on(holder: Any, name: str, per_minute: float, burst: int) -> PerAddress:
    """The :class:`PerAddress` kept on ``holder`` (the app's state, or the service) as
    attribute ``name``, made on first use with ``per_minute`` and ``burst``."""
    bucket = getattr(holder, name, None)
    if bucket is None:
        bucket = PerAddress(per_minute / 60.0, burst)
        setattr(holder, name, bucket)
    return bucket


def descriptor_limit() -> int | None:
    """The process's open-file limit, raised to its hard limit first (where allowed)."""
    try:
        import resource

        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        if hard != resource.RLIM_INFINITY and soft < hard:
            with contextlib.suppress(ValueError, OSError):
                resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
                soft = hard
        return None if soft == resource.RLIM_INFINITY else int(soft)
    except ImportError:  # pragma: no cover -- not a POSIX system
        return None


class Sockets:
    """Counts WebSockets per client address, before and after ``hello``, and in all.

    The overall cap stays below the descriptor limit (an eighth of it, at least 64, is
    kept for HTTP requests, the database and the worker pipes), so ``/healthz`` and
    table creation still answer when the WebSocket cap is reached.
    """

    def __init__(self, settings: Any) -> None:
        self.settings = settings
        self.cap = settings.max_sockets
        fds = descriptor_limit()
        if fds is not None:
            self.cap = max(1, min(self.cap, fds - max(64, fds // 8)))
        self.total = 0
        self.open: Counter[str] = Counter()
        self.unhello: Counter[str] = Counter()

    def refuse(self, addr: str) -> str | None:
        """Why a new socket from ``addr`` is refused, or None to accept it."""
        s = self.settings
        if self.total >= self.cap:
            return "the server has as many connections as it can take"
        if self.open[addr] >= s.max_sockets_per_address:
            return "too many connections from your address"
        if self.unhello[addr] >= s.max_unhello_per_address:
            return "too many connections from your address have not said hello"
        return None

    def opened(self, conn: Any) -> None:
        self.total += 1
        self.open[conn.addr] += 1
        self.unhello[conn.addr] += 1
        conn.counted = True

    def said_hello(self, conn: Any) -> None:
        if conn.counted and not conn.greeted:
            conn.greeted = True
            self._drop(self.unhello, conn.addr)

    def closed(self, conn: Any) -> None:
        if not conn.counted:
            return
        conn.counted = False
        self.total -= 1
        self._drop(self.open, conn.addr)
        if not conn.greeted:
            self._drop(self.unhello, conn.addr)

    @staticmethod
    def _drop(counter: Counter[str], addr: str) -> None:
        counter[addr] -= 1
        if counter[addr] <= 0:
            del counter[addr]
