"""One table in memory: settings, seats, the match, and what the server does next.

Nothing here does input or output; :mod:`parlour.server.service` loads a
:class:`LiveTable` from its database row, changes it under the table's lock, writes
it back and broadcasts. The rules are the engine's: this module only asks the round
whose turn it is, what is legal and whether it is over.
"""

from __future__ import annotations

import asyncio
import secrets
import time
from dataclasses import dataclass, field
from typing import Any

from parlour import cards, record
from parlour.bots import make_bot
from parlour.bots.base import Bot
from parlour.game import PASS, Game, Move
from parlour.games import get_game
from parlour.match import Commit, Match, Shuffler, commitment
from parlour.server.db import TableRow
from parlour.server.settings import Settings
from parlour.server.tokens import PURPOSES, KeyRing, new_salt

COLUMNS = ("status", "config", "record", "seq", "deadline", "salt", "log", "rematch",
           "updated", "snap_seq")
"""The columns of a table row that change while it is played."""
JSON_COLUMNS = ("config", "record", "log")


def pack(values: dict[str, Any]) -> dict[str, Any]:
    """Row values as kept in memory after a write: the JSON columns as encoded bytes.

    One bytes object instead of a tree of dicts and lists per table keeps the heap
    small, so the garbage collector's full passes stay short (they scan every live
    container object).
    """
    return {k: (_dumps(v) if k in JSON_COLUMNS else v) for k, v in values.items()}


def unpack(values: dict[str, Any]) -> dict[str, Any]:
    return {k: (_loads(v) if k in JSON_COLUMNS else v) for k, v in values.items()}


try:
    import orjson

    def _dumps(v: Any) -> bytes:
        return orjson.dumps(v, option=orjson.OPT_NON_STR_KEYS)

    _loads = orjson.loads
except ImportError:  # pragma: no cover -- orjson is a dependency
    import json

    def _dumps(v: Any) -> bytes:
        return json.dumps(v).encode()

    _loads = json.loads


@dataclass
class SeatInfo:
    """A seat: a person (claimed once ``token_hash`` is set) or a bot of a level.

    ``auto`` names why a stand-in bot plays for a person right now (``"timeout"``,
    ``"disconnected"``), or is None.
    """

    name: str
    kind: str
    bot: str | None = None
    token_hash: str | None = None
    auto: str | None = None
    rejoin_hash: str | None = None
    """The hash of the seat's personal rejoin secret (server/cardroom.py)."""
    open: bool = False
    """The host re-opened the seat: the stand-in plays it until a new person sits down."""
    connected_once: bool = False
    by: str | None = None
    """Who claimed the seat: the keyed hash of their address (``Quotas.address_key``),
    never the address; stored, so every process of a cluster counts the seats one
    address holds at a table."""

    @property
    def claimed(self) -> bool:
        return self.kind == "bot" or self.token_hash is not None

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "kind": self.kind, "bot": self.bot,
                "token_hash": self.token_hash, "auto": self.auto,
                "rejoin_hash": self.rejoin_hash, "open": self.open,
                "connected_once": self.connected_once, "by": self.by}

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> SeatInfo:
        return cls(d["name"], d["kind"], d.get("bot"), d.get("token_hash"), d.get("auto"),
                   d.get("rejoin_hash"), bool(d.get("open")), bool(d.get("connected_once")),
                   d.get("by"))


@dataclass
class Action:
    """The next thing the server itself does at a table, and when (absolute time)."""

    kind: str  # "deal" | "bot" | "pass" | "timeout"
    at: float
    seat: int | None = None


