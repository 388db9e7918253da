"""Per-connection limits: message size and a token-bucket rate limit."""

from __future__ import annotations

import time


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


def origin_allowed(origin: str | None, host: str | None, extra: list[str]) -> bool:
    """A browser's WebSocket must come from this server's own page (or a listed origin).

    Clients that are not browsers send no ``Origin``; they are allowed, since only a
    browser can be tricked into connecting from another site with its user's cookies.
    """
    if origin is None:
        return True
    if origin in extra:
        return True
    return host is not None and origin in (f"http://{host}", f"https://{host}")
