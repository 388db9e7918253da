"""Server settings: one dataclass, filled from the command line or the environment.

Every limit of the server is a field here with a safe default; docs/hardening.md lists
each one with what a client receives when it hits it. Any field can be set from the
environment as ``PARLOUR_<NAME>`` (lists comma-separated, booleans ``1``/``0``) or with
``parlour serve --set NAME=VALUE``.
"""

from __future__ import annotations

import dataclasses
import os
from dataclasses import dataclass, field
from typing import Any


@dataclass
class Settings:
    """Everything a server run can tune. Times are in seconds."""

    db_url: str = "sqlite:///parlour.sqlite3"
    bot_delay: float = 0.6
    """Pause before a bot (or a forced pass) moves, so people can follow the play."""
    round_pause: float = 3.0
    """Pause between the end of a round and the next deal."""
    grace: float = 30.0
    """How long an absent player keeps the seat before a bot stands in: after a
    disconnect, or from the moment their turn comes if they never connected."""
    idle_expiry: float = 6 * 3600.0
    """A table with no activity for this long (and nobody connected) expires."""
    waiting_expiry: float = 300.0
    """A table whose game has not started expires after this long without activity and
    with nobody connected to it (on any process of a cluster), so tables made and left
    give their place back within minutes."""
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
    db_start_wait: float = 10.0
    """How long the server keeps trying, at start, a database that does not answer yet
    (PostgreSQL starting beside it) before it gives up with the reason."""
    cluster: bool = False
    """Several processes share the database: tables are owned through leases, and each
    process polls the database for events written by the others."""
    instance: str = ""
    """This process's name in leases and presence rows (default: random)."""
    lease: float = 10.0
    """Seconds a table's owner holds it without renewing; a dead owner's tables are
    taken over after this long."""
    poll_every: float = 0.1
    """Seconds between looks at the database for other processes' events (cluster),
    when they are not announced (SQLite, or the ``LISTEN`` connection is lost)."""
    notify: bool = True
    """Cluster on PostgreSQL: processes announce every change of a table with
    ``NOTIFY`` and hear the others' on a ``LISTEN`` connection, so events reach every
    process's clients at once; polling stays as the fallback."""
    poll_listening: float = 2.0
    """Seconds between looks at the database while the ``LISTEN`` connection is up (a
    safety net: announced changes do not wait for it)."""
    arrival_lag_ms: float = 20.0
    """While the event loop runs later than this (ms), table creation and joining wait
    at the door, one at a time, so the tables in play come first (0: never)."""
    arrival_max_wait: float = 5.0
    """The longest a creation or join waits at that door (seconds); then it goes on."""
    gc_freeze_every: float = 0.1
    """Seconds between moving every live object out of the garbage collector's reach
    (``gc.freeze``; see :mod:`parlour.server.collector`). 0 leaves Python's own
    schedule, whose passes over young objects took 60-150 ms at 1,000 tables."""
    gc_full_every: float = 600.0
    """At most this many seconds between full garbage collections (cyclic garbage)."""
    gc_full_grow_mb: float = 512.0
    """A full collection also runs when the process's resident memory has grown by this
    many MB since the last one (cyclic garbage piling up; each full collection pauses
    the server for about 1 s at 1,000 tables)."""
    gc_full_min: float = 60.0
    """No full collection sooner than this many seconds after the last one."""
    gc_young: int = 10_000
    """Objects allocated (less those freed) between two passes of the garbage collector
    over the youngest objects (Python's default is 700). Every move allocates a few
    thousand short-lived dicts and lists; at the default the collector ran several
    times a move, about 5% of the server's CPU. A pass over 10,000 objects is well
    under a millisecond."""

    # --- observability (server/metrics.py, server/logs.py, server/readiness.py) -----
    metrics: bool = True
    """Serve Prometheus metrics at ``/metrics`` (numbers and fixed words only: no card,
    name, table id or secret). Off: 404; or keep ``/metrics`` off the proxy."""
    access_log: bool = True
    """One JSON ``request`` log line per HTTP request and WebSocket upgrade."""
    ready_every: float = 1.0
    """Seconds a ``/readyz`` answer is kept (the database is asked at most this often)."""

    # --- who is asking ---------------------------------------------------------------
    trusted_proxies: list[str] = field(default_factory=list)
    """Addresses of reverse proxies whose ``X-Forwarded-For`` names the client."""
    public_url: str = ""
    """The address people use (``https://tables.example``): links are built from it and
    its host is the one allowed in ``Host`` and ``Origin``."""
    allowed_hosts: list[str] = field(default_factory=list)
    """Host names accepted in the ``Host`` header (DNS rebinding); empty: the public
    URL's host, or else ``localhost``, ``127.0.0.1`` and ``::1``. ``*`` allows any."""

    key_secret: str = field(default="", repr=False)
    """The secret that every table's invite and spectator keys are derived from
    (HMAC). Empty: one is made at first start and kept in the database (table
    ``server_secrets``), which every process of a cluster shares. Set it (the same in
    every process) to keep it out of the database, so that a copy of the database opens
    no table; the links given out under the stored one keep working."""

    # --- HTTP ------------------------------------------------------------------------
    max_body_bytes: int = 1_000_000
    """Largest HTTP request body; a larger one is refused while it is read (413)."""
    create_per_minute: float = 10.0
    """Tables one address may create a minute (a burst of ``create_burst``); then 429."""
    create_burst: int = 10
    max_open_tables: int = 2000
    """Tables waiting or in play at once, over all addresses; then 503."""
    create_reserve: int = 500
    """The last places under ``max_open_tables`` kept for people with a live session
    (a seat at a game in play or just played, or signed in): others get 503 once the
    open tables reach ``max_open_tables - create_reserve`` (a quarter of
    ``max_open_tables`` at most)."""
    max_tables_per_class: int = 40
    """Open tables (waiting or in play) created from one address class at once: the
    /24 of an IPv4 address, the /48 of an IPv6 one; then 429 (people with a live
    session are not held to it)."""
    live_session: float = 600.0
    """How long after a seat was last connected at a started game its address counts as
    a live session (for ``create_reserve`` and ``max_tables_per_class``)."""
    max_rounds: int = 100
    """Largest ``rounds`` a table may ask for; more is refused (400)."""
    max_table_moves: int = 72_000
    """Most moves a table may come to: its rounds times the game's most moves a round
    (``Game.max_round_moves``: Fan Tan 2n(53 - n) by FT-11, Fanti 48). A table whose
    rules allow more is refused (400); the default (100 rounds of 720) refuses nothing
    ``max_rounds`` allows, and the rules keep every table within its own bound."""
    sync_per_minute: float = 12.0
    """Whole-state requests (``sync``) one connection may make a minute, in bursts of
    ``sync_burst``; then error ``sync_limit`` with ``retry_after`` seconds."""
    sync_burst: int = 3
    retention: float = 30 * 86400.0
    """Finished and expired tables are deleted (with their events) this long after
    their last activity."""

    # --- bots --------------------------------------------------------------------------
    bot_workers: int = 2
    """Worker processes that think for bots and hints (0: a thread in the server
    process, for tests and debugging only)."""
    bot_move_seconds: float = 5.0
    """Most CPU time a bot move or hint may take; a worker over it is replaced and the
    move falls back to a quick bot."""
    bots_only_move_seconds: float = 0.3
    """Most search time of one move at a table of bots only (an ``expert`` there plays
    on this quick budget), so such tables cannot keep the workers from people's tables."""
    internal_bots: bool = False
    record_export: bool = False
    """Whether the operator lets ``parlour admin export-records`` copy the finished
    tables' records out of the database for research (players' games: opt-in, off by
    default; never a game still in play)."""
    """Offer the research engines (``pimc``, ``ismcts``) to table creators."""
    max_bot_tables: int = 8
    """Tables of bots only, at once, over all addresses; then 429."""
    max_bot_tables_per_address: int = 2
    unwatched_expiry: float = 600.0
    """A table of bots only pauses while nobody watches it and expires after this long
    unwatched."""
    hints_per_round: int = 5
    """Hints one seat may ask for in one round (the host can switch hints off)."""

    # --- connections -------------------------------------------------------------------
    max_sockets: int = 4000
    """Open WebSockets at once (kept below the process's descriptor limit)."""
    max_sockets_per_address: int = 64
    max_unhello_per_address: int = 8
    """WebSockets of one address that have not said hello yet."""
    max_spectators: int = 50
    """Spectators at one table."""
    max_seats_per_address: int = 2
    """Seats of one table one address may claim (the host's included)."""
    public_seats_per_address: int = 1
    """Seats of one public table (listed on the front page) one address may claim."""
    reclaim_after: float = 300.0
    """A seat of a public table freed by the host or left may not be taken again from
    the same address for this long (409 with Retry-After)."""
    rejoin_per_minute: float = 10.0
    """Rejoin-link attempts one address may make a minute (bursts of ``rejoin_burst``);
    then 429."""
    rejoin_burst: int = 10
    presence_every: float = 0.25
    """Connects and disconnects at a table are sent at most this often (coalesced)."""
    sqlite_synchronous: str = "NORMAL"
    """SQLite ``synchronous`` for the table database: NORMAL (an acknowledged move
    survives a crash of the server process, not necessarily a power loss or a crash of
    the machine) or FULL (it survives those too, for an fsync on every commit: see
    docs/hardening.md for the measured cost)."""

    # --- the card room (server/cardroom.py) ---------------------------------------------
    chat_max_length: int = 200
    """Characters in one chat line; longer lines are cut (over twice this: refused)."""
    chat_burst: int = 5
    """Chat lines one seat, and one address, may send at a table within
    ``chat_window`` seconds (on average: a bucket of ``chat_burst`` lines refilling over
    the window), whatever the number of sockets."""
    chat_window: float = 10.0
    chat_keep: int = 50
    """Chat lines kept per table and channel (players', spectators'): new connections
    get these."""
    open_tables_listed: int = 50
    """Public tables listed on the front page at most."""
    review_moves: int = 60
    """Moves one review request values at most (one seat, one round)."""

    # --- work a client chooses the cost of (server/thinking.py, ASKED) ----------------
    work_cpu_seconds: float = 10.0
    """CPU time one replay, review or record check may take in its worker (hints:
    ``bot_move_seconds``); over it the job is stopped and the client told (413)."""
    work_wall_seconds: float = 60.0
    """Wall time one replay, review or record check may take (a job stuck in compiled
    code, out of reach of the CPU-time signal, or starved by a busy machine): its worker
    is then killed and replaced, and the client told to try again (503)."""
    work_memory_mb: int = 512
    """Memory one replay, review, record check or hint may add to its worker; over it the
    job fails, the client is told (413) and the worker is replaced."""
    work_queue: int = 16
    """Replays, reviews, record checks and hints waiting for a worker, over all
    clients; one more is refused at once (503, ``Retry-After``)."""
    work_per_address: int = 2
    """Replays, reviews, record checks and hints one address may have waiting or being
    worked on; one more is refused at once (429, ``Retry-After``)."""
    replay_max_bytes: int = 8_000_000
    """Largest replay answer (every step a delta of the one before: about 230 bytes a
    move at 8 seats); a record whose replay would be larger is refused (413)."""

    # --- between visits (server/between.py, server/push.py) ---------------------------
    your_move_listed: int = 50
    """Games listed under "Your move" at most (the most pressing first)."""
    your_move_scan: int = 200
    """A player's latest seats looked through for "Your move"."""
    your_move_per_minute: float = 60.0
    """"Your move" lists one address may ask for a minute (bursts of ``your_move_burst``)."""
    your_move_burst: int = 20
    web_push: bool = False
    """Send Web Push notifications ("your move") to players whose browser is closed
    (docs/deploy.md). Off: the page's own notifications only."""
    vapid_private_key: str = field(default="", repr=False)
    """The VAPID private key push messages are signed with (32 bytes, base64url). Empty:
    one is made at first start and kept in the database (``server_secrets``)."""
    vapid_subject: str = "mailto:operator@localhost"
    """Who push services may contact about this server's messages (``mailto:`` or an
    https URL): set it to the operator's address."""
    push_hosts: list[str] = field(default_factory=lambda: [
        "fcm.googleapis.com", "updates.push.services.mozilla.com", "push.apple.com",
        "notify.windows.com"])
    """Push services whose endpoints are accepted (the host or a subdomain, https only);
    any other endpoint: 400 ``bad_endpoint``."""
    push_per_player: int = 5
    """Browsers kept per player for push (the oldest is dropped)."""
    push_timeout: float = 10.0
    """Seconds one push request may take."""
    push_ttl: int = 86_400
    """Seconds a push service keeps a message for a browser that is offline."""
    room_counts_every: float = 5.0
    """Seconds the front page's players-online and games-in-play numbers are kept
    before they are counted again."""

    # --- pairing pools (server/pools.py) ---------------------------------------------
    pool_every: float = 0.5
    """Seconds between pairing rounds (a newcomer, here or announced by another process,
    starts one at once)."""
    pool_band: float = 50.0
    """Rating points either side a newcomer accepts an opponent."""
    pool_band_per_second: float = 5.0
    """Points the band widens for every second waited."""
    pool_band_open_after: float = 45.0
    """Seconds of waiting after which any rating fits."""
    pool_fill_after: float = 60.0
    """Seconds of waiting after which computer players are offered for the empty seats
    (the table is then unrated)."""
    pool_timer: int = 60
    """Seconds per turn at a table made by a pool (0: no turn timer)."""
    pool_wait: float = 20.0
    """Longest a waiting person's question is held open before it is answered."""
    pool_recheck: float = 2.0
    """Seconds between looks at a waiting entry when no change is announced."""
    pool_stale: float = 45.0
    """A waiting entry not asked about for this long leaves the pool (its page closed)."""
    pool_enter_per_minute: float = 10.0
    """Pool entries one address may make a minute (bursts of ``pool_enter_burst``)."""
    pool_enter_burst: int = 5
    pool_asks_per_minute: float = 240.0
    """Pool questions (wait, leave, fill) one address may ask a minute."""
    pool_asks_burst: int = 60
    pool_max_waiting: int = 5000
    """People waiting in all pools at once; then 503."""
    # --- people: guests, accounts, sessions (server/identity.py, server/accounts.py) -----
    guest_days: float = 400.0
    """How long a guest's cookie (their lasting identity in one browser) lives."""
    session_days: float = 30.0
    """How long a signed-in session lives (then the player signs in again)."""
    guests_per_minute: float = 20.0
    """New guest identities one address may get a minute (a burst of ``guests_burst``);
    then taking a seat without a cookie gets 429."""
    guests_burst: int = 40
    signin_per_minute: float = 10.0
    """Sign-in attempts (password or passkey) one address may make a minute (bursts of
    ``signin_burst``); then 429."""
    signin_burst: int = 10
    signin_name_per_minute: float = 2.0
    """Sign-in attempts for one name a minute, from anywhere (bursts of
    ``signin_name_burst``): guessing one account's password is slow from many
    addresses too. The same words and status whether the name exists or not."""
    signin_name_burst: int = 10
    me_per_minute: float = 120.0
    """Other account requests one address may make a minute (``/api/me`` and its
    parts, signing out), bursts of ``me_burst``; then 429."""
    me_burst: int = 60
    passkey_options_per_minute: float = 20.0
    """Passkey challenges (``/api/passkeys/options``) one address may ask for a minute
    (bursts of ``passkey_options_burst``); each is kept 5 minutes, used once."""
    passkey_options_burst: int = 20
    signup_per_minute: float = 1.0
    """New accounts one address may make a minute (bursts of ``signup_burst``)."""
    signup_burst: int = 5
    password_min_length: int = 8
    password_time_cost: int = 3
    """argon2id iterations (argon2-cffi's default, RFC 9106's low-memory choice)."""
    password_memory_kib: int = 65536
    """argon2id memory per hash, in KiB (64 MiB)."""
    password_concurrency: int = 2
    """Password hashes computed at once (each takes ``password_memory_kib``); more
    wait their turn."""

    # --- ratings (server/ratings.py, server/standings.py) -----------------------------
    rating_provisional_sigma: float = 6.5
    """A rating is marked provisional while its uncertainty (OpenSkill's sigma, 8.33 for
    a newcomer) is above this: about ten games head to head, fewer at bigger tables."""
    leaderboard_min_games: int = 3
    """Rated games a player needs in a pool to be listed on its leaderboard."""
    leaderboard_rows: int = 50
    """Players a leaderboard lists at most."""
    profile_games: int = 20
    """Recent games a profile lists."""
    profile_history: int = 200
    """Rated games a profile reads (its chart and results against each opponent)."""
    profile_opponents: int = 20
    """Opponents a profile lists at most (those met most often)."""
    standings_per_minute: float = 120.0
    """Leaderboard and profile reads one address may make a minute (bursts of
    ``standings_burst``); then 429 with Retry-After."""
    standings_burst: int = 30

    # --- friends, blocks, reports, moderation (social.py, moderation.py) -------------
    max_follows: int = 500
    """Players one player may follow; then 409."""
    max_blocks: int = 500
    """Players one player may block; then 409."""
    online_window: float = 120.0
    """A player who asked the server anything this many seconds ago counts as online."""
    invite_keep: float = 3600.0
    """Seconds an invitation to a table is shown."""
    social_per_minute: float = 60.0
    """Follows, blocks, invitations and reports one address may send a minute (bursts of
    ``social_burst``); then 429."""
    social_burst: int = 30
    operator_secret: str = field(default="", repr=False)
    """The secret of the operator's moderation page and API (``/admin``); empty: both
    are off (404)."""
    admin_per_minute: float = 30.0
    """Requests to the moderation API one address may make a minute (a wrong secret
    included); then 429."""
    admin_burst: int = 10
    chat_new_age: float = 86400.0
    """Players whose identity is younger than this many seconds chat under the
    stricter limit ``chat_new_burst``."""
    chat_new_burst: int = 2
    """Chat lines a new player may send within ``chat_window`` seconds."""

    @classmethod
    def from_env(cls, **overrides: object) -> Settings:
        """Defaults, then ``PARLOUR_*`` environment variables, then ``overrides``."""
        s = cls()
        env = os.environ
        if "PARLOUR_DB" in env:
            s.db_url = db_url_for(env["PARLOUR_DB"])
        if env.get("PARLOUR_ORIGINS"):
            s.allowed_origins = [o.strip() for o in env["PARLOUR_ORIGINS"].split(",") if o.strip()]
        for f in dataclasses.fields(cls):
            key = "PARLOUR_" + f.name.upper()
            if key in env and env[key] != "":
                try:
                    s.set(f.name, env[key])
                except ValueError as e:  # say where the bad value came from
                    raise ValueError(f"{e} (from the environment variable {key})") from None
        for k, v in overrides.items():
            if v is not None:
                setattr(s, k, v)
        return s

    def set(self, name: str, text: str) -> None:
        """Set a field from text (``--set NAME=VALUE`` or an environment variable)."""
        fields = {f.name: f for f in dataclasses.fields(self)}
        if name not in fields:
            raise ValueError(f"no setting {name!r}; settings: {', '.join(sorted(fields))}")
        current: Any = getattr(self, name)
        value: Any
        try:
            if isinstance(current, bool):
                if text.lower() not in ("1", "0", "true", "false", "yes", "no", "on", "off"):
                    raise ValueError("expected 1 or 0")
                value = text.lower() in ("1", "true", "yes", "on")
            elif isinstance(current, int):
                value = int(text)
            elif isinstance(current, float):
                value = float(text)
            elif isinstance(current, list):
                value = [p.strip() for p in text.split(",") if p.strip()]
            else:
                value = text
        except ValueError as e:
            raise ValueError(f"setting {name}: {text!r} is not a valid value ({e})") from None
        if isinstance(value, int | float) and not isinstance(value, bool) and value < 0:
            raise ValueError(f"setting {name}: must not be negative")
        setattr(self, name, value)


def db_url_for(value: str) -> str:
    """A ``--db`` value as a SQLAlchemy URL: a plain path means a SQLite file."""
    if "://" in value:
        if value.startswith("postgres://"):
            value = "postgresql://" + value[len("postgres://"):]
        if value.startswith("postgresql://"):
            value = "postgresql+psycopg://" + value[len("postgresql://"):]
        return value
    return "sqlite:///" + value
