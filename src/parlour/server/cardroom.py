"""The card room at a table: personal rejoin links, re-opening a seat, rematch offers,
table chat, and the list of public tables.

* **Rejoin links.** Every seated person gets a secret of their own (kept hashed, like
  seat tokens). ``POST /api/tables/ID/rejoin`` with it gives the seat a new token on any
  device, and a new rejoin link; the old token and the old link stop working, as they
  do when the seat is freed, left or re-opened. Attempts are limited per address.
* **Re-opening a seat.** During play the host may open a seat that a stand-in plays or
  whose player never connected: its token and rejoin secret are dropped, the stand-in
  goes on playing it, and the next person with the invite link takes it.
* **Rematch offers.** A rematch is an offer: each person accepts or declines, bots
  accept. The new table starts when every person seat has accepted or the host filled
  the declined seats (with the computer or an open seat). Spectators are not moved:
  they get a link to watch.
* **Chat.** Seated players talk at the table; spectators read it and talk among
  themselves (their channel is not shown to seats). Lines are plain text (no markup is
  ever parsed), limited in length and in rate per seat and per address (not per
  socket), each channel keeping its own last lines; kept in memory only by one process
  (a restart forgets them), in the database by a cluster (so every process shows them;
  deleted with the table), never part of the game record. Muting is per browser.
"""

from __future__ import annotations

import secrets
import time
import unicodedata
from typing import TYPE_CHECKING, Any

from parlour.server import people
from parlour.server.errors import ServiceError
from parlour.server.hub import Connection
from parlour.server.limits import refuse_if_waiting
from parlour.server.live import LiveTable
from parlour.server.protocol import Joined
from parlour.server.tokens import hash_token, new_key, new_token

if TYPE_CHECKING:
    from collections.abc import Callable

    from parlour.server.clock import TableClock
    from parlour.server.core import Core
    from parlour.server.identity import Player
    from parlour.server.intents import Intents
    from parlour.server.moderation import Moderation
    from parlour.server.social import Social
    from parlour.server.writes import Writer


NO_REJOIN = ("this rejoin link no longer works: it was used to take the seat back (each "
             "link works once and the seat got a new one), or its seat was freed or left")
"""What an old, used or made-up rejoin link gets (the same words for each: a guess learns
nothing)."""


def rejoin_url(t: LiveTable, key: str) -> str:
    return f"/t/{t.id}#rejoin={key}"


def give_rejoin(t: LiveTable, seat: int) -> str:
    """A fresh personal rejoin secret for ``seat`` (only its hash is kept)."""
    key = new_key()
    t.seats[seat].rejoin_hash = hash_token(key)
    return key


def _is_account(svc: Core, owner: dict[str, Any] | None) -> bool:
    if owner is None:
        return False
    row = people.get_player(svc.store.engine, owner["player_id"])
    return row is not None and not row["guest"]


def clean_text(text: str, limit: int) -> str:
    """Chat text as shown: NFC, no control or bidi characters, spaces collapsed."""
    text = unicodedata.normalize("NFC", text)
    text = "".join(" " if unicodedata.category(ch) in ("Cc", "Zl", "Zp") else ch
                   for ch in text if unicodedata.category(ch) != "Cf")
    return " ".join(text.split())[:limit]


