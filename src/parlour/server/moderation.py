"""Moderation: reports of players, and the operator's mutes, suspensions and bans.

One set of functions over the database, used by the server (refusing a sanctioned
player, taking reports), by ``parlour admin`` and by the operator's page, so each
action is written and logged the same way wherever it is done. A sanction names a
player id: an account's or a lasting guest's. What each refuses:

* ``mute``: no chat;
* ``suspend``: no chat, no new table, seat or pool entry;
* ``ban``: all of that, and no sign-in (the account's ``banned`` reason is set too).

Every action (and the closing of a report) is a row of ``moderation_log``.
"""

from __future__ import annotations

import time
from typing import Any

from sqlalchemy import delete, insert, select, update
from sqlalchemy.engine import Engine

from parlour.server.errors import ServiceError
from parlour.server.moderation_rows import MODLOG, REPORTS, SANCTIONS

ACTIONS = ("mute", "suspend", "ban", "unmute", "unsuspend", "unban", "close")
REFUSED_BY = {"chat": ("mute", "suspend", "ban"), "play": ("suspend", "ban"),
              "signin": ("ban",)}
WORDS = {"mute": "muted", "suspend": "suspended", "ban": "banned"}
CACHE = 5.0
"""Seconds a process trusts what it read of a player's sanctions (an action taken on
another process or from the command line is in force within this)."""


def _people() -> Any:
    """The accounts' table, when the identity module is there."""
    try:
        from parlour.server.people import PlayerRow
    except ImportError:
        return None
    return PlayerRow.__table__


def resolve(engine: Engine, who: str) -> tuple[str, str]:
    """``(player id, name)`` of an account name or a player id (guests have no unique
    name: the operator uses the id shown with each report)."""
    from parlour.server import names

    people = _people()
    if people is not None:
        with engine.connect() as c:
            r = c.execute(select(people.c.id, people.c.name).where(
                (people.c.name_key == names.key(who)) | (people.c.id == who))).first()
        if r is not None:
            return r.id, r.name
        raise ValueError(f"there is no player {who!r} (an account's name or a player id)")
    return who, who


def sanctions(engine: Engine, player: str, now: float | None = None) -> dict[str, tuple[float | None, str]]:
    """The sanctions in force: kind -> (until or None for good, reason)."""
    now = time.time() if now is None else now
    with engine.connect() as c:
        rows = c.execute(select(SANCTIONS).where(SANCTIONS.c.player_id == player)).all()
    return {r.kind: (r.until, r.reason) for r in rows if r.until is None or r.until > now}


def act(engine: Engine, actor: str, action: str, target: str, reason: str,
        until: float | None = None) -> dict[str, Any]:
    """Apply one operator action and log it; ``target`` a player id (a report's id
    for ``close``)."""
    if action not in ACTIONS:
        raise ValueError(f"unknown action {action!r}; one of: {', '.join(ACTIONS)}")
    if not reason.strip():
        raise ValueError("give a reason: the player is shown it")
    now = time.time()
    people = _people()
    with engine.begin() as c:
        if action == "close":
            if c.execute(update(REPORTS).where(REPORTS.c.id == int(target))
                         .values(status="closed")).rowcount != 1:
                raise ValueError(f"there is no report {target}")
        elif action.startswith("un"):
            kind = action[2:]
            c.execute(delete(SANCTIONS).where(SANCTIONS.c.player_id == target,
                                              SANCTIONS.c.kind == kind))
            if kind == "ban" and people is not None:
                c.execute(update(people).where(people.c.id == target).values(banned=None))
        else:
            c.execute(delete(SANCTIONS).where(SANCTIONS.c.player_id == target,
                                              SANCTIONS.c.kind == action))
            c.execute(insert(SANCTIONS).values(player_id=target, kind=action, until=until,
                                               reason=reason.strip()))
            if action == "ban" and people is not None:
                c.execute(update(people).where(people.c.id == target)
                          .values(banned=reason.strip()))
        c.execute(insert(MODLOG).values(at=now, actor=actor, action=action, target=target,
                                        reason=reason.strip(), until=until))
    return {"at": now, "actor": actor, "action": action, "target": target,
            "reason": reason.strip(), "until": until}


def report(engine: Engine, reporter: str, target: str, target_name: str, reason: str,
           table_id: str | None, chat: list[Any]) -> int:
    with engine.begin() as c:
        res = c.execute(insert(REPORTS).values(
            at=time.time(), reporter=reporter, target=target, target_name=target_name,
            reason=reason, table_id=table_id, chat=chat, status="open"))
        return int(res.inserted_primary_key[0])


def reports(engine: Engine, status: str | None = "open", limit: int = 100) -> list[dict[str, Any]]:
    """Reports, newest first, each with the game's record when the game is over (its
    cards are no secret then) or the table's state in words when it is not."""
    from parlour.server.db import TABLES

    q = select(REPORTS).order_by(REPORTS.c.id.desc()).limit(limit)
    if status:
        q = q.where(REPORTS.c.status == status)
    out = []
    with engine.connect() as c:
        for r in c.execute(q).all():
            item = {k: v for k, v in r._mapping.items()}
            item["record"] = None
            item["table_status"] = None
            if r.table_id:
                t = c.execute(select(TABLES.c.status, TABLES.c.record)
                              .where(TABLES.c.id == r.table_id)).first()
                if t is not None:
                    item["table_status"] = t.status
                    if t.status == "over":
                        item["record"] = t.record
            item["sanctions"] = {k: {"until": u, "reason": why}
                                 for k, (u, why) in sanctions(engine, r.target).items()}
            out.append(item)
    return out


def history(engine: Engine, limit: int = 100) -> list[dict[str, Any]]:
    with engine.connect() as c:
        rows = c.execute(select(MODLOG).order_by(MODLOG.c.id.desc()).limit(limit)).all()
    return [dict(r._mapping) for r in rows]


def when(until: float | None) -> str:
    if until is None:
        return "for good"
    return "until " + time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(until))


class Moderation:
    """What the server refuses a sanctioned player (read at most every ``CACHE`` s)."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self._cache: dict[str, tuple[float, dict[str, tuple[float | None, str]]]] = {}

    def forget(self, player: str) -> None:
        self._cache.pop(player, None)

    def of(self, player: str) -> dict[str, tuple[float | None, str]]:
        now = time.monotonic()
        hit = self._cache.get(player)
        if hit is None or now - hit[0] > CACHE:
            if len(self._cache) > 10_000:
                self._cache.clear()
            hit = self._cache[player] = (now, sanctions(self.engine, player))
        return hit[1]

    def refusal(self, player: str | None, what: str) -> tuple[str, str] | None:
        """``(code, words)`` when ``player`` may not do ``what`` (chat, play, signin)."""
        if player is None:
            return None
        held = self.of(player)
        for kind in ("ban", "suspend", "mute"):
            if kind in REFUSED_BY[what] and kind in held:
                until, reason = held[kind]
                return WORDS[kind], (f"you are {WORDS[kind]} {when(until)}"
                                     f" by this room's operator: {reason}")
        return None

    def refuse(self, player: str | None, what: str) -> None:
        """Raise the 403 of :meth:`refusal`, if any."""
        found = self.refusal(player, what)
        if found is not None:
            raise ServiceError(403, found[0], found[1])
