"""The table service: creating and joining tables, accepting intents, and the clock.

Every change to a game is an *event* (a deal or a move) and follows one path:
under the table's lock, check the intent (sequence number, seat, the engine's
``why_illegal``), apply it, write it to the database with the sequence check, and only
then broadcast it. The server's own actions (bot moves, forced passes, turn timeouts,
the next deal) are planned with an absolute deadline that is stored with the event,
so a restarted server resumes them on time.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from typing import Any

from parlour import cards, record
from parlour.bots import bot_names
from parlour.game import PASS, Move
from parlour.games import get_game
from parlour.options import OptionError
from parlour.server.db import Conflict, Store, TableRow, unavailable
from parlour.server.hub import Connection, Hub
from parlour.server.live import Action, LiveTable, SeatInfo, pack
from parlour.server.protocol import CreateTable, Hello, HintMsg, Joined, MoveMsg, TestOptions
from parlour.server.settings import Settings
from parlour.server.tokens import hash_token, new_key, new_table_id, new_token, same

log = logging.getLogger("parlour.server")

RETRY_AFTER = 0.5
"""Seconds before the server retries its own action after a failed write."""
UNAVAILABLE = ("the database is busy or unreachable, so nothing was saved or changed: "
               "please try again")


class ServiceError(Exception):
    """A refused request: an HTTP status, a short code and a message for people."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message


def default_bot(game: str) -> str:
    names = bot_names(game)
    for pick in ("medium", "heuristic", "greedy"):
        if pick in names:
            return pick
    return names[0]


