"""The one view function: every message the server sends is built here, per audience.

``render(table, audience, kind, ...)`` is the only way a payload is made (snapshots,
updates, log entries, errors, hints): ``audience`` is a seat number or ``None`` for a
spectator, and each builder below takes only what that audience may see (FT-10,
FA-7): the seat's own hand from the engine's ``view(seat)``, public facts for
everyone else, and the decks of finished rounds (revealed with their salts).
"""

from __future__ import annotations

import time
from typing import Any, Protocol, TypeVar

from parlour import cards
from parlour.delta import diff
from parlour.game import PASS, Round
from parlour.present import presenter
from parlour.server.live import LiveTable

Audience = int | None


SNAPSHOTS = ("welcome", "snapshot")
"""Messages that carry a whole ``state``: the answer to ``hello`` and to ``sync``."""
DELTAS = ("update", "state", "presence", "chat")
"""Messages that carry a ``delta`` of the state the connection holds (parlour.delta)."""


def render(t: LiveTable, audience: Audience, kind: str, cache: dict[Any, Any] | None = None,
           **data: Any) -> dict[str, Any]:
    """The message of type ``kind`` for ``audience`` at table ``t``.

    ``cache`` (one dict per broadcast) lets the parts that every audience shares be
    built once; what differs per audience is always built for that audience. Messages
    that carry the state are built by :func:`state_message`.
    """
    if kind in SNAPSHOTS or kind in DELTAS:
        return state_message(t, audience, kind, cache=cache, **data)[0]
    if kind == "error":
        msg = {"type": "error", "code": data["code"], "message": data["message"],
               "seq": t.seq}
        if "retry_after" in data:  # seconds until the same request is answered again
            msg["retry_after"] = data["retry_after"]
        if "key" in data:  # an engine's refusal: its game catalog key and facts
            msg["key"], msg["params"] = data["key"], data["params"]
        return msg
    if kind == "hint":
        return {"type": "hint", "seq": t.seq, "moves": data["moves"]}
    if kind == "rematch":
        msg = {"type": "rematch", "table": data["table"], "url": f"/t/{data['table']}",
               "move": bool(data.get("move", True)) and audience is not None}
        if not msg["move"]:  # spectators and those who declined: a link to watch
            msg["url"] += f"#watch={data['watch']}"
        return msg
    if kind == "bye":
        return {"type": "bye", "why": data["why"], "reason": data["reason"],
                "reconnect": data.get("reconnect", True)}
    if kind == "pong":
        return {"type": "pong", "seq": t.seq}
    raise ValueError(f"no such message kind {kind!r}")


class Reader(Protocol):
    """A connection as the views read it (server/hub.py's ``Connection``): who reads,
    the state it holds (``base``, version ``v``) and whose chat it never gets."""

    seat: int | None
    role: str | None
    base: dict[str, Any] | None
    v: int
    hidden: frozenset[str]


R = TypeVar("R", bound=Reader)


def messages(t: LiveTable, kind: str, readers: list[R], cache: dict[Any, Any] | None = None,
             **data: Any) -> list[tuple[R, dict[str, Any], dict[str, Any] | None]]:
    """The message of type ``kind`` for each of ``readers`` (every connection of a
    table, for a broadcast), all rendered before any is sent. Connections of one
    audience that hold the same state share one message; a connection that has no
    state yet gets no delta (its welcome brings everything). Each comes with the state
    it brings its connection to (None for a message that carries no state)."""
    cache = {} if cache is None else cache
    out: list[tuple[R, dict[str, Any], dict[str, Any] | None]] = []
    for r in readers:
        audience: Audience = r.seat if r.role == "seat" else None
        if kind not in DELTAS and kind not in SNAPSHOTS:
            out.append((r, render(t, audience, kind, cache=cache, **data), None))
            continue
        base = r.base if kind in DELTAS else None
        if kind in DELTAS and base is None:
            continue  # before its welcome: the welcome brings everything
        shared = cache
        if r.hidden:  # lines of blocked players at this table: a state without them
            hide = r.hidden & writers(t, cache)
            if hide:
                shared = cache.setdefault(("hidden", hide), {"hidden": hide})
        key = ("msg", kind, audience, id(base), r.v)
        hit = shared.get(key)
        if hit is None:  # kept with its base: no other object takes that id meanwhile
            hit = shared[key] = (*state_message(t, audience, kind, base, r.v, shared, **data),
                                 base)
        out.append((r, hit[0], hit[1]))
    return out


