"""What people ask of a table: create it, join it, start it, move, hint, rematch, back.

Each intent is checked under the table's lock (who asks, the table's state, the
sequence number it answers, the engine's ``why_illegal``) and refused with a code and
plain words, or handed to the write path (:mod:`parlour.server.writes`).
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import TYPE_CHECKING, Any

from parlour import cards
from parlour.bots import bot_names
from parlour.games import get_game
from parlour.options import OptionError
from parlour.server.db import TableRow
from parlour.server.errors import ServiceError
from parlour.server.hub import Connection
from parlour.server.live import LiveTable, SeatInfo
from parlour.server.protocol import CreateTable, HintMsg, Joined, MoveMsg, TestOptions
from parlour.server.tokens import hash_token, new_key, new_table_id, new_token, same

if TYPE_CHECKING:
    from parlour.server.service import TableService

log = logging.getLogger("parlour.server")


def default_bot(game: str) -> str:
    names = bot_names(game)
    for pick in ("medium", "heuristic", "greedy"):
        if pick in names:
            return pick
    return names[0]


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

    def __init__(self, svc: TableService) -> None:
        self.svc = svc

    # --- creating and joining (HTTP) ---------------------------------------------------

    async def create(self, req: CreateTable) -> Joined:
        svc = self.svc
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
        rejoin = None
        if host is not None:
            rejoin = new_key()
            seats[host].rejoin_hash = hash_token(rejoin)
        config = {"players": req.players, "rules": rules, "timer": req.timer,
                  "standin": standin, "host": host, "test": test, "public": req.public,
                  "seats": [s.to_json() for s in seats]}
        row = TableRow(id=tid, game=game.name, status="waiting", created=now, updated=now,
                       config=config, record=None, seq=0, deadline=None, salt=None,
                       log=[], invite_key=new_key(), watch_key=new_key(), rematch=None)
        svc.store.add(row)
        t = svc.load(tid)
        if host is None:  # bots only: nothing to wait for
            async with t.lock:
                await svc.writer.start(t)
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

    async def join(self, table_id: str, key: str, name: str) -> Joined:
        svc = self.svc
        t = svc.load(table_id)
        if t.status == "expired":
            raise ServiceError(410, "expired", "this table has expired")
        if same(key, t.watch_key):
            return joined(t, None, None)
        if not same(key, t.invite_key):
            raise ServiceError(403, "unauthorised", "this link does not open a seat at this table")
        return await self.sit(t, name)

    async def sit(self, t: LiveTable, name: str) -> Joined:
        """Give a free person seat to a newcomer: before the start, or during play a
        seat the host re-opened (the stand-in plays it until they connect)."""
        svc = self.svc
        async with t.lock:
            free = next((i for i, s in enumerate(t.seats) if s.kind == "person"
                         and s.token_hash is None and (t.status == "waiting" or s.open)), None)
            if free is None:
                if t.status != "waiting":
                    raise ServiceError(409, "started", "the game has already started and no "
                                       "seat is open")
                raise ServiceError(409, "full", "every seat at this table is taken")
            token = new_token()
            seat = t.seats[free]
            seat.token_hash = hash_token(token)
            seat.open = seat.connected_once = False
            rejoin = new_key()
            seat.rejoin_hash = hash_token(rejoin)
            seat.name = name.strip() or seat.name
            entry = {"kind": "join", "seat": free, "name": seat.name}
            t.log.append(entry)
            svc.writer.save(t, config=t.config_json(), log=t.log)
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
        action = svc.clock.plan(t)
        svc.writer.save(t, config=t.config_json(), log=t.log, deadline=t.deadline)
        await svc.hub.broadcast(t, "state", event=event)
        svc.clock.arm(t, action)
        return event

    async def move(self, conn: Connection, msg: MoveMsg) -> None:
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
            reason = r.why_illegal(move)
            if reason is not None:
                await svc.hub.error(conn, "illegal", reason)
                return
            if t.seats[conn.seat].auto:  # playing is taking the seat back
                t.seats[conn.seat].auto = None
                t.log.append({"kind": "back", "seat": conn.seat})
            await svc.writer.commit_move(t, conn.seat, move, "person", conn)

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
                                    f"{len(missing)} seat(s) still wait for a player")
                return
            await svc.writer.start(t, conn)

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
            view = t.match.current.view(conn.seat)  # type: ignore[union-attr]
        try:
            from parlour.bots.hints import hints
        except ImportError:
            await svc.hub.error(conn, "unavailable", "hints are not available on this server")
            return
        try:
            ranked = await asyncio.to_thread(hints, t.game.name, view, "hard", 0)
        except Exception as e:  # a failing hint must not take the table down
            log.exception("hint failed")
            await svc.hub.error(conn, "unavailable", f"no hint this time: {e}")
            return
        moves = [{"move": t.game.move_to_json(m), "value": round(float(v), 3)}
                 for m, v in list(ranked)[:3]]
        await svc.hub.send(t, conn, "hint", moves=moves)
