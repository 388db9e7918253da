"""Rated games in the database: the ratings, each rated game's result, and rebuilding.

Three tables (:mod:`parlour.server.rated_rows`, created by the store):

* ``ratings``: one row per player and pool (``mu``, ``sigma``, games, wins).
* ``rated_games``: one row per rated table, keyed on the table id (unique), numbered
  ``n`` in the order written -- the order ``parlour ratings rebuild`` replays.
* ``rating_changes``: one row per seat of a rated game: the player, their place and
  total, whether they left, and ``(mu, sigma)`` before and after.

A rated game's result is written by :func:`record_in` inside the very transaction that
writes the game's last event (``Store.commit_events``, ``db.ALSO``): the game is over
and rated, or neither. It does nothing when the table is already in ``rated_games``
(a restart or a second process replaying the end), and it reads and locks the
players' rows before it numbers the game, so two games sharing a player are numbered
in the order their updates were applied. The rows outlive the tables (retention
deletes finished tables, never results), so a rebuild needs nothing else.
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from sqlalchemy import text

from parlour.server import ratings
from parlour.server.db import Tx
from parlour.server.rated_rows import (  # noqa: F401  (importable here, as before)
    RatedGameRow,
    RatingChangeRow,
    RatingRow,
)

if TYPE_CHECKING:
    from parlour.server.db import Store
    from parlour.server.live import LiveTable

log = logging.getLogger("parlour.server")


@dataclass(frozen=True)
class Ending:
    """A rated table's result, as the end of its game leaves it."""

    table_id: str
    pool: str
    finished: float
    totals: list[int]
    places: list[int]
    gone: list[bool] = field(default_factory=list)


def ending(t: LiveTable) -> Ending | None:
    """The result to rate when ``t``'s game has just ended, or None: the host did not
    ask for a rated table, or a seat is a computer player's (bots never change a
    rating). A seat the stand-in still plays at the end (it left, timed out or lost
    its connection and never took the seat back) places last."""
    m = t.match
    if not t.config.get("rated") or m is None or not m.is_over:
        return None
    if any(s.kind != "person" for s in t.seats):
        return None
    gone = [s.auto is not None for s in t.seats]
    placed = ratings.places(t.game.lower_wins(t.rules), m.totals, m.winners or [], gone)
    return Ending(t.id, ratings.pool_of(t.game.name, t.players), time.time(),
                  list(m.totals), placed, gone)


def owners_in(tx: Tx, table_id: str) -> dict[int, str]:
    """Who sat where (``seat_owners``, written when a person takes a seat)."""
    return {int(seat): str(pid) for seat, pid in tx.rows(
        "SELECT seat, player_id FROM seat_owners WHERE table_id = :t", t=table_id)}


def _in(prefix: str, values: list[str]) -> tuple[str, dict[str, Any]]:
    names = [f"{prefix}{i}" for i in range(len(values))]
    return ", ".join(":" + n for n in names), dict(zip(names, values, strict=True))