class TableService:
    """All tables of one server process."""

    def __init__(self, settings: Settings, store: Store) -> None:
        self.settings = settings
        self.store = store
        self.hub = Hub()
        self.tables: dict[str, LiveTable] = {}
        self._sweeper: asyncio.Task | None = None
        self._cluster_task: asyncio.Task | None = None
        self._gc_task: asyncio.Task | None = None
        self.closing = False
        self.instance = settings.instance or secrets.token_hex(8)
        self.owned: set[str] = set()
        """Tables whose lease this process holds (cluster mode)."""

    # --- lifecycle ---------------------------------------------------------------------

    async def startup(self) -> None:
        """Resume every table in play: timers and bots from their stored deadlines."""
        if self.settings.cluster:
            await self._take_orphans()
            self._cluster_task = asyncio.create_task(self._cluster_loop())
        else:
            for tid in self.store.ids_with_status("playing"):
                try:
                    t = self.load(tid)
                except Exception:
                    log.exception("table %s cannot be resumed", tid)
                    continue
                self._arm(t, t.resumed_action(self.settings))
                for seat, s in enumerate(t.seats):
                    if s.kind == "person" and not s.auto:
                        self._start_grace(t, seat)
        self._sweeper = asyncio.create_task(self._sweep_loop())
        self._gc_task = asyncio.create_task(self._gc_loop())

    async def _gc_loop(self) -> None:
        """Keep the garbage collector's full passes short: every ``gc_freeze_every``
        seconds the objects alive then (tables, connections) move out of its reach
        (``gc.freeze``), and every ``gc_full_every`` seconds they come back for one full
        pass, so cyclic garbage among them is still reclaimed. Without this, full passes
        over a few hundred connections' objects pause every table for tens of ms."""
        import gc

        last_full = time.monotonic()
        while True:
            await asyncio.sleep(self.settings.gc_freeze_every)
            if time.monotonic() - last_full >= self.settings.gc_full_every:
                gc.unfreeze()
                gc.collect()
                last_full = time.monotonic()
            gc.freeze()

    async def going_away(self) -> None:
        """Stop the clocks and tell every client to reconnect: a ``bye`` message, then
        close code 1012 ("service restart"). Deadlines stay stored, so the next process
        resumes every table on time; in cluster mode its leases are handed back."""
        if self.closing:
            return
        self.closing = True
        for task in (self._sweeper, self._cluster_task, self._gc_task):
            if task:
                task.cancel()
        for t in list(self.tables.values()):
            self._cancel_tasks(t)
        if self.settings.cluster:
            with contextlib.suppress(Exception):
                self.store.renew(self.instance, 0.0)  # leases and presence expire now
            self.owned.clear()
        for t in list(self.tables.values()):
            async with t.lock:  # a move being handled is saved and sent first
                conns = list(t.conns)
            for conn in conns:
                await self.hub.send(t, conn, "bye", reason="the server is restarting",
                                    reconnect=True)
            await asyncio.gather(*(c.close(1012, "service restart") for c in conns),
                                 return_exceptions=True)

    async def shutdown(self) -> None:
        await self.going_away()
        self.store.close()

    def owns(self, t: LiveTable) -> bool:
        """Whether this process runs the table's bots and timers."""
        return not self.settings.cluster or t.id in self.owned

    def load(self, table_id: str) -> LiveTable:
        """The live table, read from the database on first use."""
        t = self.tables.get(table_id)
        if t is not None:
            return t
        row, tail = self.store.get_with_tail(table_id)
        if row is None:
            raise ServiceError(404, "not_found", f"there is no table {table_id!r}")
        t = LiveTable.from_row(row, tail)
        self.tables[table_id] = t
        return t

    def _reload(self, t: LiveTable) -> None:
        """Put the database's truth back into ``t`` (another writer moved it on)."""
        row, tail = self.store.get_with_tail(t.id)
        assert row is not None
        t.take(LiveTable.from_row(row, tail))

    def _save(self, t: LiveTable, **values: Any) -> None:
        """Write non-event fields of a table; on failure ``t`` goes back to its saved row
        and the error propagates (the client is told to try again)."""
        values = {k: (list(v) if isinstance(v, list) else v) for k, v in values.items()}
        # Always a full snapshot: the log written here is the whole log.
        values["log"] = list(t.log)
        values["record"] = record.dump(t.match) if t.match is not None else None
        values["snap_seq"] = t.seq
        try:
            t.updated = self.store.set(t.id, **values)
        except Exception:
            t.restore()
            raise
        t.committed.update(pack(values), updated=t.updated)
        t.tail, t.logged = [], len(t.log)

    # --- creating and joining (HTTP) ---------------------------------------------------

    async def create(self, req: CreateTable) -> Joined:
        try:
            game = get_game(req.game)
            game.check_players(req.players)
            rules = game.rules(req.players, req.rules)
        except (ValueError, OptionError) as e:
            raise ServiceError(400, "bad_table", str(e)) from None
        available = bot_names(game.name)
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
        standin = req.standin or default_bot(game.name)
        seats: list[SeatInfo] = []
        for i, spec in enumerate(specs_list):
            name = (spec.get("name") or "").strip()
            if spec["kind"] == "bot":
                level = spec.get("bot") or default_bot(game.name)
                if level not in available:
                    raise ServiceError(400, "bad_table", f"seat {i}: unknown bot {level!r}; "
                                       f"choose one of: {', '.join(available)}")
                seats.append(SeatInfo(name or f"Bot {i + 1}", "bot", level))
            else:
                seats.append(SeatInfo(name, "person"))
        if standin not in available:
            raise ServiceError(400, "bad_table", f"unknown stand-in bot {standin!r}; "
                               f"choose one of: {', '.join(available)}")
        test = self._check_test(req.test)
        token = None
        host = next((i for i, s in enumerate(seats) if s.kind == "person"), None)
        if host is not None:
            token = new_token()
            seats[host].token_hash = hash_token(token)
            seats[host].name = req.name.strip() or seats[host].name or f"Player {host + 1}"
        for i, s in enumerate(seats):
            if s.kind == "person" and not s.name:
                s.name = f"Player {i + 1}"
        now = time.time()
        tid = new_table_id()
        config = {"players": req.players, "rules": rules, "timer": req.timer,
                  "standin": standin, "host": host, "test": test,
                  "seats": [s.to_json() for s in seats]}
        row = TableRow(id=tid, game=game.name, status="waiting", created=now, updated=now,
                       config=config, record=None, seq=0, deadline=None, salt=None,
                       log=[], invite_key=new_key(), watch_key=new_key(), rematch=None)
        self.store.add(row)
        t = self.load(tid)
        if host is None:  # bots only: nothing to wait for
            async with t.lock:
                await self._start(t)
        return self._joined(t, host, token)

    def _check_test(self, test: TestOptions | None) -> dict[str, Any] | None:
        if test is None:
            return None
        if not self.settings.testing:
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

    def _joined(self, t: LiveTable, seat: int | None, token: str | None) -> Joined:
        watch_url = f"/t/{t.id}#watch={t.watch_key}"
        if seat is None:
            return Joined(table=t.id, role="spectator", watch=t.watch_key, watch_url=watch_url,
                          table_url=watch_url)
        return Joined(table=t.id, role="seat", seat=seat, token=token,
                      invite_url=f"/t/{t.id}#invite={t.invite_key}", watch_url=watch_url,
                      table_url=f"/t/{t.id}")

    def public_info(self, table_id: str) -> dict[str, Any]:
        """What anyone with the table id may know before joining (no secrets)."""
        t = self.load(table_id)
        return {"id": t.id, "game": t.game.name, "title": t.game.title, "status": t.status,
                "players": t.players, "rules": t.rules, "timer": t.timer,
                "seats": [{"name": s.name, "kind": s.kind, "bot": s.bot, "claimed": s.claimed}
                          for s in t.seats]}

    async def join(self, table_id: str, key: str, name: str) -> Joined:
        t = self.load(table_id)
        if t.status == "expired":
            raise ServiceError(410, "expired", "this table has expired")
        if same(key, t.watch_key):
            return self._joined(t, None, None)
        if not same(key, t.invite_key):
            raise ServiceError(403, "unauthorised", "this link does not open a seat at this table")
        async with t.lock:
            if t.status != "waiting":
                raise ServiceError(409, "started", "the game has already started")
            free = next((i for i, s in enumerate(t.seats)
                         if s.kind == "person" and s.token_hash is None), None)
            if free is None:
                raise ServiceError(409, "full", "every seat at this table is taken")
            token = new_token()
            seat = t.seats[free]
            seat.token_hash = hash_token(token)
            seat.name = name.strip() or seat.name
            entry = {"kind": "join", "seat": free, "name": seat.name}
            t.log.append(entry)
            self._save(t, config=t.config_json(), log=t.log)
            await self.hub.broadcast(t, "state", event=entry)
        return self._joined(t, free, token)

    def record(self, table_id: str) -> dict[str, Any]:
        """The finished game's record (with every deck and salt revealed)."""
        from parlour import record

        t = self.load(table_id)
        if t.match is None or not t.match.is_over:
            raise ServiceError(409, "not_over",
                               "the record is available when the game is over")
        return record.dump(t.match)

    # --- connections (WebSocket) -------------------------------------------------------

    async def handle(self, conn: Connection, msg: Any) -> None:
        """One validated client message. A database that is busy or down is reported to
        the client as ``unavailable`` (nothing changed; try again)."""
        if self.closing:
            await self.hub.error(conn, "unavailable", "the server is restarting: reconnect")
            return
        try:
            await self._handle(conn, msg)
        except ServiceError as e:
            await self.hub.error(conn, e.code, e.message)
        except Exception as e:
            if not unavailable(e):
                log.exception("message failed")
                await self.hub.error(conn, "server_error", "the server could not handle this "
                                     "message; nothing was changed")
                return
            log.warning("database unavailable: %s", e)
            await self.hub.error(conn, "unavailable", UNAVAILABLE)

    async def _handle(self, conn: Connection, msg: Any) -> None:
        if isinstance(msg, Hello):
            await self.hello(conn, msg)
            return
        t = conn.table
        if t is None:
            await self.hub.error(conn, "no_hello", "say hello first: "
                                 '{"type": "hello", "table": ID, "token": TOKEN}')
            return
        kind = msg.type
        if kind == "ping":
            await self.hub.send(t, conn, "pong")
        elif kind == "move":
            await self.move(conn, msg)
        elif kind == "hint":
            await self.hint(conn, msg)
        elif kind == "start":
            await self.start(conn)
        elif kind == "rematch":
            await self.rematch(conn)
        elif kind == "back":
            await self.back(conn)

    async def back(self, conn: Connection) -> None:
        """A player takes their seat back from the stand-in bot."""
        t = conn.table
        assert t is not None
        if conn.seat is None:
            await self.hub.error(conn, "unauthorised", "spectators have no seat to take back")
            return
        async with t.lock:
            if not t.seats[conn.seat].auto:
                await self.hub.send(t, conn, "state")
                return
            await self._take_back(t, conn.seat)

    async def _take_back(self, t: LiveTable, seat: int) -> dict[str, Any]:
        """Clear the stand-in of a seat (under the lock) and tell everyone."""
        t.seats[seat].auto = None
        event = {"kind": "back", "seat": seat}
        t.log.append(event)
        action = self._plan(t)
        self._save(t, config=t.config_json(), log=t.log, deadline=t.deadline)
        await self.hub.broadcast(t, "state", event=event)
        self._arm(t, action)
        return event

    async def hello(self, conn: Connection, msg: Hello) -> None:
        if conn.table is not None:
            await self.hub.error(conn, "already_joined", "this connection already has a table")
            return
        try:
            t = self.load(msg.table)
        except ServiceError as e:
            await self.hub.error(conn, e.code, e.message)
            return
        seat: int | None = None
        if msg.token is not None:
            seat = t.seat_of_token_hash(hash_token(msg.token))
            if seat is None:
                await self.hub.error(conn, "unauthorised",
                                     "this token does not hold a seat at this table")
                return
        elif msg.watch is None or not same(msg.watch, t.watch_key):
            await self.hub.error(conn, "unauthorised",
                                 "hello needs this table's seat token or spectator key")
            return
        if t.status == "expired":
            await self.hub.error(conn, "expired", "this table has expired")
            return
        async with t.lock:
            if seat is not None and self.settings.cluster:
                self.store.present(t.id, seat, self.instance,
                                   time.time() + self.settings.lease)
                t.absent.pop(seat, None)
            conn.table, conn.seat = t, seat
            conn.role = "seat" if seat is not None else "spectator"
            t.conns.add(conn)
            if seat is not None:
                task = t.grace_tasks.pop(seat, None)
                if task:
                    task.cancel()
                if t.seats[seat].auto:
                    await self._take_back(t, seat)
            await self.hub.send(t, conn, "welcome")
            await self.hub.broadcast(t, "state", exclude=conn)

    async def disconnected(self, conn: Connection) -> None:
        t = conn.table
        if t is None:
            return
        t.conns.discard(conn)
        conn.stop()
        if self.closing:
            return
        if self.settings.cluster:
            if conn.seat is not None and not t.connected_here(conn.seat):
                with contextlib.suppress(Exception):
                    self.store.present(t.id, conn.seat, self.instance, None)
        elif conn.seat is not None and not t.connected(conn.seat) and t.status == "playing":
            self._start_grace(t, conn.seat)
        async with t.lock:
            await self.hub.broadcast(t, "state")

    def _start_grace(self, t: LiveTable, seat: int) -> None:
        old = t.grace_tasks.pop(seat, None)
        if old:
            old.cancel()
        t.grace_tasks[seat] = asyncio.create_task(self._grace(t, seat))

    async def _grace(self, t: LiveTable, seat: int) -> None:
        """After the grace time, a stand-in bot plays for a seat still disconnected."""
        await asyncio.sleep(self.settings.grace)
        async with t.lock:
            t.grace_tasks.pop(seat, None)
            s = t.seats[seat]
            if t.connected(seat) or t.status != "playing" or s.auto:
                return
            await self._stand_in(t, seat)

    async def _stand_in(self, t: LiveTable, seat: int) -> None:
        """A stand-in bot plays for a disconnected seat (under the lock)."""
        t.seats[seat].auto = "disconnected"
        entry = {"kind": "standin", "seat": seat, "reason": "disconnected"}
        t.log.append(entry)
        action = self._plan(t)
        try:
            self._save(t, config=t.config_json(), log=t.log, deadline=t.deadline)
        except Exception as e:
            log.warning("stand-in at table %s not saved: %s", t.id, e)
            return
        await self.hub.broadcast(t, "state", event=entry)
        self._arm(t, action)

    # --- intents -----------------------------------------------------------------------

    async def move(self, conn: Connection, msg: MoveMsg) -> None:
        t = conn.table
        assert t is not None
        if conn.seat is None:
            await self.hub.error(conn, "unauthorised", "spectators cannot play")
            return
        async with t.lock:
            problem = self._check_turn(t, conn.seat, msg.seq)
            if problem:
                await self.hub.error(conn, *problem)
                return
            r = t.match.current  # type: ignore[union-attr]
            try:
                move = t.game.move_from_json(msg.move)
            except (ValueError, TypeError) as e:
                await self.hub.error(conn, "bad_move", f"malformed move: {e}")
                return
            reason = r.why_illegal(move)
            if reason is not None:
                await self.hub.error(conn, "illegal", reason)
                return
            if t.seats[conn.seat].auto:  # playing is taking the seat back
                t.seats[conn.seat].auto = None
                t.log.append({"kind": "back", "seat": conn.seat})
            await self._commit_move(t, conn.seat, move, "person", conn)

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
        t = conn.table
        assert t is not None
        async with t.lock:
            if conn.seat is None or conn.seat != t.config.get("host"):
                await self.hub.error(conn, "unauthorised", "only the table's host can start it")
                return
            if t.status != "waiting":
                await self.hub.error(conn, "started", "the game has already started")
                return
            missing = [s.name for s in t.seats if not s.claimed]
            if missing:
                await self.hub.error(conn, "seats_open",
                                     f"{len(missing)} seat(s) still wait for a player")
                return
            await self._start(t, conn)

    async def hint(self, conn: Connection, msg: HintMsg) -> None:
        t = conn.table
        assert t is not None
        if conn.seat is None:
            await self.hub.error(conn, "unauthorised", "spectators cannot ask for hints")
            return
        async with t.lock:
            problem = self._check_turn(t, conn.seat, msg.seq)
            if problem:
                await self.hub.error(conn, *problem)
                return
            view = t.match.current.view(conn.seat)  # type: ignore[union-attr]
        try:
            from parlour.bots.hints import hints
        except ImportError:
            await self.hub.error(conn, "unavailable", "hints are not available on this server")
            return
        try:
            ranked = await asyncio.to_thread(hints, t.game.name, view, "hard", 0)
        except Exception as e:  # a failing hint must not take the table down
            log.exception("hint failed")
            await self.hub.error(conn, "unavailable", f"no hint this time: {e}")
            return
        moves = [{"move": t.game.move_to_json(m), "value": round(float(v), 3)}
                 for m, v in list(ranked)[:3]]
        await self.hub.send(t, conn, "hint", moves=moves)

    async def rematch(self, conn: Connection) -> None:
        t = conn.table
        assert t is not None
        if conn.seat is None:
            await self.hub.error(conn, "unauthorised", "spectators cannot start a rematch")
            return
        async with t.lock:
            if t.status != "over":
                await self.hub.error(conn, "not_over", "a rematch is offered when the game ends")
                return
            if t.rematch is None:
                cfg = t.config_json()
                for s in cfg["seats"]:
                    s["auto"] = None
                if cfg.get("test") and cfg["test"].get("seed") is not None:
                    cfg["test"] = {**cfg["test"], "seed": cfg["test"]["seed"] + 1, "decks": None}
                now = time.time()
                tid = new_table_id()
                self.store.add(TableRow(
                    id=tid, game=t.game.name, status="waiting", created=now, updated=now,
                    config=cfg, record=None, seq=0, deadline=None, salt=None, log=[],
                    invite_key=new_key(), watch_key=new_key(), rematch=None))
                t.rematch = tid
                self._save(t, rematch=tid)
                new = self.load(tid)
                async with new.lock:
                    await self._start(new)
            new = self.load(t.rematch)
            for c in list(t.conns):
                await self.hub.send(t, c, "rematch", table=new.id, watch=new.watch_key)

    # --- events: the one write path ----------------------------------------------------

    def _plan(self, t: LiveTable) -> Action | None:
        action = t.next_action(self.settings)
        t.deadline = action.at if action else None
        return action

    async def _write(self, t: LiveTable, data: dict[str, Any], event: dict[str, Any],
                     conn: Connection | None = None) -> bool:
        """Commit the event (sequence-checked), then broadcast it and arm the clock.

        Only the columns that changed are written. When the write fails, ``t`` goes
        back to the stored truth, the client (if any) is told why, and the server's
        own next action is retried a little later.
        """
        action = self._plan(t)
        # A move in the middle of a round writes only the event and the clock; deals,
        # round ends and anything else that changed the log write a full snapshot.
        light = (data.get("kind") == "move" and t.match is not None
                 and t.match.current is not None and len(t.log) == t.logged + 1)
        values = t.row_values(full=not light)
        for k in ("status", "config", "salt"):
            if k in t.committed and pack({k: values[k]})[k] == t.committed[k]:
                del values[k]
        if not light:
            values["snap_seq"] = t.seq + 1
        values["updated"] = time.time()
        try:
            new_seq = self.store.commit_event(t.id, t.seq, data, **values)
        except Exception as e:
            await self._write_failed(t, e, conn)
            return False
        t.seq, t.updated = new_seq, values["updated"]
        t.committed.update(pack(values), seq=new_seq)
        if light:
            t.tail.append(dict(data))
        else:
            t.tail = []
        t.logged = len(t.log)
        await self.hub.broadcast(t, "update", event=event)
        if self.settings.cluster and t.status == "over" and t.id in self.owned:
            self.owned.discard(t.id)
            with contextlib.suppress(Exception):
                self.store.release(t.id, self.instance)
        self._arm(t, action)
        return True

    async def _write_failed(self, t: LiveTable, e: Exception, conn: Connection | None) -> None:
        conflict = isinstance(e, Conflict)
        log.warning("write refused at table %s: %s", t.id, e)
        try:
            if conflict:
                self._reload(t)  # another process wrote first: take its events
            else:
                t.restore()
        except Exception:
            log.exception("table %s could not be restored; it is read again on next use", t.id)
            t.restore()
        if conn is not None:
            if conflict:
                await self.hub.error(conn, "conflict", "the table moved on before your move "
                                     "was saved: nothing was changed; please look again")
            elif unavailable(e):
                await self.hub.error(conn, "unavailable", UNAVAILABLE)
            else:
                await self.hub.error(conn, "server_error",
                                     "the move was not saved; please try again")
        if conflict:
            await self.hub.broadcast(t, "state")
        action = self._plan(t)
        if action is not None:
            action.at = max(action.at, time.time() + RETRY_AFTER)
        self._arm(t, action)

    async def _commit_move(self, t: LiveTable, seat: int, move: Move, by: str,
                           conn: Connection | None = None) -> None:
        entry = t.apply(seat, move, by)
        await self._write(t, {"kind": "move", **entry}, entry, conn)

    async def _start(self, t: LiveTable, conn: Connection | None = None) -> None:
        if self.settings.cluster:
            now = time.time()
            if self.store.acquire(t.id, self.instance, now + self.settings.lease, now):
                self.owned.add(t.id)
        t.start()
        t.log.append({"kind": "start"})
        await self._deal(t, conn)

    async def _deal(self, t: LiveTable, conn: Connection | None = None) -> None:
        entry = t.deal()
        await self._write(t, dict(entry), entry, conn)

    # --- the clock ---------------------------------------------------------------------

    def _arm(self, t: LiveTable, action: Action | None) -> None:
        """Schedule the table's next server action (replacing any earlier one)."""
        current = asyncio.current_task()
        if t.timer_task is not None and t.timer_task is not current:
            t.timer_task.cancel()
        t.timer_task = None
        if action is not None and self.owns(t) and not self.closing:
            t.timer_task = asyncio.create_task(self._fire_at(t, action, t.seq))

    def _cancel_tasks(self, t: LiveTable) -> None:
        if t.timer_task:
            t.timer_task.cancel()
        for task in t.grace_tasks.values():
            task.cancel()
        t.grace_tasks.clear()

    async def _fire_at(self, t: LiveTable, action: Action, seq: int) -> None:
        try:
            delay = action.at - time.time()
            if delay > 0:
                await asyncio.sleep(delay)
            await self._act(t, seq)
        except asyncio.CancelledError:
            pass
        except Exception as e:
            if unavailable(e):
                log.warning("server action at table %s waits for the database: %s", t.id, e)
            else:
                log.exception("server action failed at table %s", t.id)
            if t.seq == seq and not self.closing:  # try again a little later
                with contextlib.suppress(Exception):
                    t.restore()
                action = self._plan(t)
                if action is not None:
                    action.at = max(action.at, time.time() + RETRY_AFTER)
                    t.timer_task = asyncio.create_task(self._fire_at(t, action, t.seq))

    async def _act(self, t: LiveTable, seq: int) -> None:
        """Do the table's due action, if the table is still where it was planned."""
        async with t.lock:
            if t.seq != seq or not self.owns(t):
                return
            action = t.next_action(self.settings)
            if action is None:
                return
            if action.kind == "deal":
                await self._deal(t)
                return
            seat = action.seat
            assert seat is not None
            if action.kind == "pass":
                await self._commit_move(t, seat, PASS, "forced")
                return
            if action.kind == "timeout":
                t.seats[seat].auto = "timeout"
                entry = {"kind": "standin", "seat": seat, "reason": "timeout"}
                t.log.append(entry)
                t.deadline = None
                self._save(t, config=t.config_json(), log=t.log, deadline=None)
                await self.hub.broadcast(t, "state", event=entry)
            view = t.match.current.view(seat)  # type: ignore[union-attr]
            bot = t.bot_for(seat)
            by = t.controller(seat)
        move = await asyncio.to_thread(bot.choose, view)
        async with t.lock:
            r = t.match.current if t.match else None
            if (t.seq != seq or r is None or r.current_player != seat
                    or t.controller(seat) == "person" or not self.owns(t)):
                if t.seq == seq:  # the player came back in the meantime
                    self._arm(t, self._plan(t))
                return
            if r.why_illegal(move) is not None:
                log.error("bot %s chose an illegal move at table %s", bot, t.id)
                move = r.legal_moves()[0]
            await self._commit_move(t, seat, move, by)

    # --- expiry ------------------------------------------------------------------------

    async def _sweep_loop(self) -> None:
        while True:
            await asyncio.sleep(self.settings.sweep_every)
            try:
                await self.sweep()
            except Exception:
                log.exception("sweep failed")

    async def sweep(self, now: float | None = None) -> list[str]:
        """Expire open tables idle for longer than ``idle_expiry`` with nobody connected."""
        now = time.time() if now is None else now
        expired = []
        for tid in self.store.idle(now - self.settings.idle_expiry):
            t = self.tables.get(tid)
            if t is not None and t.conns:
                continue
            self.store.set(tid, status="expired", deadline=None)
            expired.append(tid)
            if t is not None:
                self._cancel_tasks(t)
                t.status = "expired"
                self.tables.pop(tid, None)
        for tid, t in list(self.tables.items()):
            if t.status == "over" and not t.conns:
                self.tables.pop(tid, None)
        return expired


    # --- several processes on one database (cluster mode) ------------------------------

    async def _cluster_loop(self) -> None:
        """Poll for other processes' events, keep leases, take over orphaned tables and
        stand in for seats connected nowhere."""
        last_lease = last_presence = 0.0
        while True:
            await asyncio.sleep(self.settings.poll_every)
            now = time.time()
            try:
                await self._poll()
                if now - last_lease >= self.settings.lease / 4:
                    last_lease = now
                    self._renew()
                    await self._take_orphans()
                if now - last_presence >= min(1.0, self.settings.grace / 4):
                    last_presence = now
                    await self._check_presence()
            except asyncio.CancelledError:
                raise
            except Exception as e:  # the database may be briefly away: try next time
                log.warning("cluster upkeep failed: %s", e)

    async def _poll(self) -> None:
        """Tables this process holds that another process changed: read and push them."""
        ids = [tid for tid, t in self.tables.items()
               if t.status in ("waiting", "playing") or t.conns]
        for tid, version in self.store.versions(ids).items():
            t = self.tables.get(tid)
            if t is not None and version != (t.seq, t.updated):
                await self._refresh(t)

    async def _refresh(self, t: LiveTable) -> None:
        async with t.lock:
            row, tail = self.store.get_with_tail(t.id)
            if row is None or (row.seq, row.updated) == (t.seq, t.updated):
                return
            old_seq = t.seq
            t.take(LiveTable.from_row(row, tail))
            if t.seq != old_seq:
                event = next((e for e in reversed(t.log) if e.get("kind") in ("move", "deal")),
                             None)
                await self.hub.broadcast(t, "update", event=event)
            else:
                await self.hub.broadcast(t, "state")
            if t.status != "playing" and t.id in self.owned:
                self.owned.discard(t.id)
                self._cancel_tasks(t)
                with contextlib.suppress(Exception):
                    self.store.release(t.id, self.instance)
            elif self.owns(t):
                self._arm(t, t.resumed_action(self.settings))

    def _renew(self) -> None:
        held = self.store.renew(self.instance, time.time() + self.settings.lease)
        for tid in self.owned - held:  # taken over while this process was away
            t = self.tables.get(tid)
            if t is not None and t.timer_task is not None:
                t.timer_task.cancel()
                t.timer_task = None
        self.owned &= held

    async def _take_orphans(self) -> None:
        """Take the lease of every table in play that no live process holds."""
        now = time.time()
        for tid in self.store.orphans(now):
            if not self.store.acquire(tid, self.instance, now + self.settings.lease, now):
                continue
            try:
                t = self.tables.get(tid)
                if t is None:
                    t = self.load(tid)
                else:
                    await self._refresh(t)
            except Exception:
                log.exception("table %s cannot be taken over", tid)
                continue
            self.owned.add(tid)
            log.info("table %s: taken over by %s", tid, self.instance)
            async with t.lock:
                self._arm(t, t.resumed_action(self.settings))

    async def _check_presence(self) -> None:
        """Which seats are connected elsewhere; a stand-in for a seat connected nowhere
        for longer than the grace time (the owner decides)."""
        now = time.time()
        ids = [tid for tid, t in self.tables.items() if t.status in ("waiting", "playing")]
        present = self.store.present_seats(ids, now, self.instance)
        for tid in ids:
            t = self.tables.get(tid)
            if t is None:
                continue
            remote = present.get(tid, set())
            if remote != t.remote:
                t.remote = remote
                async with t.lock:
                    await self.hub.broadcast(t, "state")
            if t.status != "playing" or not self.owns(t):
                continue
            for seat, s in enumerate(t.seats):
                if s.kind != "person" or s.auto or t.connected(seat):
                    t.absent.pop(seat, None)
                    continue
                since = t.absent.setdefault(seat, now)
                if now - since >= self.settings.grace:
                    t.absent.pop(seat, None)
                    async with t.lock:
                        if (t.status == "playing" and not t.seats[seat].auto
                                and not t.connected(seat)):
                            await self._stand_in(t, seat)