def writers(t: LiveTable, cache: dict[Any, Any]) -> frozenset[str]:
    """The tags of the writers of the table's chat now (once per broadcast)."""
    key = ("writers", len(t.chat), t.chat[-1]["id"] if t.chat else 0)
    found = cache.get(key)
    if found is None:
        found = cache[key] = frozenset(ln["who"] for ln in t.chat if "who" in ln)
    return found


def state_message(t: LiveTable, audience: Audience, kind: str, base: dict[str, Any] | None = None,
                  v: int = 0, cache: dict[Any, Any] | None = None, **data: Any
                  ) -> tuple[dict[str, Any], dict[str, Any]]:
    """A message that brings ``audience`` to the table's state now, and that state.

    ``base`` is the state the connection holds (its version ``v``): a snapshot kind
    carries the whole state, a delta kind only what changed since ``base``
    (:func:`parlour.delta.diff` of this audience's own two states, so it holds nothing
    the audience may not see). The message's version is ``v + 1``.
    """
    cache = {} if cache is None else cache
    if base is not None and kind in PARTS:  # only what this kind of message changes
        state = {**base, **{k: part(t, audience, k, cache) for k in PARTS[kind]}}
    else:
        key = ("state", audience)
        state = cache.get(key)
        if state is None:
            state = cache[key] = snapshot(t, audience, cache)
    msg: dict[str, Any] = {"type": kind, "seq": t.seq, "v": v + 1}
    if kind in SNAPSHOTS or base is None:
        msg["state"] = state
    else:  # the public parts several audiences share are compared once
        msg["delta"] = diff(base, state, cache.setdefault("diffs", {}))
    if data.get("event") is not None:
        msg["event"] = log_entry(t, audience, data["event"])
    if kind == "chat":
        msg["line"] = data["line"]
    return msg, state


def public_view(seen: Any) -> dict[str, Any]:
    """A round as a spectator sees it: a seat's view (``Round.view``) without its hand."""
    v = seen.to_json()
    v["seat"] = None
    v["hand"] = []
    v["legal"] = []
    return v


def reasons(r: Round, seat: int) -> dict[str, str]:
    """Why each card in the seat's hand cannot be played now (the engine's words)."""
    if r.is_over or r.current_player != seat:
        return {}
    legal_cards = {m & 63 for m in r.legal_moves()}
    out = {}
    for c in cards.iter_cards(r.hand(seat)):
        if c not in legal_cards:
            out[cards.code(c)] = r.why_illegal(c) or "not playable now"
    return out


def reason_keys(r: Round, seat: int) -> dict[str, list[Any]]:
    """The same reasons as ``[key, params]`` (:mod:`parlour.refusals`), for the page to
    word in its reader's language; a card the engine gives no reason for is left out."""
    if r.is_over or r.current_player != seat:
        return {}
    legal_cards = {m & 63 for m in r.legal_moves()}
    return {cards.code(c): list(why) for c in cards.iter_cards(r.hand(seat))
            if c not in legal_cards and (why := r.refusal(c)) is not None}


def pass_info(t: LiveTable, r: Round, view: Any) -> dict[str, Any] | None:
    """Whether the seat of ``view`` may pass now, what it costs in the game's own words
    (its presenter's ``pass_offer``), and whether the server passes for it by itself
    (``auto``: only a pass fits and the rules make passes public)."""
    if r.is_over or r.current_player != view.seat:
        return None
    legal = r.legal_moves()
    if PASS not in legal:
        return None
    p = presenter(t.game)
    return {"withholding": len(legal) > 1, "auto": t.forced_pass(r),
            "text": p.pass_offer(view), "keys": p.pass_offer_keys(view)}


def log_entry(t: LiveTable, audience: Audience, e: dict[str, Any]) -> dict[str, Any]:
    """A log entry as ``audience`` may read it.

    Where a pass does not prove an empty hand of playable cards (the game's
    ``public_passes``), only the passer learns that the server passed because nothing
    fitted.
    """
    if (e.get("kind") == "move" and e.get("by") == "forced" and audience != e.get("seat")
            and t.private_passes):
        return {**e, "by": "person" if t.seats[e["seat"]].kind == "person" else "bot"}
    return e  # log entries never change once written: the same object in every state


LOG_SHOWN = 200
"""The last entries of the log a state holds."""