def record_in(tx: Tx, e: Ending, owners: dict[int, str] | None = None) -> bool:
    """Write ``e``'s rating update in the caller's transaction; False (nothing written)
    when the table is already rated, or its seats are not each a different known
    player (``owners``: seat -> player id; default: read ``seat_owners``)."""
    if tx.rows("SELECT 1 FROM rated_games WHERE table_id = :t", t=e.table_id):
        return False
    owners = owners_in(tx, e.table_id) if owners is None else owners
    seats = range(len(e.places))
    ids = [owners.get(s) for s in seats]
    if any(i is None for i in ids) or len(set(ids)) != len(ids):
        return False
    players: list[str] = [i for i in ids if i is not None]
    now = e.finished
    for pid in sorted(players):  # one order everywhere: no deadlock between games
        tx.run("INSERT INTO ratings (player_id, pool, mu, sigma, games, wins, updated) "
               "VALUES (:p, :pool, :mu, :sigma, 0, 0, :now) ON CONFLICT DO NOTHING",
               p=pid, pool=e.pool, mu=ratings.MU, sigma=ratings.SIGMA, now=now)
    marks, params = _in("p", sorted(players))
    lock = " FOR UPDATE" if tx.dialect == "postgresql" else ""
    held = {r[0]: r for r in tx.rows(
        f"SELECT player_id, mu, sigma, games, wins FROM ratings WHERE pool = :pool "
        f"AND player_id IN ({marks}) ORDER BY player_id{lock}", pool=e.pool, **params)}
    before = [(float(held[p][1]), float(held[p][2])) for p in players]
    after = ratings.update(before, e.places)
    for s, pid in enumerate(players):
        mu, sigma = after[s]
        tx.run("UPDATE ratings SET mu = :mu, sigma = :sigma, games = games + 1, "
               "wins = wins + :won, updated = :now WHERE player_id = :p AND pool = :pool",
               mu=mu, sigma=sigma, won=int(e.places[s] == 1), now=now, p=pid, pool=e.pool)
        tx.run("INSERT INTO rating_changes (table_id, seat, player_id, pool, finished, place, "
               "total, gone, mu_before, sigma_before, mu, sigma) VALUES (:t, :seat, :p, "
               ":pool, :now, :place, :total, :gone, :mub, :sb, :mu, :sigma)",
               t=e.table_id, seat=s, p=pid, pool=e.pool, now=now, place=e.places[s],
               total=int(e.totals[s]), gone=bool(e.gone[s]) if e.gone else False,
               mub=before[s][0], sb=before[s][1], mu=mu, sigma=sigma)
    tx.run("INSERT INTO rated_games (table_id, pool, finished, players) "
           "VALUES (:t, :pool, :now, :n)", t=e.table_id, pool=e.pool, now=now, n=len(players))
    return True


def writer(e: Ending) -> Any:
    """The ``db.ALSO`` work of a game's last event: rate it in the same transaction.
    A database error fails the whole write (tried again, as any write); any other
    failure is logged and leaves the game unrated rather than unfinished (every
    number is computed before anything is written but the newcomers' rows, which
    hold no game)."""
    def also(tx: Tx) -> None:
        import sqlite3

        from sqlalchemy.exc import DBAPIError
        try:
            record_in(tx, e)
        except (DBAPIError, sqlite3.Error):
            raise
        except Exception:
            log.exception("table %s: the rating update failed; the game stays unrated",
                          e.table_id)
    return also


# --- a player's data ------------------------------------------------------------------


def export(store: Store, player_id: str) -> dict[str, Any]:
    """A player's ratings and rated games, for "export my data" (JSON-ready)."""
    with store.engine.connect() as c:
        held = c.execute(text("SELECT pool, mu, sigma, games, wins FROM ratings WHERE "
                              "player_id = :p ORDER BY pool"), {"p": player_id}).all()
        games = c.execute(text(
            "SELECT rc.table_id, rc.pool, rc.finished, rc.place, rc.total, rc.gone, "
            "rc.mu_before, rc.sigma_before, rc.mu, rc.sigma FROM rating_changes rc JOIN "
            "rated_games g ON g.table_id = rc.table_id WHERE rc.player_id = :p "
            "ORDER BY g.n"), {"p": player_id}).all()
    return {"ratings": [{"pool": r.pool, "rating": ratings.shown(r.mu), "mu": r.mu,
                         "sigma": r.sigma, "games": r.games, "wins": r.wins} for r in held],
            "rated_games": [{"table": g.table_id, "pool": g.pool, "finished": g.finished,
                             "place": g.place, "total": g.total, "left": bool(g.gone),
                             "before": [g.mu_before, g.sigma_before],
                             "after": [g.mu, g.sigma]} for g in games]}


# --- rebuilding -----------------------------------------------------------------------


@dataclass
class Rebuilt:
    """What a rebuild found: games replayed, ratings, and every number that differed."""

    games: int = 0
    ratings: int = 0
    differences: list[str] = field(default_factory=list)
    records: int = 0
    """Rated games whose table (and so its game record) is still kept: their places
    were checked against the record's final totals."""


