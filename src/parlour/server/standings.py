"""What people read about ratings: the leaderboard, a player's profile, their own ratings.

Reads only: the rating rows (:mod:`parlour.server.rated`), who sat where
(``seat_owners``) and the players' names (``players``). Nothing here touches a game in
play: a profile lists finished tables only (``status = 'over'``), so no card of a round
still being played can appear (the hidden-card oracle checks these answers too).
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import bindparam, select, text

from parlour.games import KITS, get_game
from parlour.server import names, ratings
from parlour.server.db import TABLES, Store
from parlour.server.errors import ServiceError
from parlour.server.settings import Settings

FORMER = "Former player"
"""The name shown for a player whose account is gone (as ``people.FORMER``)."""
SHOWN_NAME = ("COALESCE(NULLIF(p.name, ''), (SELECT so.name FROM seat_owners so WHERE "
              "so.player_id = p.id ORDER BY so.at DESC LIMIT 1), '')")
"""A player's name as shown: their own, or (a guest who chose none) the name of the
seat they took last."""


def _number(mu: float, sigma: float, games: int, wins: int, settings: Settings
            ) -> dict[str, Any]:
    return {"rating": ratings.shown(mu), "games": games, "wins": wins,
            "provisional": ratings.provisional(sigma, settings.rating_provisional_sigma)}


def _ordinal(n: int) -> str:
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


def result_words(place: int, players: int, shared: bool, gone: bool) -> str:
    """A game's result in plain words: ``won``, ``lost``, ``2nd of 4``..."""
    if gone:
        return "left the game (counted as a loss)"
    if place == 1:
        return "shared the win" if shared else "won"
    if players == 2:
        return "lost"
    return f"{'shared ' if shared else ''}{_ordinal(place)} of {players}"


def check_game(game: str) -> None:
    if game not in KITS:
        raise ServiceError(404, "not_found", f"there is no game {game[:40]!r}")


def leaderboard(store: Store, game: str, pool: str | None, settings: Settings
                ) -> dict[str, Any]:
    """The best players of a pool with at least ``leaderboard_min_games`` rated games."""
    check_game(game)
    offered = ratings.pools(game)
    pool = pool or offered[0]
    if pool not in offered:
        raise ServiceError(400, "bad_request", f"{get_game(game).title} is rated in: "
                           + ", ".join(ratings.label(p) for p in offered))
    q = text(f"SELECT {SHOWN_NAME} AS name, r.mu, r.sigma, r.games, r.wins FROM ratings r "
             "JOIN players p ON p.id = r.player_id WHERE r.pool = :pool AND "
             "r.games >= :least AND p.banned IS NULL ORDER BY r.mu DESC, r.games DESC, "
             "p.name LIMIT :rows")
    with store.engine.connect() as c:
        found = c.execute(q, {"pool": pool, "least": settings.leaderboard_min_games,
                              "rows": settings.leaderboard_rows}).all()
    rows = [{"place": i + 1, "name": r.name, **_number(r.mu, r.sigma, r.games, r.wins, settings)}
            for i, r in enumerate(found)]
    return {"game": game, "title": get_game(game).title, "pool": pool,
            "label": ratings.label(pool),
            "pools": [{"pool": p, "label": ratings.label(p)} for p in offered],
            "min_games": settings.leaderboard_min_games, "rows": rows}


def player_ratings(store: Store, player_id: str, settings: Settings) -> dict[str, Any]:
    """``{GAME: {"rating", "games", "wins", "provisional", "pool", "label", "pools"}}``:
    per game the pool played most (then the smaller tables), and every pool under
    ``pools``. Games never played rated are left out."""
    with store.engine.connect() as c:
        held = c.execute(text("SELECT pool, mu, sigma, games, wins FROM ratings WHERE "
                              "player_id = :p AND games > 0"), {"p": player_id}).all()
    by_game: dict[str, dict[str, Any]] = {}
    for r in held:
        by_game.setdefault(ratings.game_of(r.pool), {})[r.pool] = {
            **_number(r.mu, r.sigma, r.games, r.wins, settings), "label": ratings.label(r.pool),
            "title": get_game(ratings.game_of(r.pool)).title}
    out: dict[str, Any] = {}
    for game, held_pools in by_game.items():
        order = {p: i for i, p in enumerate(ratings.pools(game))}
        main = min(held_pools, key=lambda p: (-held_pools[p]["games"], order.get(p, 99)))
        out[game] = {**held_pools[main], "pool": main,
                     "pools": dict(sorted(held_pools.items(), key=lambda kv: order.get(kv[0], 99)))}
    return out


