"""What people ask of a table: create, join or sit, start, move, hint, back, release, leave.

Each intent is checked under the table's lock (who asks, the table's state, the
sequence number it answers, the engine's ``why_illegal``) and refused with a code and
plain words, or handed to the write path (:mod:`parlour.server.writes`).
"""

from __future__ import annotations

import asyncio
import logging
import math
import time
from typing import TYPE_CHECKING, Any

from parlour import cards, refusals, speech
from parlour.bots import bot_names
from parlour.games import get_game
from parlour.options import OptionError
from parlour.server import metrics, names, people
from parlour.server.db import TableRow
from parlour.server.errors import ServiceError
from parlour.server.hub import Connection
from parlour.server.limits import refuse_if_waiting
from parlour.server.live import LiveTable, SeatInfo
from parlour.server.protocol import (
    CreateTable,
    HintMsg,
    Joined,
    MoveMsg,
    ReleaseMsg,
    TestOptions,
)
from parlour.server.thinking import ASKED, OverBudget, QueueFull, WorkFailed
from parlour.server.tokens import hash_token, new_key, new_table_id, new_token

if TYPE_CHECKING:
    from collections.abc import Callable

    from parlour.server.clock import TableClock
    from parlour.server.core import Core
    from parlour.server.identity import Player
    from parlour.server.moderation import Moderation
    from parlour.server.roles import Coordination
    from parlour.server.writes import Writer

log = logging.getLogger("parlour.server")


def default_bot(game: str) -> str:
    names = bot_names(game)
    for pick in ("medium", "heuristic", "greedy"):
        if pick in names:
            return pick
    return names[0]


DAY = 86_400
"""Seconds in a day: a correspondence table's turn timer is its days in seconds."""
OPEN_RECOUNT = 1.0
"""Seconds between counts of the open tables in the database (see ``open_tables``)."""
INTERNAL_BOTS = frozenset({"pimc", "ismcts"})
"""Research engines: strong only with budgets that cost far more than a level's."""
SAFE_INT = 2**53
"""Rule option numbers beyond this are refused (JSON and databases hold them exactly
up to here)."""


def _too_big(value: Any) -> bool:
    if isinstance(value, bool):
        return False
    if isinstance(value, int):
        return abs(value) > SAFE_INT
    if isinstance(value, float):
        return not math.isfinite(value) or abs(value) > SAFE_INT
    if isinstance(value, dict):
        return any(_too_big(v) for v in value.values())
    if isinstance(value, list):
        return any(_too_big(v) for v in value)
    return False


def _name(raw: str, person: bool = True) -> str:
    """A name as shown, or 400 bad_name: a person's own name may not be a word the
    room uses for someone (:func:`names.person`); a bot seat's name is the host's."""
    try:
        return names.person(raw) if person else names.clean(raw)
    except names.BadName as e:
        raise ServiceError(400, "bad_name", str(e)) from None


def _free_name(seats: list[SeatInfo], base: str) -> str:
    """``base``, or ``base (2)``... whichever no other seat is called."""
    taken = {names.key(s.name) for s in seats if s.name}
    name, n = base, 2
    while names.key(name) in taken:
        name, n = f"{base} ({n})", n + 1
    return name


def joined(t: LiveTable, seat: int | None, token: str | None,
           rejoin: str | None = None) -> Joined:
    """The reply to a create or join: a seat, its token and its personal rejoin link,
    or a spectator pass."""
    watch_url = f"/t/{t.id}#watch={t.watch_key}"
    if seat is None:
        return Joined(table=t.id, role="spectator", watch=t.watch_key, watch_url=watch_url,
                      table_url=watch_url)
    return Joined(table=t.id, role="seat", seat=seat, token=token,
                  invite_url=f"/t/{t.id}#invite={t.invite_key}", watch_url=watch_url,
                  table_url=f"/t/{t.id}",
                  rejoin_url=f"/t/{t.id}#rejoin={rejoin}" if rejoin else None)