def visible_log(t: LiveTable, audience: Audience) -> list[dict[str, Any]]:
    """The log of the current (or last) round, plus the game's milestones.

    Moves (and leftovers, ``Round.leftovers``) of earlier rounds are left out: their
    cards are dealt again in later rounds.

    The log only grows (entries never change once written), so the list is kept per
    audience (``t.derived``) and only the entries written since are read; the same
    list object comes back while nothing was written (a sent state never changes, so
    sharing it is safe, and a comparison of two states skips it at once).
    """
    k = t.round_number
    log = t.log
    n = len(log)
    key = ("log", audience if t.private_passes else "all")
    held = t.derived.get(key)
    if held is not None and held[0] == k and held[1] is log and held[2] <= n \
            and (held[2] == 0 or log[held[2] - 1] is held[3]):
        _, _, done, _, full, shown = held
        if done == n:
            return shown
    else:
        done, full = 0, []
    extra = [log_entry(t, audience, e) for e in log[done:]
             if not (e.get("kind") in ("move", "leftovers") and e.get("round") != k)]
    if extra or held is None:
        full = full + extra  # a new list: the one already sent stays as it was
    shown = full[-LOG_SHOWN:] if len(full) > LOG_SHOWN else full
    t.derived[key] = (k, log, n, log[n - 1] if n else None, full, shown)
    return shown


def scoring(t: LiveTable) -> dict[str, bool]:
    """How the page writes scores, from the game: whether the lowest total wins, and
    whether a positive score is written with its sign (net winnings)."""
    return {"lower_wins": t.game.lower_wins(t.rules),
            "signed": presenter(t.game).signed_scores(t.rules)}


def seats_json(t: LiveTable) -> list[dict[str, Any]]:
    """Each seat's public facts; ``standin_left``: seconds until the computer plays for a
    disconnected player (the server's own grace clock, so every page counts the same)."""
    now = time.time()
    here = t.connected_seats()
    return [{"name": s.name, "kind": s.kind, "bot": s.bot, "claimed": s.claimed,
             "connected": s.kind == "bot" or i in here, "auto": s.auto,
             "open": s.open, "never_connected": s.kind == "person" and s.claimed
             and not s.connected_once,
             "standin_left": round(max(0.0, t.grace_until[i] - now), 1)
             if i in t.grace_until else None}
            for i, s in enumerate(t.seats)]


def finished(t: LiveTable) -> dict[str, Any] | None:
    """The itemised score of the round just finished (``Round.score_detail()``, with
    every hand or pile), sent only until the next deal: after it, the same cards are
    in play again (the page keeps the panel until the player closes it)."""
    m = t.match
    if m is None or not m.rounds or not m.rounds[-1].is_over:
        return None
    r = m.rounds[-1]
    return {"round": len(m.rounds), "detail": presenter(t.game).worded(r.score_detail())}


def revealed(t: LiveTable) -> list[dict[str, Any]]:
    """Finished rounds' deal commitments with the deck and salt that open them (built
    once per finished round: they never change)."""
    if t.match is None:
        return []
    done = sum(1 for r in t.match.rounds if r.is_over)
    key = (id(t.match), done)
    if t.derived.get("revealed", (None,))[0] != key:
        t.derived["revealed"] = (key, _revealed(t))
    return t.derived["revealed"][1]


def _revealed(t: LiveTable) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    assert t.match is not None
    for i, (r, c) in enumerate(zip(t.match.rounds, t.match.commits, strict=True)):
        if r.is_over and c is not None and c.salt is not None:
            out.append({"round": i + 1, "dealer": r.dealer, "commit": c.commit,
                        "salt": c.salt, "deck": [cards.code(x) for x in r.deck]})
    return out