def find_player(store: Store, name: str) -> Any:
    """The player a profile address names: the account of that name (case and
    look-alike letters folded), else the guest of that exact name seen last."""
    if len(name) > names.MAX_LENGTH * 4:
        return None
    with store.engine.connect() as c:
        cols = f"SELECT p.id, {SHOWN_NAME} AS name, p.guest FROM players p"
        row = c.execute(text(f"{cols} WHERE p.name_key = :k OR p.name_key = :c LIMIT 1"),
                        {"k": names.key(name), "c": name.casefold()}).first()
        if row is None:
            row = c.execute(text(f"{cols} WHERE p.name = :n AND p.guest = :g "
                                 "ORDER BY p.seen DESC LIMIT 1"), {"n": name, "g": True}).first()
        if row is None:  # a guest known by the name of their seats
            row = c.execute(text(f"{cols} JOIN seat_owners s ON s.player_id = p.id WHERE "
                                 "s.name = :n AND p.guest = :g ORDER BY s.at DESC LIMIT 1"),
                            {"n": name, "g": True}).first()
    return row


def profile(store: Store, name: str, settings: Settings) -> dict[str, Any]:
    """A player's page: ratings, their history, recent games, and results against each
    opponent in rated games."""
    who = find_player(store, name)
    if who is None:
        raise ServiceError(404, "not_found", "there is no player of that name")
    pid = who.id
    with store.engine.connect() as c:
        mine = c.execute(text(
            "SELECT rc.table_id, rc.pool, rc.place, rc.gone, rc.mu_before, rc.mu, rc.sigma, "
            "rc.finished, g.players, g.n FROM rating_changes rc JOIN rated_games g ON "
            "g.table_id = rc.table_id WHERE rc.player_id = :p ORDER BY g.n DESC LIMIT :k"),
            {"p": pid, "k": settings.profile_history}).all()
        ids = [r.table_id for r in mine]
        others = c.execute(text(
            f"SELECT rc.table_id, rc.place, rc.player_id, {SHOWN_NAME} AS name "
            "FROM rating_changes rc "
            "LEFT JOIN players p ON p.id = rc.player_id WHERE rc.table_id IN :ids "
            "AND rc.player_id != :p").bindparams(bindparam("ids", expanding=True)),
            {"ids": ids or [""], "p": pid}).all()
        sat = c.execute(text(
            "SELECT so.table_id, so.seat FROM seat_owners so JOIN tables t ON "
            "t.id = so.table_id WHERE so.player_id = :p AND t.status = 'over' "
            "ORDER BY t.updated DESC LIMIT :k"), {"p": pid, "k": settings.profile_games}).all()
        played = c.execute(text(
            "SELECT COUNT(*) FROM seat_owners so JOIN tables t ON t.id = so.table_id "
            "WHERE so.player_id = :p AND t.status = 'over'"), {"p": pid}).scalar() or 0
        tables = {r.id: r for r in c.execute(
            select(TABLES.c.id, TABLES.c.game, TABLES.c.config, TABLES.c.record,
                   TABLES.c.updated, TABLES.c.status).where(TABLES.c.id.in_([r.table_id for r in sat] + ids[:settings.profile_games]
                                   or [""])))}
    at_table: dict[str, list[Any]] = {}
    for o in others:
        at_table.setdefault(o.table_id, []).append(o)
    games: dict[str, dict[str, Any]] = {}
    for r in mine[:settings.profile_games]:
        t = tables.get(r.table_id)
        shared = any(o.place == r.place for o in at_table.get(r.table_id, []))
        games[r.table_id] = {
            "table": r.table_id, "game": ratings.game_of(r.pool),
            "title": get_game(ratings.game_of(r.pool)).title, "finished": r.finished,
            "result": result_words(r.place, r.players, shared, bool(r.gone)),
            "shared": shared, "gone": bool(r.gone),
            "place": r.place, "players": r.players, "rated": True,
            "rating": ratings.shown(r.mu),
            "change": ratings.shown(r.mu) - ratings.shown(r.mu_before),
            "opponents": [o.name or FORMER for o in at_table.get(r.table_id, [])],
            "replay": f"/replay/{r.table_id}" if t is not None and t.status == "over" else None}
    for s in sat:
        t = tables.get(s.table_id)
        if s.table_id in games or t is None or not t.record:
            continue
        games[s.table_id] = _unrated(t, s.seat)
    recent = sorted(games.values(), key=lambda g: -g["finished"])[:settings.profile_games]
    history: dict[str, list[dict[str, Any]]] = {}
    for r in reversed(mine):
        history.setdefault(r.pool, []).append(
            {"table": r.table_id, "finished": r.finished, "rating": ratings.shown(r.mu)})
    rated = player_ratings(store, pid, settings)
    return {"name": who.name, "guest": bool(who.guest), "ratings": rated,
            "history": history, "played": int(played),
            "rated_games": sum(p["games"] for g in rated.values() for p in g["pools"].values()),
            "rated_wins": sum(p["wins"] for g in rated.values() for p in g["pools"].values()),
            "games": recent, "opponents": _opponents(mine, at_table, settings),
            "explain": explain(settings), "base": ratings.BASE}