def rebuild(store: Store, write: bool = False) -> Rebuilt:
    """Recompute every rating from the stored results, in the order they were written,
    from newcomers' ratings; compare with the stored numbers (each change's before and
    after, each rating's mu, sigma, games and wins). With ``write``, store the
    recomputed numbers where they differ. One transaction (consistent under a server
    writing at the same time)."""
    out = Rebuilt()
    with store.engine.begin() as c:
        if c.dialect.name == "postgresql":
            c.execute(text("LOCK TABLE ratings IN EXCLUSIVE MODE"))
        games = c.execute(text("SELECT table_id, pool FROM rated_games ORDER BY n")).all()
        changes: dict[str, list[Any]] = {}
        for r in c.execute(text(
                "SELECT table_id, seat, player_id, place, total, gone, mu_before, "
                "sigma_before, mu, sigma FROM rating_changes ORDER BY table_id, seat")):
            changes.setdefault(r.table_id, []).append(r)
        now: dict[tuple[str, str], list[Any]] = {}  # (player, pool) -> [mu, sigma, games, wins]
        for g in games:
            seats = changes.get(g.table_id, [])
            keys = [(s.player_id, g.pool) for s in seats]
            for k in keys:
                now.setdefault(k, [ratings.MU, ratings.SIGMA, 0, 0])
            before = [(now[k][0], now[k][1]) for k in keys]
            after = ratings.update(before, [s.place for s in seats])
            for s, k, b, a in zip(seats, keys, before, after, strict=True):
                held = (s.mu_before, s.sigma_before, s.mu, s.sigma)
                if held != (*b, *a):
                    out.differences.append(f"table {g.table_id} seat {s.seat}: stored "
                                           f"{held}, recomputed {(*b, *a)}")
                    if write:
                        c.execute(text("UPDATE rating_changes SET mu_before = :a, "
                                       "sigma_before = :b, mu = :c, sigma = :d WHERE "
                                       "table_id = :t AND seat = :s"),
                                  {"a": b[0], "b": b[1], "c": a[0], "d": a[1],
                                   "t": g.table_id, "s": s.seat})
                now[k][0], now[k][1] = a
                now[k][2] += 1
                now[k][3] += int(s.place == 1)
            out.games += 1
        stored = {(r.player_id, r.pool): r for r in c.execute(text(
            "SELECT player_id, pool, mu, sigma, games, wins FROM ratings"))}
        for k in sorted(set(stored) | set(now)):
            want = now.get(k)
            r = stored.get(k)
            have = (r.mu, r.sigma, r.games, r.wins) if r is not None else None
            if want is not None and have == tuple(want):
                continue
            if want is None and have is not None and have[2] == 0:
                continue  # a rating row made for a game that was not written
            out.differences.append(f"player {k[0]} in {k[1]}: stored {have}, "
                                   f"recomputed {tuple(want) if want else None}")
            if write:
                c.execute(text("DELETE FROM ratings WHERE player_id = :p AND pool = :pool"),
                          {"p": k[0], "pool": k[1]})
                if want is not None:
                    c.execute(text("INSERT INTO ratings (player_id, pool, mu, sigma, games, "
                                   "wins, updated) VALUES (:p, :pool, :mu, :s, :g, :w, :u)"),
                              {"p": k[0], "pool": k[1], "mu": want[0], "s": want[1],
                               "g": want[2], "w": want[3], "u": time.time()})
        out.ratings = len(now)
        _check_records(c, [g.table_id for g in games], changes, out)
    return out


def _check_records(c: Any, ids: list[str], changes: dict[str, list[Any]], out: Rebuilt
                   ) -> None:
    """Each stored result against its game's record while the table is kept: the
    totals are the record's, and the places follow from them (``ratings.places``)."""
    from sqlalchemy import select

    from parlour.games import get_game
    from parlour.server.db import TABLES

    for k in range(0, len(ids), 500):
        q = select(TABLES.c.id, TABLES.c.game, TABLES.c.config, TABLES.c.record).where(
            TABLES.c.id.in_(ids[k:k + 500]), TABLES.c.status == "over")
        for t in c.execute(q):
            if not t.record:
                continue  # no record kept: nothing to check against
            rec = t.record
            seats = changes.get(t.id, [])
            totals, winners = rec.get("totals"), rec.get("winners")
            if not isinstance(totals, list) or len(totals) != len(seats):
                out.differences.append(f"table {t.id}: its record has no final totals "
                                       f"for {len(seats)} seats")
                continue
            lower = get_game(t.game).lower_wins((t.config or {}).get("rules") or {})
            placed = ratings.places(lower, totals, winners or [], [bool(s.gone) for s in seats])
            stored = ([s.total for s in seats], [s.place for s in seats])
            if stored != (totals, placed):
                out.differences.append(f"table {t.id}: stored totals and places {stored}, "
                                       f"its record gives {(totals, placed)}")
            out.records += 1