def _copy(value: Any) -> Any:
    """A copy of a JSON value the table changes in place (a sent state must not change:
    the next delta is computed from it)."""
    if isinstance(value, dict):
        return {k: _copy(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_copy(v) for v in value]
    return value


def _shared(t: LiveTable) -> dict[str, Any]:
    """The parts of a snapshot that are the same for every audience (public facts)."""
    m = t.match
    return {
        "table": {
            "id": t.id, "game": t.game.name, "title": t.game.title, "status": t.status,
            "players": t.players, "rules": t.rules, "timer": t.timer,
            "days": t.days, "standin": t.config.get("standin"), "host": t.config.get("host"),
            "rematch": t.rematch, "seats": seats_json(t),
            "public": bool(t.config.get("public")),
            "scoring": scoring(t),
            "rated": bool(t.config.get("rated")),
        },
        "finished": finished(t),
        "rematch_offer": _copy(t.config.get("rematch_offer")),
        "round": t.round_number,
        "rounds": t.rules["rounds"],
        "view": None,
        "reasons": {},
        "reason_keys": {},
        "pass": None,
        "commit": None,
        "scores": m.scores() if m else [],
        "totals": m.totals if m else [0] * t.players,
        "winners": m.winners if m else None,
        "revealed": revealed(t),
        "deadline": None,
    }


def snapshot(t: LiveTable, audience: Audience, cache: dict[Any, Any] | None = None
             ) -> dict[str, Any]:
    """Everything ``audience`` may know about the table now."""
    m = t.match
    last = m.rounds[-1] if m is not None and m.rounds else None
    cur = m.current if m is not None else None
    cache = {} if cache is None else cache
    if "shared" not in cache:
        cache["shared"] = _shared(t)
    # With private passes the log reads differently per seat (forced passes).
    log_key = ("log", audience if t.private_passes else "all")
    if log_key not in cache:
        cache[log_key] = visible_log(t, audience)
    state: dict[str, Any] = {
        **cache["shared"],
        "you": audience,
        "role": "spectator" if audience is None else "seat",
        "log": cache[log_key],
        "chat": chat_lines(t, audience, cache.get("hidden")),
        "links": links(t, audience),
    }
    if last is not None:
        own = last.view(0 if audience is None else audience)
        state["view"] = public_view(own) if audience is None else own.to_json()
        pot = presenter(t.game).pot(own)  # a game played for chips has a pot
        if pot is not None:
            state["pot"] = pot
    if cur is not None:
        state["commit"] = m.commits[-1].commit if m.commits[-1] else None
        if audience is not None:
            state["reasons"] = reasons(cur, audience)
            state["reason_keys"] = reason_keys(cur, audience)
            state["pass"] = pass_info(t, cur, own if cur is last else cur.view(audience))
        state["deadline"] = deadline(t)
    return state


def deadline(t: LiveTable) -> dict[str, Any] | None:
    """The turn timer of a person's turn, if one runs (absent during a forced pass)."""
    cur = t.match.current if t.match is not None else None
    if cur is None:
        return None
    p = cur.current_player
    if t.timer and t.deadline and t.controller(p) == "person" and not t.forced_pass(cur):
        return {"seat": p, "at": t.deadline, "left": round(max(0.0, t.deadline - time.time()), 2)}
    return None


PARTS = {"presence": ("table", "deadline"), "chat": ("chat",)}
"""Messages that change only these keys of a state: only they are built and compared
(what a connect or a chat line changes; the clocks' seconds left come along)."""


def part(t: LiveTable, audience: Audience, key: str, cache: dict[Any, Any]) -> Any:
    """One top-level value of ``audience``'s state, as :func:`snapshot` builds it."""
    if key == "table":
        if "shared" not in cache:
            cache["shared"] = _shared(t)
        return cache["shared"]["table"]
    if key == "deadline":
        return deadline(t)
    if key == "chat":
        return chat_lines(t, audience, cache.get("hidden"))
    raise ValueError(f"no part {key!r}")


def links(t: LiveTable, audience: Audience) -> dict[str, str]:
    """The table's links an audience may pass on: spectators the watch link, seats the
    invite link too (built once per table: one object in every state)."""
    key = ("links", audience is None)
    found = t.derived.get(key)
    if found is None:
        found = {"watch": f"/t/{t.id}#watch={t.watch_key}"}
        if audience is not None:
            found["invite"] = f"/t/{t.id}#invite={t.invite_key}"
        t.derived[key] = found
    return found


def chat_lines(t: LiveTable, audience: Audience, hidden: frozenset[str] | None = None
               ) -> list[dict[str, Any]]:
    """Seats read the table's chat; spectators also their own channel (cardroom.py).
    The list is kept until a line is added (the same object in every state until then).
    ``hidden``: tags of writers the reader blocked (server/social.py), left out."""
    chat = t.chat
    if hidden:
        return [ln for ln in chat_lines(t, audience) if ln.get("who") not in hidden]
    version = (len(chat), chat[0]["id"], chat[-1]["id"]) if chat else (0, 0, 0)
    key = ("chat", audience is None)
    held = t.derived.get(key)
    if held is None or held[0] != version:
        held = t.derived[key] = (version, [ln for ln in chat if audience is None
                                           or ln["channel"] == "table"])
    return held[1]