@dataclass
class LiveTable:
    """A table as the server holds it while it is in use."""

    id: str
    game: Game
    status: str
    created: float
    config: dict[str, Any]
    seats: list[SeatInfo]
    invite_key: str
    """The invite link's key: derived from the server secret (``tokens.KeyRing``), never
    stored (empty when the table was read without the key ring)."""
    watch_key: str
    """The spectator link's key, likewise."""
    match: Match | None = None
    seq: int = 0
    deadline: float | None = None
    salt: str | None = None
    log: list[dict[str, Any]] = field(default_factory=list)
    rematch: str | None = None
    kept: dict[str, str] = field(default_factory=dict, repr=False)
    """What the row keeps of the keys (``invite``, ``watch``): empty for tables made by
    this version; the hash of the key an earlier version stored otherwise."""
    # runtime only
    lock: asyncio.Lock = field(default_factory=asyncio.Lock, repr=False)
    conns: set[Any] = field(default_factory=set, repr=False)
    timer_task: asyncio.Task | None = field(default=None, repr=False)
    grace_tasks: dict[int, asyncio.Task] = field(default_factory=dict, repr=False)
    chat: list[dict[str, Any]] = field(default_factory=list, repr=False)
    """Recent chat lines (never in the record: server/cardroom.py)."""
    chat_seen: int = field(default=0, repr=False)
    """The id of the newest chat line here (cluster: lines stored after it are news)."""
    grace_until: dict[int, float] = field(default_factory=dict, repr=False)
    """When the stand-in takes over each disconnected seat (absolute time)."""
    bots: dict[int, Bot] = field(default_factory=dict, repr=False)
    """Seeded (test) tables only: one bot per seat for the whole game."""
    updated: float = 0.0
    committed: dict[str, Any] = field(default_factory=dict, repr=False)
    """The row as last read or written: what a failed write goes back to."""
    tail: list[dict[str, Any]] = field(default_factory=list, repr=False)
    """Move events saved since ``record`` and ``log`` were last written in full."""
    logged: int = 0
    """How many entries of ``log`` are saved (in the snapshot or as tail events)."""
    remote: set[int] = field(default_factory=set, repr=False)
    """Seats connected to another server process (cluster mode)."""
    absent: dict[int, float] = field(default_factory=dict, repr=False)
    """Since when each person seat has been connected nowhere (cluster mode)."""
    paused: float | None = field(default=None, repr=False)
    """Since when a table of bots only has waited for someone to watch it."""
    creator: str | None = field(default=None, repr=False)
    """The address that created the table (for per-address limits; not stored)."""
    hints_used: dict[tuple[int, int], int] = field(default_factory=dict, repr=False)
    """Hints asked for, per (round, seat)."""
    watchers: dict[Any, int] = field(default_factory=dict, repr=False)
    """The number each spectator who spoke is known by ("Spectator 2"), by player or
    socket, so spectators are told apart in chat."""
    derived: dict[str, Any] = field(default_factory=dict, repr=False)
    """Values the views build once and keep while they hold (server/views.py)."""

    def claims(self, by: str) -> int:
        """Seats of this table held now by the address whose key is ``by``."""
        return sum(1 for s in self.seats if s.by == by and s.token_hash is not None)

    # --- persistence -------------------------------------------------------------

    @classmethod
    def from_row(cls, row: TableRow, tail: list[dict[str, Any]] | tuple = (),
                 keys: KeyRing | None = None) -> LiveTable:
        """The table a row stores; the match is replayed (and checked) from its record,
        then the moves saved after the record's snapshot (``tail``) are applied. The
        links' keys come from ``keys``."""
        cfg = dict(row.config)
        seats = [SeatInfo.from_json(s) for s in cfg.pop("seats")]
        links = {p: keys.key(row.id, p) if keys is not None else "" for p in PURPOSES}
        t = cls(row.id, get_game(row.game), row.status, row.created, cfg, seats,
                links["invite"], links["watch"], seq=row.seq, deadline=row.deadline,
                salt=row.salt, log=list(row.log or []), rematch=row.rematch,
                kept={"invite": row.invite_key or "", "watch": row.watch_key or ""})
        if row.record is not None:
            t.match = record.load(row.record)
        t.updated = row.updated
        t.committed = pack({c: getattr(row, c) for c in COLUMNS})
        for e in tail:
            r = t.match.current if t.match is not None else None
            if (e.get("kind") != "move" or r is None or e.get("seat") != r.current_player
                    or e.get("round") != len(t.match.rounds)):  # type: ignore[union-attr]
                raise ValueError(f"table {row.id}: stored event {e!r} does not follow")
            t.match.apply(t.game.move_from_json(e["move"]))  # type: ignore[union-attr]
            t.log.append(dict(e))
        t.tail = [dict(e) for e in tail]
        t.logged = len(t.log)
        return t

    def restore(self) -> None:
        """Go back to the row as last read or written (after a write that failed)."""
        c = unpack(self.committed)
        row = TableRow(id=self.id, game=self.game.name, created=self.created,
                       invite_key=self.kept.get("invite", ""),
                       watch_key=self.kept.get("watch", ""),
                       **{k: c[k] for k in COLUMNS})
        self.take(LiveTable.from_row(row, self.tail))

    def take(self, fresh: LiveTable) -> None:
        """Copy the stored fields of ``fresh`` (the same table, read again) into this one."""
        for name in ("status", "config", "seats", "match", "seq", "deadline", "salt", "log",
                     "rematch", "updated", "committed", "tail", "logged"):
            setattr(self, name, getattr(fresh, name))
        self.derived = {}

    def config_json(self) -> dict[str, Any]:
        return {**self.config, "seats": [s.to_json() for s in self.seats]}

    def row_values(self, full: bool = True) -> dict[str, Any]:
        """The fields an event write stores: with ``full``, the record and the log too
        (a snapshot); without, only what a move in the middle of a round changes."""
        values = {"status": self.status, "config": self.config_json(),
                  "deadline": self.deadline, "salt": self.salt}
        if full:
            values["record"] = record.dump(self.match) if self.match is not None else None
            values["log"] = list(self.log)
        return values

    # --- facts -----------------------------------------------------------------------

    @property
    def players(self) -> int:
        return len(self.seats)

    @property
    def rules(self) -> dict[str, Any]:
        return self.config["rules"]

    @property
    def timer(self) -> int | None:
        return self.config.get("timer")

    @property
    def days(self) -> int | None:
        """Days for each move at a correspondence table (its ``timer`` is as long), or
        None: absence there is normal, so no grace time runs (server/clock.py)."""
        return self.config.get("days")

    @property
    def round_number(self) -> int:
        """Rounds dealt so far (the round in play, or the last one played)."""
        return len(self.match.rounds) if self.match else 0

    def connected(self, seat: int) -> bool:
        return seat in self.remote or self.connected_here(seat)

    def connected_seats(self) -> set[int]:
        """Every seat :meth:`connected` answers yes for, in one pass over the
        connections (for the seat list of every state message)."""
        return self.remote | {c.seat for c in self.conns if c.seat is not None}

    def connected_here(self, seat: int) -> bool:
        return any(c.seat == seat for c in self.conns)

    def seat_of_token_hash(self, h: str) -> int | None:
        for i, s in enumerate(self.seats):
            if s.token_hash is not None and secrets.compare_digest(s.token_hash, h):
                return i
        return None

    def controller(self, seat: int) -> str:
        """Who moves for a seat now: ``"person"``, ``"bot"`` or ``"standin"``."""
        s = self.seats[seat]
        if s.kind == "bot":
            return "bot"
        return "standin" if s.auto else "person"

    # --- what happens next -------------------------------------------------------------

    def next_action(self, settings: Settings, now: float | None = None) -> Action | None:
        """What the server must do by itself next, if anything."""
        now = time.time() if now is None else now
        if self.status != "playing" or self.match is None or self.match.is_over:
            return None
        if self.match.needs_deal:
            return Action("deal", now + settings.round_pause)
        r = self.match.current
        assert r is not None
        p = r.current_player
        if self.forced_pass(r):  # nothing fits and everyone may know it: announced
            return Action("pass", now + settings.bot_delay, p)
        if self.controller(p) != "person":
            return Action("bot", now + settings.bot_delay, p)
        if self.timer:
            return Action("timeout", now + self.timer, p)
        return None

    def plan(self, settings: Settings) -> Action | None:
        """The next action (:meth:`next_action`); its time becomes the deadline stored
        with the table's next write, so a restarted server resumes it on time."""
        action = self.next_action(settings)
        self.deadline = action.at if action else None
        return action

    def forced_pass(self, r: Any) -> bool:
        """Whether the server passes for the player to move by itself, announced: only a
        pass is legal and the rules make that public. Under ``strict: false`` (FT-5) a
        pass may also withhold a card (``Game.public_passes``), so nobody may learn that it
        was the only move:
        the player (or their bot) passes like any other move, on the same clock."""
        return r.legal_moves() == [PASS] and not self.private_passes

    @property
    def private_passes(self) -> bool:
        """Whether a pass may withhold a playable card (the game's ``public_passes``), so that
        nobody may learn whether a pass was the only move: not from the messages, not
        from their timing (the clock holds a bot's passes, ``TableClock.release_at``)."""
        return not self.game.public_passes(self.rules)

    def resumed_action(self, settings: Settings) -> Action | None:
        """The next action, keeping the stored absolute deadline (after a restart)."""
        a = self.next_action(settings)
        if a is not None and self.deadline is not None:
            a.at = self.deadline
        return a

    @property
    def seeded(self) -> bool:
        """A test table with a fixed seed (only on a server started for testing)."""
        return (self.config.get("test") or {}).get("seed") is not None

    def bot_for(self, seat: int) -> Bot:
        """A seeded table's bot for ``seat``, kept for the whole game, so its random
        stream -- and so the game -- is the same in every run (tests)."""
        if seat not in self.bots:
            name, _ = self.bot_spec(seat)
            seed = self.config["test"]["seed"] * 100 + seat
            self.bots[seat] = make_bot(name, self.game.name, seed)
        return self.bots[seat]

    def earlier_views(self, seat: int) -> tuple[Any, ...]:
        """The seat's views of the game's finished rounds, oldest first: bots and hints
        read each player from there on (:func:`parlour.bots.opponents.read_earlier`)."""
        return tuple(self.match.earlier_views(seat)) if self.match else ()

    def bot_spec(self, seat: int) -> tuple[str, int]:
        """The bot that plays ``seat`` now (its level, or the table's stand-in) and a seed
        for its next decision: derived from the test seed and the sequence number when
        the table has one (reproducible), else fresh from ``secrets``."""
        s = self.seats[seat]
        name = s.bot if s.kind == "bot" else self.config.get("standin") or "greedy"
        test = self.config.get("test") or {}
        seed = ((test["seed"] * 100 + seat) * 100_003 + self.seq) % 2**63 \
            if test.get("seed") is not None else secrets.randbits(32)
        return name or "random", seed

    @property
    def bots_only(self) -> bool:
        """No seat of the table is a person's."""
        return all(s.kind == "bot" for s in self.seats)

    @property
    def watched(self) -> bool:
        """Someone is connected to the table (here, or to another process)."""
        return bool(self.conns) or bool(self.remote)

    # --- changes (the service persists and broadcasts them) -------------------------

    def start(self) -> None:
        """Create the match; the first deal follows as its own event."""
        test = self.config.get("test") or {}
        shuffler = Shuffler(test["seed"]) if test.get("seed") is not None else Shuffler.live()
        meta = {"server": "parlour", "table": self.id,
                "bots": {str(i): s.bot for i, s in enumerate(self.seats) if s.kind == "bot"}}
        self.match = Match.new(self.game, self.players, self.rules,
                               [s.name for s in self.seats], shuffler, meta=meta, deal=False)
        if test.get("dealer") is not None:
            self.match.first_dealer = test["dealer"] % self.players
        self.status = "playing"

    def deal(self) -> dict[str, Any]:
        """Deal the next round from a live shuffle (C-3) with a fresh commitment."""
        assert self.match is not None
        test = self.config.get("test") or {}
        decks = test.get("decks") or []
        k = len(self.match.rounds)
        if k < len(decks):
            deck = [cards.from_code(c) for c in decks[k]]
        elif test.get("seed") is not None:
            deck = Shuffler(test["seed"] * 1000 + k).deck()
        else:
            deck = Shuffler.live().deck()
        self.salt = new_salt()
        commit = commitment(deck, self.salt)
        r = self.match.deal(deck, Commit(commit))
        entry = {"kind": "deal", "round": k + 1, "dealer": r.dealer, "commit": commit}
        self.log.append(entry)
        return entry

    def apply(self, seat: int, move: Move, by: str) -> dict[str, Any]:
        """Apply a legal move of ``seat`` (checked by the caller) and log it."""
        assert self.match is not None
        r = self.match.apply(move)
        k = len(self.match.rounds)
        entry: dict[str, Any] = {"kind": "move", "round": k, "seat": seat,
                                 "move": self.game.move_to_json(move), "by": by}
        self.log.append(entry)
        if r.is_over:
            self.match.commits[-1] = Commit(self.match.commits[-1].commit, self.salt)
            left = r.leftovers()
            if left:  # said out loud, not moved silently (Round.leftovers)
                self.log.append({"kind": "leftovers", "round": k, "seat": r.leftovers_to(),
                                 "cards": cards.codes(left)})
            self.log.append({"kind": "round_end", "round": k, "score": r.score(),
                             "totals": self.match.totals})
            self.salt = None
            if self.match.is_over:
                self.status = "over"
                self.log.append({"kind": "game_over", "totals": self.match.totals,
                                 "winners": self.match.winners})
        return entry
