"""Server settings: one dataclass, filled from the command line or the environment."""

from __future__ import annotations

import os
from dataclasses import dataclass, field


@dataclass
class Settings:
    """Everything a server run can tune. Times are in seconds."""

    db_url: str = "sqlite:///parlour.sqlite3"
    bot_delay: float = 0.6
    """Pause before a bot (or a forced pass) moves, so people can follow the play."""
    round_pause: float = 3.0
    """Pause between the end of a round and the next deal."""
    grace: float = 30.0
    """How long a disconnected player keeps the seat before a bot stands in."""
    idle_expiry: float = 6 * 3600.0
    """A table with no activity for this long (and nobody connected) expires."""
    sweep_every: float = 60.0
    hello_timeout: float = 10.0
    max_message_bytes: int = 4096
    rate_per_second: float = 10.0
    rate_burst: int = 30
    allowed_origins: list[str] = field(default_factory=list)
    """Extra page origins allowed to open WebSockets (the server's own is always allowed)."""
    testing: bool = False
    """Honour test-only table options (fixed decks, seeds). Never on in production."""
    db_timeout: float = 0.5
    """How long a write waits for a locked database (SQLite) or a connection
    (PostgreSQL) before the client is told to try again."""
    cluster: bool = False
    """Several processes share the database: tables are owned through leases, and each
    process polls the database for events written by the others."""
    instance: str = ""
    """This process's name in leases and presence rows (default: random)."""
    lease: float = 10.0
    """Seconds a table's owner holds it without renewing; a dead owner's tables are
    taken over after this long."""
    poll_every: float = 0.1
    """Seconds between looks at the database for other processes' events (cluster)."""
    gc_freeze_every: float = 20.0
    """Seconds between moving live objects out of the garbage collector's full passes."""
    gc_full_every: float = 600.0
    """Seconds between full garbage collections over everything (cyclic garbage)."""

    chat_max_length: int = 200
    """Characters in one chat line; longer lines are cut (over twice this: refused)."""
    chat_burst: int = 5
    """Chat lines one seat (or spectator) may send within ``chat_window`` seconds."""
    chat_window: float = 10.0
    chat_keep: int = 50
    """Chat lines kept per table (in memory only; new connections get these)."""
    open_tables_listed: int = 50
    """Public tables listed on the front page at most."""
    review_moves: int = 60
    """Moves one review request values at most (one seat, one round)."""
    review_concurrency: int = 2
    """Reviews computed at the same time; further requests wait their turn."""

    @classmethod
    def from_env(cls, **overrides: object) -> Settings:
        """Defaults, then ``PARLOUR_*`` environment variables, then ``overrides``."""
        s = cls()
        env = os.environ
        if "PARLOUR_DB" in env:
            s.db_url = env["PARLOUR_DB"]
        for name in ("bot_delay", "round_pause", "grace", "idle_expiry", "sweep_every",
                     "db_timeout", "lease", "poll_every", "chat_window"):
            key = "PARLOUR_" + name.upper()
            if key in env:
                setattr(s, name, float(env[key]))
        for name in ("chat_max_length", "chat_burst", "chat_keep", "open_tables_listed",
                     "review_moves", "review_concurrency"):
            key = "PARLOUR_" + name.upper()
            if key in env:
                setattr(s, name, int(env[key]))
        if env.get("PARLOUR_ORIGINS"):
            s.allowed_origins = [o.strip() for o in env["PARLOUR_ORIGINS"].split(",") if o.strip()]
        if env.get("PARLOUR_TESTING") == "1":
            s.testing = True
        if env.get("PARLOUR_CLUSTER") == "1":
            s.cluster = True
        if env.get("PARLOUR_INSTANCE"):
            s.instance = env["PARLOUR_INSTANCE"]
        for k, v in overrides.items():
            if v is not None:
                setattr(s, k, v)
        return s


def db_url_for(value: str) -> str:
    """A ``--db`` value as a SQLAlchemy URL: a plain path means a SQLite file."""
    if "://" in value:
        if value.startswith("postgres://"):
            value = "postgresql://" + value[len("postgres://"):]
        if value.startswith("postgresql://"):
            value = "postgresql+psycopg://" + value[len("postgresql://"):]
        return value
    return "sqlite:///" + value