class CardRoom:
    """Rejoin links, seat re-opening, rematch offers and chat, for one service."""

    # Sibling parts, handed over by the service (TableService.__init__).
    writer: Writer
    clock: TableClock
    intents: Intents
    social: Social
    moderation: Moderation

    def __init__(self, svc: Core) -> None:
        self.svc = svc

    # --- rejoin and re-open ----------------------------------------------------------

    async def rejoin(self, table_id: str, key: str | None,
                     who: Callable[[], Player | None] | None = None,
                     addr: str = "local") -> Joined:
        """A seat back on this device: with its rejoin link, or (no key) for the player
        who owns the seat (a signed-in account, or the guest of this browser). The link
        is used up: the answer brings a new one (and a new seat token), so a leaked link
        is worth one use at most, and whoever holds the new link keeps the seat.
        Attempts are limited per address (``rejoin_per_minute``)."""
        from parlour.server.intents import joined

        svc = self.svc
        wait = svc.limits.take(f"rejoin:{svc.limits.address_key(addr)}",
                               svc.settings.rejoin_per_minute / 60.0, svc.settings.rejoin_burst)
        refuse_if_waiting(wait, "too many rejoin attempts from your address")
        t = svc.load(table_id)
        if t.status == "expired":
            raise ServiceError(410, "expired", "this table has expired")
        owners = people.seat_owners(svc.store.engine, t.id)
        if key is None:
            player = who() if who is not None else None
            seat = next((i for i, o in owners.items() if player is not None
                         and o["player_id"] == player.id and i < len(t.seats)
                         and t.seats[i].rejoin_hash is not None), None)
            if seat is None:
                raise ServiceError(403, "unauthorised", "you hold no seat at this table "
                                   "(sign in with the account that took it, or use your "
                                   "rejoin link)")
        else:
            h = hash_token(key)
            seat = next((i for i, s in enumerate(t.seats) if s.rejoin_hash is not None
                         and secrets.compare_digest(s.rejoin_hash, h)), None)
            if seat is None:
                raise ServiceError(403, "unauthorised", NO_REJOIN)
            owner = owners.get(seat)
            player = who() if who is not None else None
            # The link's holder is the seat's person now; but an account's seat is not
            # handed to a guest (its owner opening the link while signed out).
            if player is not None and (owner is None or owner["player_id"] != player.id) \
                    and not (player.guest and _is_account(svc, owner)):
                people.own_seat(svc.store.engine, t.id, seat, player.id, t.seats[seat].name)
        async with t.lock:
            if key is not None and t.seats[seat].rejoin_hash != hash_token(key):
                raise ServiceError(403, "unauthorised", NO_REJOIN)  # used up meanwhile
            token = new_token()
            t.seats[seat].token_hash = hash_token(token)
            fresh = give_rejoin(t, seat)
            self.writer.save(t, config=t.config_json())
            await self.intents.drop_revoked(t)  # the old device lets go
        out = joined(t, seat, token)
        out.rejoin_url = rejoin_url(t, fresh)
        return out

    async def reopen(self, conn: Connection, seat: int) -> None:
        """The host opens a seat held by a stand-in (or never connected) to a new person."""
        svc = self.svc
        t = conn.table
        assert t is not None
        async with t.lock:
            if conn.seat is None or conn.seat != t.config.get("host"):
                await svc.hub.error(conn, "unauthorised", "only the host can open a seat")
                return
            if t.status != "playing" or not 0 <= seat < t.players or seat == conn.seat:
                await svc.hub.error(conn, "bad_seat", "that seat cannot be opened now")
                return
            s = t.seats[seat]
            if s.kind != "person" or not (s.auto or not s.connected_once) or t.connected(seat):
                await svc.hub.error(conn, "bad_seat", "only a seat the computer plays for an "
                                    "absent player, or one never used, can be opened")
                return
            s.token_hash = s.rejoin_hash = None
            s.open = True
            people.disown_seat(svc.store.engine, t.id, seat)
            if not s.auto:
                s.auto = "disconnected"
            entry = {"kind": "reopen", "seat": seat}
            t.log.append(entry)
            action = self.clock.plan(t)
            self.writer.save(t, config=t.config_json(), log=t.log, deadline=t.deadline)
            await svc.hub.broadcast(t, "state", event=entry)
            self.clock.arm(t, action)

    # --- public tables -------------------------------------------------------------------

    def open_tables(self) -> list[dict[str, Any]]:
        """Public tables with a free seat, and public games in play (public facts only)."""
        out = []
        for t in list(self.svc.tables.values()):
            if not t.config.get("public") or t.status not in ("waiting", "playing"):
                continue
            free = sum(1 for s in t.seats if s.kind == "person" and (s.token_hash is None))
            if t.status == "waiting" and not free:
                continue
            host = t.config.get("host")
            out.append({"id": t.id, "game": t.game.name, "title": t.game.title,
                        "status": t.status, "players": t.players, "free": free,
                        "rules": t.rules, "round": t.round_number, "rounds": t.rules["rounds"],
                        "host": t.seats[host].name if host is not None else "",
                        # who sits there already (public facts: the names any visitor
                        # sees at the table), so that two such tables differ in the list
                        "names": [s.name for s in t.seats
                                  if s.kind != "person" or s.token_hash is not None],
                        "created": t.created, "watch_url": f"/t/{t.id}#watch={t.watch_key}"})
        out.sort(key=lambda e: (e["status"] != "waiting", -e["created"]))
        return out[: self.svc.settings.open_tables_listed]

    # --- chat ----------------------------------------------------------------------------

    async def chat(self, conn: Connection, text: str) -> None:
        """A chat line. Its rate is limited per seat and per address at the table (for
        spectators per address), not per socket, so reconnecting buys nothing; in a
        cluster the limits and the lines are shared by every process."""
        svc = self.svc
        st = svc.settings
        t = conn.table
        assert t is not None
        clean = clean_text(text, st.chat_max_length)
        if not clean:
            return
        if len(text) > st.chat_max_length * 2:
            await svc.hub.error(conn, "chat_too_long",
                                f"A chat line holds at most {st.chat_max_length} characters.")
            return
        player, young = self.social.speaker(conn)
        refused = self.moderation.refusal(player, "chat")
        if refused is not None:  # muted, suspended or banned: told why
            await svc.hub.error(conn, *refused)
            return
        burst = min(st.chat_burst, st.chat_new_burst) if young else st.chat_burst
        rate = burst / st.chat_window if st.chat_window > 0 else float(burst)
        channel = "table" if conn.seat is not None else "watchers"
        kind = "chatnew" if young else "chat"  # a new player's own, smaller buckets
        keys = [f"{kind}:{t.id}:{channel}:{svc.limits.address_key(conn.addr)}"]
        if conn.seat is not None:
            keys.insert(0, f"{kind}:{t.id}:seat:{conn.seat}")
        if any(svc.limits.take(k, rate, burst) > 0 for k in keys):
            await svc.hub.error(conn, "chat_limit",
                                f"Slow down: at most {burst} chat lines every "
                                f"{st.chat_window:g} seconds"
                                + (" while your name is new here." if young else "."))
            return
        name = t.seats[conn.seat].name if conn.seat is not None else ""
        line = {"id": 0, "seat": conn.seat, "name": name, "text": clean, "channel": channel,
                "at": round(time.time(), 1)}
        if conn.seat is None:  # told apart: their own name, else a number the page
            line["name"] = self._watcher_name(conn)  # words ("Spectator 2")
            line["spectator"] = t.watchers.setdefault(player or id(conn),
                                                      len(t.watchers) + 1)
        if player is not None:  # who wrote it, as a tag: the page hides blocked players'
            line["who"] = self.social.tag(player)
        if st.cluster:  # every process's clients read it: stored and announced
            line["id"] = svc.store.add_chat(t.id, {k: v for k, v in line.items() if k != "id"})
        else:
            line["id"] = max((ln["id"] for ln in t.chat), default=0) + 1
        await self.show(t, [line])

    def _watcher_name(self, conn: Connection) -> str:
        """A spectator's chosen name (an account's or a named guest's), read once per
        socket; "" when they have none."""
        name = getattr(conn, "watcher_name", None)
        if name is None:
            player, _ = self.social.speaker(conn)
            row = people.get_player(self.svc.store.engine, player) if player else None
            name = conn.watcher_name = (row or {}).get("name") or ""
        return name

    async def show(self, t: LiveTable, lines: list[dict[str, Any]]) -> None:
        """Add chat lines to the table and send each to those who read its channel.
        Each channel keeps its own ``chat_keep`` lines, so spectators' lines never push
        out the players' (nor the other way round)."""
        keep = self.svc.settings.chat_keep
        if any("who" in ln for ln in lines):  # blocks made since, on any process, count
            self.social.refresh_hidden(list(t.conns))
        for line in lines:
            if any(ln["id"] == line["id"] for ln in t.chat):
                continue
            t.chat.append(line)
            t.chat.sort(key=lambda ln: ln["id"])
            t.chat_seen = max(t.chat_seen, line["id"])
            mine = [ln for ln in t.chat if ln["channel"] == line["channel"]]
            if len(mine) > keep:
                gone = {id(ln) for ln in mine[:len(mine) - keep]}
                t.chat = [ln for ln in t.chat if id(ln) not in gone]
                if self.svc.settings.cluster and t.chat:
                    self.svc.store.trim_chat(t.id, t.chat[0]["id"])
            cache: dict = {}  # each audience's state is built once
            for c in list(t.conns):
                if line.get("who") in c.hidden:
                    continue  # its reader blocked the writer: never sent
                if line["channel"] == "table" or c.seat is None:
                    await self.svc.hub.send(t, c, "chat", cache=cache, line=line)

    def load_chat(self, t: LiveTable) -> None:
        """A cluster's table read from the database: its stored chat comes with it."""
        lines = [{**line, "id": i} for i, line in self.svc.store.chat_after(t.id, 0)]
        keep = self.svc.settings.chat_keep
        for channel in ("table", "watchers"):
            t.chat += [ln for ln in lines if ln["channel"] == channel][-keep:]
        t.chat.sort(key=lambda ln: ln["id"])
        t.chat_seen = max((ln["id"] for ln in lines), default=0)

    async def heard(self, t: LiveTable) -> None:
        """Another process announced chat at the table: read the new lines and send
        them here (cluster)."""
        new = self.svc.store.chat_after(t.id, t.chat_seen)
        if new:
            await self.show(t, [{**line, "id": i} for i, line in new])

    # --- rematch offers --------------------------------------------------------------

    async def rematch(self, conn: Connection) -> None:
        """Offer a rematch, or accept the one on offer."""
        t = conn.table
        assert t is not None
        if conn.seat is None:
            await self.svc.hub.error(conn, "unauthorised", "spectators cannot offer a rematch")
            return
        async with t.lock:
            if t.status != "over":
                await self.svc.hub.error(conn, "not_over", "a rematch is offered when the game ends")
                return
            offer = t.config.get("rematch_offer")
            if offer is None or offer["status"] != "open":
                if t.rematch is not None:  # already started: go there
                    await self._send_moves(t, [conn])
                    return
                offer = {"by": conn.seat, "status": "open", "fill": {},
                         "answers": ["bot" if s.kind == "bot" else None for s in t.seats]}
                t.config["rematch_offer"] = offer
                t.log.append({"kind": "rematch_offer", "seat": conn.seat})
            await self._answer(t, conn.seat, True)

    async def answer(self, conn: Connection, accept: bool) -> None:
        t = conn.table
        assert t is not None
        if conn.seat is None:
            await self.svc.hub.error(conn, "unauthorised", "spectators have no seat to answer for")
            return
        async with t.lock:
            offer = t.config.get("rematch_offer")
            if t.status != "over" or offer is None or offer["status"] != "open":
                await self.svc.hub.error(conn, "no_offer", "there is no rematch offer to answer")
                return
            await self._answer(t, conn.seat, accept)

    async def fill(self, conn: Connection, how: str) -> None:
        """The host fills the seats that declined (or have not answered: a player who
        left) with the computer or open seats."""
        t = conn.table
        assert t is not None
        async with t.lock:
            offer = t.config.get("rematch_offer")
            if conn.seat is None or conn.seat != t.config.get("host"):
                await self.svc.hub.error(conn, "unauthorised", "only the host can fill seats")
                return
            if t.status != "over" or offer is None or offer["status"] != "open":
                await self.svc.hub.error(conn, "no_offer", "there is no rematch offer to fill")
                return
            # Filling the others is the host's yes: his own seat stays his (finding 11).
            offer["answers"][conn.seat] = "yes"
            offer["fill"].pop(str(conn.seat), None)
            for i, a in enumerate(offer["answers"]):
                if a in ("no", None):
                    offer["fill"][str(i)] = how
            await self._settle(t)

    async def _answer(self, t: LiveTable, seat: int, accept: bool) -> None:
        offer = t.config["rematch_offer"]
        offer["answers"][seat] = "yes" if accept else "no"
        offer["fill"].pop(str(seat), None)
        t.log.append({"kind": "rematch_answer", "seat": seat, "accept": accept})
        if not accept and seat == t.config.get("host"):
            offer["status"] = "declined"
        await self._settle(t)

    async def _settle(self, t: LiveTable) -> None:
        """Start the rematch when every person seat accepted or was filled; else save."""
        svc = self.svc
        offer = t.config["rematch_offer"]
        ready = offer["status"] == "open" and all(
            a in ("yes", "bot") or (a in ("no", None) and str(i) in offer["fill"])
            for i, a in enumerate(offer["answers"]))
        if not ready:
            self.writer.save(t, config=t.config_json(), log=t.log)
            await svc.hub.broadcast(t, "state")
            return
        new_id = await self._create(t, offer)
        offer["status"] = "started"
        t.rematch = new_id
        self.writer.save(t, config=t.config_json(), log=t.log, rematch=new_id)
        await svc.hub.broadcast(t, "state")
        await self._send_moves(t, list(t.conns))

    async def _create(self, t: LiveTable, offer: dict[str, Any]) -> str:
        from parlour.server.db import TableRow
        from parlour.server.tokens import new_table_id

        svc = self.svc
        cfg = t.config_json()
        cfg.pop("rematch_offer", None)
        for i, s in enumerate(cfg["seats"]):
            s["auto"] = None
            s["open"] = False
            s["connected_once"] = False
            if s["kind"] == "person" and offer["answers"][i] in ("no", None):
                if offer["fill"].get(str(i)) == "bot":
                    s.update(kind="bot", bot=cfg.get("standin") or "medium",
                             name=f"Computer {i + 1}", token_hash=None, rejoin_hash=None)
                else:
                    s.update(token_hash=None, rejoin_hash=None, name=f"Player {i + 1}")
        if any(s["kind"] == "bot" for s in cfg["seats"]):
            cfg["rated"] = False  # computer players never change a rating
        if cfg.get("test") and cfg["test"].get("seed") is not None:
            cfg["test"] = {**cfg["test"], "seed": cfg["test"]["seed"] + 1, "decks": None}
        now = time.time()
        tid = new_table_id()
        svc.store.add(TableRow(
            id=tid, game=t.game.name, status="waiting", created=now, updated=now,
            config=cfg, record=None, seq=0, deadline=None, salt=None, log=[],
            invite_key="", watch_key="", rematch=None))
        old = people.seat_owners(svc.store.engine, t.id)
        people.own_seats(svc.store.engine, tid, [
            (i, old[i]["player_id"], cfg["seats"][i]["name"]) for i in old
            if i < len(cfg["seats"]) and offer["answers"][i] == "yes"])
        new = svc.load(tid)
        if all(s.claimed for s in new.seats):
            async with new.lock:
                await self.writer.start(new)
        return tid

    async def _send_moves(self, t: LiveTable, conns: list[Connection]) -> None:
        """Seats that accepted go to the new table; everyone else gets a link."""
        new = self.svc.load(t.rematch)  # type: ignore[arg-type]
        offer = t.config.get("rematch_offer") or {}
        for c in conns:
            accepted = c.seat is not None and (offer.get("answers") or [None] * t.players)[c.seat] == "yes"
            await self.svc.hub.send(t, c, "rematch", table=new.id, watch=new.watch_key,
                                    move=accepted)