class Intents:
    """The requests of players, hosts and spectators, for one service."""

    # Sibling parts, handed over by the service (TableService.__init__).
    writer: Writer
    clock: TableClock
    coord: Coordination
    moderation: Moderation

    def __init__(self, svc: Core) -> None:
        self.svc = svc
        self._open = (0, -OPEN_RECOUNT)
        """Open tables counted in the database, and when (``time.monotonic``)."""
        self._offered: dict[str, list[str]] = {}
        self._default: dict[str, str] = {}

    # --- creating and joining (HTTP) ---------------------------------------------------

    def offered_bots(self, game: str) -> list[str]:
        """The bots table creators may choose: the research engines only when the
        operator allows them (``internal_bots``)."""
        offered = self._offered.get(game)
        if offered is None:  # once a game: listing the bots looks for files
            names = bot_names(game)
            offered = self._offered[game] = (names if self.svc.settings.internal_bots else
                                             [n for n in names if n not in INTERNAL_BOTS])
        return list(offered)

    def default_bot(self, game: str) -> str:
        if game not in self._default:
            self._default[game] = default_bot(game)
        return self._default[game]

    def _admit(self, addr: str, bots_only: bool, trusted: bool = False) -> None:
        """The limits on new tables: per address (429), the open tables overall (503),
        the last ``create_reserve`` places and ``max_tables_per_class`` for people
        without a live session (503 / 429), tables of bots only (429).

        ``trusted``: the request comes from a signed-in player (accounts: not guests),
        who is held to the overall cap and the address's rate only."""
        svc = self.svc
        settings = svc.settings
        quotas = svc.limits
        wait = quotas.take(f"create:{quotas.address_key(addr)}",
                           settings.create_per_minute / 60.0, settings.create_burst)
        refuse_if_waiting(wait, "too many new tables from your address")
        open_now = self.open_tables()
        if open_now >= settings.max_open_tables:
            raise ServiceError(503, "busy", "the server has as many open tables as it can "
                               "hold: try again later", {"Retry-After": "60"})
        if not (trusted or self.live(addr)):
            reserve = min(settings.create_reserve, settings.max_open_tables // 4)
            if open_now >= settings.max_open_tables - reserve:
                raise ServiceError(503, "busy", "the server is nearly full: for now only "
                                   "people playing at a table can open new ones; try again "
                                   "later", {"Retry-After": "60"})
            if svc.store.count_open_from(quotas.class_key(addr)) >= \
                    settings.max_tables_per_class:
                raise ServiceError(429, "too_many_tables", "too many tables are open from "
                                   "your network: play at one of them, or try again once "
                                   "some have ended", {"Retry-After": "60"})
        if bots_only:
            running = svc.running_bot_tables()
            mine = sum(1 for t in running if t.creator == addr)
            if (len(running) >= settings.max_bot_tables
                    or mine >= settings.max_bot_tables_per_address):
                raise ServiceError(429, "too_many_bot_tables", "too many tables of computer "
                                   "players only are running: try again later",
                                   {"Retry-After": "60"})

    def live(self, addr: str) -> bool:
        """Whether the address has a live session: a seat connected at a started game
        within ``live_session`` seconds (on any process)."""
        return self.svc.limits.held(f"live:{self.svc.limits.address_key(addr)}") > 0

    def mark_live(self, addr: str) -> None:
        """A seat of ``addr`` is (or was just) connected at a started game."""
        if self.svc.settings.live_session > 0:
            self.svc.limits.hold(f"live:{self.svc.limits.address_key(addr)}",
                                 self.svc.settings.live_session)

    def open_tables(self) -> int:
        """Tables waiting or in play: counted in the database at most every
        ``OPEN_RECOUNT`` seconds (a count is a pass over them), the tables created here
        since then added (so one process never goes over the cap)."""
        count, at = self._open
        now = time.monotonic()
        if now - at >= OPEN_RECOUNT:
            count = self.svc.store.count_open()
            self._open = (count, now)
        return count

    async def create(self, req: CreateTable, addr: str = "local",
                     who: Player | None = None) -> Joined:
        svc = self.svc
        settings = svc.settings
        if who is not None:  # suspended or banned: told why (server/moderation.py)
            self.moderation.refuse(who.id, "play")
        if _too_big(req.rules):
            raise ServiceError(400, "bad_table", "a rule option holds a number too large "
                               "to play with")
        try:
            game = get_game(req.game)
            game.check_players(req.players)
            rules = game.rules(req.players, req.rules)
        except (ValueError, OptionError) as e:
            raise ServiceError(400, "bad_table", str(e)) from None
        rounds = rules.get("rounds")
        if isinstance(rounds, int) and rounds > settings.max_rounds:
            raise ServiceError(400, "bad_table", f"at most {settings.max_rounds} rounds "
                               "a game on this server")
        per_round = game.max_round_moves(req.players)
        if isinstance(rounds, int) and per_round and \
                rounds * per_round > settings.max_table_moves:
            most = max(1, settings.max_table_moves // per_round)
            raise ServiceError(400, "bad_table", f"at most {most} rounds of {game.title} for "
                               f"{req.players} players on this server: a game may come to "
                               f"{settings.max_table_moves} moves")
        available = self.offered_bots(game.name)
        specs = req.seats
        if specs is None:
            specs_list: list[Any] = [{"kind": "person"}] + [
                {"kind": "bot"} for _ in range(req.players - 1)]
        else:
            specs_list = [s.model_dump() for s in specs]
        if len(specs_list) != req.players:
            raise ServiceError(400, "bad_table",
                               f"{req.players} players need {req.players} seats, "
                               f"not {len(specs_list)}")
        standin = req.standin or self.default_bot(game.name)
        seats: list[SeatInfo] = []
        for i, spec in enumerate(specs_list):
            name = _name(spec.get("name") or "", person=spec["kind"] != "bot")
            if spec["kind"] == "bot":
                level = spec.get("bot") or self.default_bot(game.name)
                if level not in available:
                    raise ServiceError(400, "bad_table", f"seat {i}: unknown bot {level!r}; "
                                       f"choose one of: {', '.join(available)}")
                seats.append(SeatInfo(name or f"Bot {i + 1}", "bot", level))
            else:
                seats.append(SeatInfo(name, "person"))
        if standin not in available:
            raise ServiceError(400, "bad_table", f"unknown stand-in bot {standin!r}; "
                               f"choose one of: {', '.join(available)}")
        if req.rated and any(s.kind != "person" for s in seats):
            raise ServiceError(400, "bad_table", "a rated table has a person in every seat: "
                               "computer players never change a rating")
        test = self._check_test(req.test)
        token = None
        host = next((i for i, s in enumerate(seats) if s.kind == "person"), None)
        if host is not None:
            token = new_token()
            seats[host].token_hash = hash_token(token)
            seats[host].by = svc.limits.address_key(addr)
            seats[host].name = _name(req.name) or (who.name if who else "") or seats[host].name
        taken = [names.key(s.name) for s in seats if s.name]
        if len(taken) != len(set(taken)):
            raise ServiceError(400, "bad_table", "two seats have the same name: "
                               "give each player a name of their own")
        for i, s in enumerate(seats):
            if s.kind == "person" and not s.name:
                s.name = _free_name(seats, f"Player {i + 1}")
        self._admit(addr, host is None, who is not None and not who.guest)
        now = time.time()
        tid = new_table_id()
        rejoin = None
        if host is not None:
            rejoin = new_key()
            seats[host].rejoin_hash = hash_token(rejoin)
        timer = req.timer
        if req.days is not None:
            if timer is not None:
                raise ServiceError(400, "bad_table", "choose a time for each turn or days "
                                   "for each move, not both")
            timer = req.days * DAY
        config = {"players": req.players, "rules": rules, "timer": timer, "days": req.days,
                  "standin": standin, "host": host, "test": test, "hints": req.hints,
                  "public": req.public, "rated": req.rated,
                  "seats": [s.to_json() for s in seats]}
        row = TableRow(id=tid, game=game.name, status="waiting", created=now, updated=now,
                       config=config, record=None, seq=0, deadline=None, salt=None,
                       log=[], invite_key="", watch_key="", rematch=None)
        svc.store.add(row, origin=svc.limits.class_key(addr))
        if host is not None and who is not None:
            people.own_seat(svc.store.engine, tid, host, who.id, seats[host].name)
        self._open = (self._open[0] + 1, self._open[1])
        t = svc.adopt(row)
        t.creator = addr
        if host is None:  # bots only: nothing to wait for
            async with t.lock:
                await self.writer.start(t)
        return joined(t, host, token, rejoin)

    def _check_test(self, test: TestOptions | None) -> dict[str, Any] | None:
        if test is None:
            return None
        if not self.svc.settings.testing:
            raise ServiceError(400, "bad_table",
                               "test options are only accepted by a server started for testing")
        for k, deck in enumerate(test.decks or []):
            try:
                order = [cards.from_code(c) for c in deck]
            except ValueError as e:
                raise ServiceError(400, "bad_table", f"test deck {k + 1}: {e}") from None
            if len(order) != 52 or cards.mask_of(order) != cards.FULL_DECK:
                raise ServiceError(400, "bad_table", f"test deck {k + 1} is not 52 cards")
        return test.model_dump()

    async def join(self, table_id: str, key: str, name: str, addr: str = "local",
                   who: Callable[[], Player] | None = None) -> Joined:
        svc = self.svc
        t = svc.load(table_id)
        if t.status == "expired":
            raise ServiceError(410, "expired", "this table has expired")
        if svc.keys.opens(key, t.id, "watch", t.kept.get("watch")):
            return joined(t, None, None)
        if not svc.keys.opens(key, t.id, "invite", t.kept.get("invite")):
            raise ServiceError(403, "unauthorised", "this link does not open a seat at this table")
        return await self.sit(t, name, addr, who)

    async def sit(self, t: LiveTable, name: str, addr: str = "local",
                  who: Callable[[], Player] | None = None) -> Joined:
        """Give a free person seat to a newcomer: before the start, or during play a
        seat the host re-opened (the stand-in plays it until they connect). ``who``
        gives the player taking it (made a guest on first use), recorded as the seat's
        owner."""
        svc = self.svc
        chosen = _name(name)
        player = who() if who is not None else None
        if player is not None:
            self.moderation.refuse(player.id, "play")
        async with t.lock:
            free = next((i for i, s in enumerate(t.seats) if s.kind == "person"
                         and s.token_hash is None and (t.status == "waiting" or s.open)), None)
            if free is None:
                if t.status != "waiting":
                    raise ServiceError(409, "started", "the game has already started and no "
                                       "seat is open")
                raise ServiceError(409, "full", "every seat at this table is taken")
            by = svc.limits.address_key(addr)
            public = bool(t.config.get("public"))
            cap = (min(svc.settings.max_seats_per_address, svc.settings.public_seats_per_address)
                   if public else svc.settings.max_seats_per_address)
            if t.claims(by) >= cap:
                raise ServiceError(409, "seat_limit", "you already hold as many seats at "
                                   "this table as one address may: leave one to others")
            wait = svc.limits.held(f"reclaim:{t.id}:{by}") if public else 0.0
            if wait > 0:
                raise ServiceError(409, "seat_limit", "you left a seat at this table a moment "
                                   f"ago: you may sit here again in {math.ceil(wait)} s",
                                   {"Retry-After": str(math.ceil(wait))})
            others = [names.key(s.name) for i, s in enumerate(t.seats)
                      if i != free and (s.claimed or s.kind == "bot")]
            if chosen and names.key(chosen) in others:
                raise ServiceError(409, "name_taken", f"someone at this table is already "
                                   f"called {chosen}: choose another name")
            if not chosen and player is not None and player.name \
                    and names.key(player.name) not in others:
                chosen = player.name  # the player's own name, unless someone has it
            token = new_token()
            seat = t.seats[free]
            seat.token_hash = hash_token(token)
            seat.open = seat.connected_once = False
            rejoin = new_key()
            seat.rejoin_hash = hash_token(rejoin)
            if chosen:
                seat.name = chosen
            elif names.key(seat.name) in others:
                seat.name = _free_name(t.seats, f"Player {free + 1}")
            seat.by = by
            entry = {"kind": "join", "seat": free, "name": seat.name}
            t.log.append(entry)
            self.writer.save(t, config=t.config_json(), log=t.log)
            if player is not None:
                people.own_seat(svc.store.engine, t.id, free, player.id, seat.name)
            await svc.hub.broadcast(t, "state", event=entry)
        return joined(t, free, token, rejoin)

    # --- at the table (WebSocket) ------------------------------------------------------

    async def back(self, conn: Connection) -> None:
        """A player takes their seat back from the stand-in bot."""
        svc = self.svc
        t = conn.table
        assert t is not None
        if conn.seat is None:
            await svc.hub.error(conn, "unauthorised", "spectators have no seat to take back")
            return
        async with t.lock:
            if not t.seats[conn.seat].auto:
                await svc.hub.send(t, conn, "state")
                return
            await self.take_back(t, conn.seat)

    async def take_back(self, t: LiveTable, seat: int) -> dict[str, Any]:
        """Clear the stand-in of a seat (under the lock) and tell everyone."""
        svc = self.svc
        t.seats[seat].auto = None
        event = {"kind": "back", "seat": seat}
        t.log.append(event)
        action = self.clock.plan(t)
        self.writer.save(t, config=t.config_json(), log=t.log, deadline=t.deadline)
        await svc.hub.broadcast(t, "state", event=event)
        self.clock.arm(t, action)
        return event

    async def move(self, conn: Connection, msg: MoveMsg) -> None:
        with metrics.timed(metrics.MOVE_SECONDS):
            await self._move(conn, msg)

    async def _move(self, conn: Connection, msg: MoveMsg) -> None:
        svc = self.svc
        t = conn.table
        assert t is not None
        if conn.seat is None:
            await svc.hub.error(conn, "unauthorised", "spectators cannot play")
            return
        async with t.lock:
            problem = self._check_turn(t, conn.seat, msg.seq)
            if problem:
                await svc.hub.error(conn, *problem)
                return
            r = t.match.current  # type: ignore[union-attr]
            try:
                move = t.game.move_from_json(msg.move)
            except (ValueError, TypeError) as e:
                await svc.hub.error(conn, "bad_move", f"malformed move: {e}")
                return
            refused = r.refusal(move)
            if refused is not None:  # in the reader's words, with the key the page words
                with speech.speaking(*conn.speech):
                    words = refusals.worded(refused)
                await svc.hub.error(conn, "illegal", words, key=refused[0], params=refused[1])
                return
            if t.seats[conn.seat].auto:  # playing is taking the seat back
                t.seats[conn.seat].auto = None
                t.log.append({"kind": "back", "seat": conn.seat})
            await self.writer.commit_move(t, conn.seat, move, "person", conn)

    def _check_turn(self, t: LiveTable, seat: int, seq: int) -> tuple[str, str] | None:
        if t.status != "playing":
            return ("not_playing", f"the table is {t.status}, not playing")
        if seq != t.seq:
            return ("stale", f"stale: this answers seq {seq}, but the table is at seq {t.seq}")
        r = t.match.current if t.match else None
        if r is None:
            return ("not_playing", "no round is in play: the next deal is coming")
        if r.current_player != seat:
            return ("not_your_turn", f"it is {t.seats[r.current_player].name}'s turn")
        return None

    async def start(self, conn: Connection) -> None:
        svc = self.svc
        t = conn.table
        assert t is not None
        async with t.lock:
            if conn.seat is None or conn.seat != t.config.get("host"):
                await svc.hub.error(conn, "unauthorised", "only the table's host can start it")
                return
            if t.status != "waiting":
                await svc.hub.error(conn, "started", "the game has already started")
                return
            missing = [s.name for s in t.seats if not s.claimed]
            if missing:
                await svc.hub.error(conn, "seats_open",
                                    (f"{len(missing)} seats still wait for a player" if len(missing) > 1
                                     else "a seat still waits for a player"))
                return
            await self.writer.start(t, conn)

    async def hint(self, conn: Connection, msg: HintMsg) -> None:
        svc = self.svc
        t = conn.table
        assert t is not None
        if conn.seat is None:
            await svc.hub.error(conn, "unauthorised", "spectators cannot ask for hints")
            return
        async with t.lock:
            problem = self._check_turn(t, conn.seat, msg.seq)
            if problem:
                await svc.hub.error(conn, *problem)
                return
            if t.config.get("hints") is False:
                await svc.hub.error(conn, "hints_off", "the host has switched hints off "
                                    "at this table")
                return
            used = (t.round_number, conn.seat)
            if t.hints_used.get(used, 0) >= svc.settings.hints_per_round:
                await svc.hub.error(conn, "hint_limit", f"you have had your "
                                    f"{svc.settings.hints_per_round} hints this round")
                return
            t.hints_used = {k: v for k, v in t.hints_used.items() if k[0] == used[0]}
            t.hints_used[used] = t.hints_used.get(used, 0) + 1
            view = t.match.current.view(conn.seat)  # type: ignore[union-attr]
            earlier = t.earlier_views(conn.seat)
        try:
            s = svc.settings
            ranked = await svc.pool.run(ASKED, "rank", t.game.name, view, "hard", 0, earlier,
                                        addr=conn.addr, cpu=s.bot_move_seconds,
                                        memory=s.work_memory_mb << 20 or None,
                                        seconds=s.bot_move_seconds)
        except QueueFull as e:  # this address's share, or everyone's, is waiting
            if t.hints_used.get(used):  # not answered: not counted
                t.hints_used[used] -= 1
            await svc.hub.error(conn, "busy", f"no hint this time: {e.message}")
            return
        except (TimeoutError, WorkFailed, OverBudget) as e:  # must not take the table down
            log.warning("hint failed at table %s: %s", t.id, e)
            await svc.hub.error(conn, "unavailable", "no hint this time: the server is busy")
            return
        moves = [{"move": t.game.move_to_json(m), "value": round(float(v), 3),
                  **({} if p is None else {"points": round(float(p), 2)}), "equal": bool(eq)}
                 for m, v, p, eq in list(ranked)[:3]]
        await svc.hub.send(t, conn, "hint", moves=moves)

    async def release(self, conn: Connection, msg: ReleaseMsg) -> None:
        """The host frees a claimed seat before the start."""
        svc = self.svc
        t = conn.table
        assert t is not None
        async with t.lock:
            host = t.config.get("host")
            if conn.seat is None or conn.seat != host:
                await svc.hub.error(conn, "unauthorised", "only the table's host can free a seat")
                return
            if t.status != "waiting":
                await svc.hub.error(conn, "started", "the game has already started")
                return
            if (msg.seat >= t.players or msg.seat == host
                    or t.seats[msg.seat].kind != "person"
                    or t.seats[msg.seat].token_hash is None):
                await svc.hub.error(conn, "bad_seat", "that seat holds no other player")
                return
            await self._free(t, msg.seat, "given_away")

    async def leave(self, conn: Connection) -> None:
        """A player leaves: before the start the seat is freed; during the game a
        stand-in bot plays it to the end and the seat's token no longer opens it."""
        svc = self.svc
        t = conn.table
        assert t is not None
        if conn.seat is None:
            await svc.hub.error(conn, "unauthorised", "spectators have no seat to leave")
            return
        seat = conn.seat
        async with t.lock:
            if t.status == "waiting":
                if seat == t.config.get("host"):
                    await svc.hub.error(conn, "host_stays", "the host cannot leave before the "
                                        "start: close the page, and the table expires")
                    return
                await self._free(t, seat, "left")
                return
            if t.status != "playing":
                await svc.hub.error(conn, "not_playing", f"the table is {t.status}")
                return
            s = t.seats[seat]
            s.auto, s.token_hash, s.rejoin_hash = "left", None, None
            self._cool_down(t, seat)
            entry = {"kind": "standin", "seat": seat, "reason": "left"}
            t.log.append(entry)
            action = self.clock.plan(t)
            self.writer.save(t, config=t.config_json(), log=t.log, deadline=t.deadline)
            self.clock.end_grace(t, seat)
            await self._send_away(t, seat, "left")
            await svc.hub.broadcast(t, "state", event=entry)
            self.clock.arm(t, action)

    async def _free(self, t: LiveTable, seat: int, why: str) -> None:
        """An open seat again (before the start, under the lock)."""
        svc = self.svc
        s = t.seats[seat]
        self._cool_down(t, seat)
        s.token_hash = s.rejoin_hash = None  # the rejoin link stops working too
        s.name = _free_name([x for i, x in enumerate(t.seats) if i != seat],
                            f"Player {seat + 1}")
        people.disown_seat(svc.store.engine, t.id, seat)
        entry = {"kind": "release", "seat": seat}
        t.log.append(entry)
        self.writer.save(t, config=t.config_json(), log=t.log)
        await self._send_away(t, seat, why)
        await svc.hub.broadcast(t, "state", event=entry)

    def _cool_down(self, t: LiveTable, seat: int) -> None:
        """A public table's seat given up: its address may not sit here again for
        ``reclaim_after`` seconds (whichever process it asks)."""
        by = t.seats[seat].by
        if t.config.get("public") and by and self.svc.settings.reclaim_after > 0:
            self.svc.limits.hold(f"reclaim:{t.id}:{by}", self.svc.settings.reclaim_after)

    async def _send_away(self, t: LiveTable, seat: int, why: str,
                         conns: list[Connection] | None = None, code: int = 1000) -> None:
        """Close the connections of a seat that is no longer theirs (``conns``: only
        these), and say so in every process's presence rows."""
        svc = self.svc
        for c in conns if conns is not None else [c for c in t.conns if c.seat == seat]:
            t.conns.discard(c)
            await svc.hub.send(t, c, "bye", why=why, reason=GONE_BECAUSE[why], reconnect=False)
            c.table = None
            asyncio.get_running_loop().create_task(
                c.close(code, "left the table" if code == 1000 else "seat taken back"))
        self.coord.seat_revoked(t, seat)

    async def drop_revoked(self, t: LiveTable) -> None:
        """Send away the connections whose token no longer holds their seat: the seat
        was taken back with its rejoin link, freed, left or re-opened, by a request
        another process handled (under the table's lock, after reading it again)."""
        stale: dict[int, list[Connection]] = {}
        for c in t.conns:
            if c.seat is not None and c.token_hash != t.seats[c.seat].token_hash:
                stale.setdefault(c.seat, []).append(c)
        for seat, conns in stale.items():
            why, code = revoked_because(t, seat)
            await self._send_away(t, seat, why, conns, code)


# Why a seat is no longer a connection's: the code a client words in its reader's
# language (``why``), and the English ``reason`` sent beside it for other programs.
GONE_BECAUSE = {
    "left": "you left the table",
    "given_away": "the host gave your seat to someone else",
    "taken_back": "this seat was taken back on another device",
    "reopened": "the host opened your seat to someone else",
    "freed": "this seat is no longer yours: it was freed at the table",
}


def revoked_because(t: LiveTable, seat: int) -> tuple[str, int]:
    """Why a seat's token stopped working (a ``GONE_BECAUSE`` code) and the close code:
    the last thing the table's log says of the seat (a rejoin leaves no entry)."""
    s = t.seats[seat]
    if s.token_hash is not None:
        return "taken_back", 1008
    last = next((e for e in reversed(t.log) if e.get("seat") == seat
                 and e.get("kind") in ("release", "standin", "reopen")), {})
    if last.get("kind") == "standin" and last.get("reason") == "left":
        return "left", 1000
    if last.get("kind") == "reopen":
        return "reopened", 1000
    return "freed", 1000