def _unrated(t: Any, seat: int) -> dict[str, Any]:
    """A finished unrated game from its record's totals and winners."""
    rec = t.record or {}
    totals = rec.get("totals") or []
    winners = rec.get("winners") or []
    n = len(totals)
    game = get_game(t.game)
    gone = [False] * n
    cfg = t.config or {}
    placed = ratings.places(game.lower_wins(cfg.get("rules") or {}), totals, winners, gone) \
        if n else [1]
    seats = cfg.get("seats") or []
    me = placed[seat] if seat < len(placed) else 1
    return {"table": t.id, "game": t.game, "title": game.title, "finished": t.updated,
            "result": result_words(me, n, placed.count(me) > 1, False), "place": me,
            "shared": placed.count(me) > 1, "gone": False,
            "players": n, "rated": False, "rating": None, "change": None,
            "opponents": [s.get("name") for i, s in enumerate(seats) if i != seat],
            "replay": f"/replay/{t.id}"}


def _opponents(mine: list[Any], at_table: dict[str, list[Any]], settings: Settings
               ) -> list[dict[str, Any]]:
    """Per opponent in rated games: games together, and how often each placed ahead."""
    tally: dict[str, dict[str, Any]] = {}
    for r in mine:
        for o in at_table.get(r.table_id, []):
            t = tally.setdefault(o.player_id, {"name": o.name or FORMER, "games": 0,
                                               "won": 0, "lost": 0, "level": 0})
            t["games"] += 1
            t["won" if r.place < o.place else "lost" if r.place > o.place else "level"] += 1
    return sorted(tally.values(), key=lambda t: (-t["games"], t["name"]))[
        :settings.profile_opponents]


def explain(settings: Settings) -> str:
    """How a rating is made, in the words the pages show."""
    return (f"Each rated game moves your rating by how you placed against the others' "
            f"ratings (the OpenSkill method): beating a stronger player gains more. A "
            f"newcomer starts at {ratings.BASE}. A rating stays provisional (marked ?) "
            f"until the games played make it certain enough; leaving a rated game "
            f"counts as a loss. Computer players never change a rating.")
