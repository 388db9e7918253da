"""People among people: following, blocking, invitations and who is online.

A player is named to other players by a *tag*: an HMAC of their id under the server
secret, cut to 16 characters -- stable (the same player everywhere, so a block holds at
every table), never the id itself, and meaningless without the secret. Chat lines
carry their writer's tag, and the page hides the lines of the players you blocked at
every table (your blocks: ``GET /api/blocks``); pools never pair you with them.

The server hides them too: each table connection knows the tags its player blocked
(``conn.hidden``, read at ``hello`` and again whenever a line with a writer arrives,
so a block made on another process counts from the next line), and a blocked writer's
line is never sent to it -- live, nor in any state (``hub.py``, ``views.chat_lines``).

Who is online is :mod:`parlour.server.presence`.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import time
from typing import TYPE_CHECKING, Any

from sqlalchemy import delete, insert, select
from sqlalchemy.exc import IntegrityError

from parlour.server import names, people
from parlour.server.errors import ServiceError
from parlour.server.social_rows import BLOCKS, FOLLOWS, INVITES

if TYPE_CHECKING:
    from parlour.server.core import Core
    from parlour.server.presence import Presence

class Social:
    """Follows, blocks, invitations and presence, for one service."""

    # Sibling parts, handed over by the service (TableService.__init__).
    presence: Presence

    def __init__(self, svc: Core) -> None:
        self.svc = svc
        self.engine = svc.store.engine
        secret = svc.keys._secrets[0]
        self._secret = hmac.new(secret, b"parlour-player-tag/1", hashlib.sha256).digest()
        self._tags: dict[str, str] = {}

    # --- names and tags -------------------------------------------------------------

    def tag(self, player: str) -> str:
        found = self._tags.get(player)
        if found is None:
            if len(self._tags) > 50_000:
                self._tags.clear()
            mac = hmac.new(self._secret, player.encode("utf-8"), hashlib.sha256).digest()
            found = self._tags[player] = base64.urlsafe_b64encode(mac[:12]).decode("ascii")
        return found

    def find(self, me: str, name: str | None = None, table: str | None = None,
             seat: int | None = None, tag: str | None = None) -> tuple[str, str]:
        """``(player id, name)`` of an account's name, of the person at a seat of a
        table, or of a tag among the players ``me`` follows or blocked."""
        if name:
            row = people.player_by_key(self.engine, names.key(name))
            if row is None or row["guest"]:
                raise ServiceError(404, "not_found", f"there is no player called {name!r}: "
                                   "follow a guest from a table you shared")
            return row["id"], row["name"]
        if table is not None and seat is not None:
            owner = people.seat_owners(self.engine, table).get(seat)
            if owner is None:
                raise ServiceError(404, "not_found", "nobody known sits in that seat")
            return owner["player_id"], owner["name"]
        if tag:
            with self.engine.connect() as c:
                ids = [r[0] for r in c.execute(select(FOLLOWS.c.followed)
                                               .where(FOLLOWS.c.follower == me))]
                ids += [r[0] for r in c.execute(select(BLOCKS.c.blocked)
                                                .where(BLOCKS.c.blocker == me))]
            for pid in ids:
                if hmac.compare_digest(self.tag(pid), tag):
                    row = people.get_player(self.engine, pid)
                    return pid, (row["name"] if row else "")
            raise ServiceError(404, "not_found", "you neither follow nor blocked that player")
        raise ServiceError(400, "bad_request", "name a player: an account's name, or a table "
                           "and seat you shared")

    def speaker(self, conn: Any) -> tuple[str | None, bool]:
        """The player behind a connection and whether their identity is new
        (``chat_new_age``), read once per connection."""
        found = getattr(conn, "speaker", None)
        if found is None:
            from parlour.server.identity import player_of_ws

            try:
                who = player_of_ws(conn.ws)
            except Exception:  # noqa: BLE001 -- a socket without a request (tests)
                who = None
            young = False
            if who is not None:
                row = people.get_player(self.engine, who.id)
                young = row is None or time.time() - (row["created"] or 0) < \
                    self.svc.settings.chat_new_age
                self.touch(who.id)
            found = conn.speaker = (who.id if who else None, young)
        return found

    # --- presence and hidden chat ---------------------------------------------------

    def touch(self, player: str | None) -> None:
        """``player`` is here now (:meth:`parlour.server.presence.Presence.mark`)."""
        self.presence.mark([player])

    def greet(self, conn: Any, table_id: str, seat: int | None) -> None:
        """A socket said hello: who it is (``conn.player``), the tags whose chat it
        never receives (``conn.hidden``), and its player online now."""
        from parlour.server.presence import seat_owner

        player, _ = self.speaker(conn)
        conn.player = player
        conn.hidden = self.hidden_tags([player]).get(player, frozenset()) if player \
            else frozenset()
        self.presence.greet(conn, seat_owner(self.svc, table_id, seat))

    def hidden_tags(self, players: list[str]) -> dict[str, frozenset[str]]:
        """``player -> tags of the players they blocked``, in one read."""
        found: dict[str, set[str]] = {}
        ids = sorted({p for p in players if p})
        if ids:
            with self.engine.connect() as c:
                for r in c.execute(select(BLOCKS.c.blocker, BLOCKS.c.blocked)
                                   .where(BLOCKS.c.blocker.in_(ids))):
                    found.setdefault(r.blocker, set()).add(self.tag(r.blocked))
        return {p: frozenset(v) for p, v in found.items()}

    def refresh_hidden(self, conns: list[Any]) -> None:
        """Read the blocks of every player at a table again (a chat line with a writer
        is about to go out: a block made since, on any process, counts for it)."""
        players = [c.player for c in conns if getattr(c, "player", None)]
        if not players:
            return
        hidden = self.hidden_tags(players)
        for c in conns:
            if getattr(c, "player", None):
                c.hidden = hidden.get(c.player, frozenset())

    # --- following and blocking ------------------------------------------------------

    def _add(self, table: Any, a: str, b: str) -> None:
        cols = table.c.keys()
        with self.engine.begin() as c:
            try:
                with c.begin_nested():
                    c.execute(insert(table).values({cols[0]: a, cols[1]: b, "at": time.time()}))
            except IntegrityError:
                pass  # already there

    def follow(self, me: str, other: str) -> None:
        if other == me:
            raise ServiceError(400, "bad_request", "you cannot follow yourself")
        if len(self.following(me)) >= self.svc.settings.max_follows:
            raise ServiceError(409, "follow_limit", f"you follow {self.svc.settings.max_follows}"
                               " players already: unfollow one first")
        self._add(FOLLOWS, me, other)

    def unfollow(self, me: str, other: str) -> None:
        with self.engine.begin() as c:
            c.execute(delete(FOLLOWS).where(FOLLOWS.c.follower == me, FOLLOWS.c.followed == other))

    def block(self, me: str, other: str) -> None:
        if other == me:
            raise ServiceError(400, "bad_request", "you cannot block yourself")
        if len(self.blocked(me)) >= self.svc.settings.max_blocks:
            raise ServiceError(409, "block_limit", f"you have blocked {self.svc.settings.max_blocks}"
                               " players already: unblock one first")
        self.unfollow(me, other)
        self._add(BLOCKS, me, other)

    def unblock(self, me: str, other: str) -> None:
        with self.engine.begin() as c:
            c.execute(delete(BLOCKS).where(BLOCKS.c.blocker == me, BLOCKS.c.blocked == other))

    def blocks_between(self, a: str, b: str) -> bool:
        with self.engine.connect() as c:
            return c.execute(select(BLOCKS.c.blocker).where(
                ((BLOCKS.c.blocker == a) & (BLOCKS.c.blocked == b))
                | ((BLOCKS.c.blocker == b) & (BLOCKS.c.blocked == a)))).first() is not None

    def _people(self, ids: list[str]) -> list[dict[str, Any]]:
        if not ids:
            return []
        online = self.presence.online(ids)
        with self.engine.connect() as c:
            rows = c.execute(select(people.PLAYERS.c.id, people.PLAYERS.c.name,
                                    people.PLAYERS.c.guest)
                             .where(people.PLAYERS.c.id.in_(ids))).all()
            # A guest has no name of their own: the one they last sat down with.
            seated = {r.player_id: r.name for r in c.execute(
                select(people.SEAT_OWNERS.c.player_id, people.SEAT_OWNERS.c.name)
                .where(people.SEAT_OWNERS.c.player_id.in_([r.id for r in rows if not r.name]))
                .order_by(people.SEAT_OWNERS.c.at))}
        out = [{"name": r.name or seated.get(r.id) or "A guest", "tag": self.tag(r.id),
                "guest": bool(r.guest), "online": r.id in online} for r in rows]
        out.sort(key=lambda p: (not p["online"], p["name"].casefold()))
        return out

    def following(self, me: str) -> list[dict[str, Any]]:
        with self.engine.connect() as c:
            ids = [r[0] for r in c.execute(select(FOLLOWS.c.followed).where(FOLLOWS.c.follower == me))]
        return self._people(ids)

    def blocked(self, me: str) -> list[dict[str, Any]]:
        with self.engine.connect() as c:
            ids = [r[0] for r in c.execute(select(BLOCKS.c.blocked).where(BLOCKS.c.blocker == me))]
        return [{k: v for k, v in p.items() if k != "online"} for p in self._people(ids)]

    # --- invitations ----------------------------------------------------------------

    def invite(self, me: str, my_name: str, other: str, table_id: str) -> None:
        """Ask a followed player to a table (the caller holds a seat there)."""
        with self.engine.connect() as c:
            follows = c.execute(select(FOLLOWS.c.follower).where(
                FOLLOWS.c.follower == me, FOLLOWS.c.followed == other)).first()
        if follows is None:
            raise ServiceError(403, "not_following", "you can invite the players you follow")
        if self.blocks_between(me, other):
            raise ServiceError(403, "unauthorised", "this player cannot be invited by you")
        now = time.time()
        with self.engine.begin() as c:
            c.execute(delete(INVITES).where(INVITES.c.at < now - self.svc.settings.invite_keep))
            c.execute(delete(INVITES).where(INVITES.c.to_player == other,
                                            INVITES.c.table_id == table_id))
            c.execute(insert(INVITES).values(to_player=other, from_player=me,
                                             from_name=my_name, table_id=table_id, at=now))

    def invites(self, me: str) -> list[dict[str, Any]]:
        """Invitations to tables that still have a free seat, newest first, each with
        the link that opens a seat."""
        now = time.time()
        with self.engine.connect() as c:
            rows = c.execute(select(INVITES).where(
                INVITES.c.to_player == me, INVITES.c.at >= now - self.svc.settings.invite_keep)
                .order_by(INVITES.c.at.desc()).limit(20)).all()
        out = []
        for r in rows:
            try:
                t = self.svc.load(r.table_id)
            except ServiceError:
                continue
            free = any(s.kind == "person" and s.token_hash is None
                       and (t.status == "waiting" or s.open) for s in t.seats)
            if not free or t.status not in ("waiting", "playing"):
                continue
            out.append({"id": r.id, "from": r.from_name, "tag": self.tag(r.from_player),
                        "game": t.game.name, "title": t.game.title, "table": t.id,
                        "at": r.at, "url": f"/t/{t.id}#invite={t.invite_key}"})
        return out

    def decline(self, me: str, invite: int) -> None:
        with self.engine.begin() as c:
            c.execute(delete(INVITES).where(INVITES.c.id == invite, INVITES.c.to_player == me))


__all__ = ["Social"]
