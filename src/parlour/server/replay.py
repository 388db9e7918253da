"""Replays and reviews of finished games, for the replay page (``/replay``).

A replay is built from a ``parlour-record/1`` (a finished table's, or a file a person
uploads) by the engine itself: every round is dealt again from its recorded deck and
every move applied, and each step carries every hand (the game is over: its decks are
revealed, so nothing here is hidden any more; FT-10 and FA-7 hold while a game is in
play), the public view, the event and, at a round's end, the itemised score
(``Round.score_detail()``). Steps after a deal are deltas of the one before, so a
replay grows with the record's moves, under a size cap (``replay_max_bytes``); it is
built and encoded in a worker process (:mod:`parlour.server.work`), never on the
server's event loop.

A review goes through one seat's moves in one round and asks the hints API
(:func:`parlour.bots.hints.hints`) for the value of every legal move from that seat's
own view (never the hidden cards), so each move gets its value, the best alternative
and whether the value dropped, as chess sites mark inaccuracies.
"""

from __future__ import annotations

from typing import Any

import orjson

from parlour import cards, delta, record
from parlour.game import Round
from parlour.match import Match
from parlour.present import presenter

DROP = 0.05
"""A move whose value is this much (win probability) under the best move's is marked."""


class ReplayError(ValueError):
    """A record that cannot be replayed, in words for people."""


def load(data: Any) -> Match:
    """The checked match of a record (a finished or unfinished game)."""
    try:
        return record.load(data)
    except record.RecordError as e:
        raise ReplayError(f"this is not a valid game record: {e}") from None
    except (TypeError, ValueError, KeyError) as e:
        raise ReplayError(f"this is not a game record: {e}") from None


class TooLarge(ReplayError):
    """A replay whose answer would pass the size cap."""


def parse(body: bytes | Any) -> Any:
    """A request body (bytes) as JSON, or ``body`` itself when already parsed."""
    if not isinstance(body, bytes | bytearray):
        return body
    try:
        return orjson.loads(body)
    except orjson.JSONDecodeError as e:
        if "depth" in str(e):  # orjson's own limit, in the words record.parse_json uses
            raise ReplayError("this is not a game record: it is nested too deeply (arrays "
                              "or objects inside each other thousands of times)") from None
        raise ReplayError("this is not a game record: the file is not JSON") from None


def _public(r: Round) -> dict[str, Any]:
    """The public view of a round in play, without its list of moves so far.

    A replay's steps carry each move as their event, so a view that repeated the
    round's moves would make the replay grow with the square of its length (a round of
    thousands of passes under ``strict: false``). While the round is in play a view is
    built from the round's state, which its history only lists; so the view is taken
    with the history set aside, in time independent of the moves before it. Once the
    round is over the whole view is taken (its score may read the history)."""
    if r.is_over:
        view = r.view(0).to_json()
    else:
        moves, r.history = r.history, []
        try:
            view = r.view(0).to_json()
        finally:
            r.history = moves
    view["hand"], view["legal"], view["seat"] = [], [], None
    return view


def _state(r: Round) -> dict[str, Any]:
    return {"view": _public(r), "hands": [cards.codes(r.hand(s)) for s in range(r.players)],
            "current": r.current_player}


class _Out:
    """Encoded pieces of the answer, counted against the size cap as they are made."""

    def __init__(self, limit: int, moves: int) -> None:
        self.limit = limit
        self.moves = moves
        self.size = 0

    def add(self, value: Any) -> bytes:
        data = orjson.dumps(value)
        self.size += len(data) + 1
        if self.limit and self.size > self.limit:
            raise TooLarge(f"the replay of this record would be larger than the server's "
                           f"limit of {self.limit:,} bytes (it holds {self.moves:,} moves)")
        return data


def _join(head: bytes, key: bytes, items: list[bytes]) -> bytes:
    """``head`` (an encoded object) with ``key`` set to the list of encoded ``items``."""
    inner = b",".join(items)
    return head[:-1] + (b"," if len(head) > 2 else b"") + b'"' + key + b'":[' + inner + b"]}"


def frames(match: Match, max_bytes: int = 0) -> bytes:
    """Every round of ``match``, step by step, with every hand shown, as JSON bytes.

    Each round starts with the deal, whose step holds the whole ``state`` (the public
    view, every hand, the seat to move); every later step holds its move as ``event``
    and the change of that state as a ``delta`` (:mod:`parlour.delta`), so the answer
    grows with the number of moves, not with its square. Over ``max_bytes`` (0: no
    cap), :class:`TooLarge` is raised as soon as the answer passes it."""
    game = match.game
    out = _Out(max_bytes, sum(len(p.history) for p in match.rounds))
    rounds = []
    for k, played in enumerate(match.rounds):
        r = game.new_round(match.rules, match.players, played.dealer, played.deck)
        state = _state(r)
        steps = [out.add({"event": {"kind": "deal", "round": k + 1, "dealer": played.dealer},
                          "state": state})]
        for seat, move in played.history:
            r.apply(move)
            new = _state(r)
            steps.append(out.add({"event": {"kind": "move", "round": k + 1, "seat": seat,
                                            "move": game.move_to_json(move)},
                                  "delta": delta.diff(state, new)}))
            state = new
        head = out.add({"round": k + 1, "dealer": played.dealer, "score": r.score(),
                        "detail": presenter(game).worded(r.score_detail())
                        if r.is_over else None})
        rounds.append(_join(head, b"steps", steps))
    head = out.add({"game": game.name, "title": game.title, "rules": match.rules,
                    "seats": list(match.seats), "totals": match.totals,
                    "winners": match.winners if match.is_over else None,
                    "scores": match.scores(), "bots": (match.meta or {}).get("bots", {})})
    return _join(head, b"rounds", rounds)


def states(answer: dict[str, Any]) -> list[list[dict[str, Any]]]:
    """Every step's whole state of a decoded replay, round by round (the deltas
    applied): what the replay page shows, for tests and tools."""
    out = []
    for rd in answer["rounds"]:
        state = delta.copy(rd["steps"][0]["state"])
        seen = [delta.copy(state)]
        for step in rd["steps"][1:]:
            delta.apply(state, step["delta"])
            seen.append(delta.copy(state))
        out.append(seen)
    return out


def review(match: Match, round_number: int, seat: int, level: str = "medium",
           max_moves: int = 60) -> list[dict[str, Any]]:
    """Each move of ``seat`` in round ``round_number`` (from 1) with the engine's value
    of it, the best move and its value, and ``dropped`` where the value fell by
    :data:`DROP` or more. Forced moves (one legal move) are listed without a search."""
    from parlour.bots.hints import hints

    if not 1 <= round_number <= len(match.rounds):
        raise ReplayError(f"there is no round {round_number} in this game")
    if not 0 <= seat < match.players:
        raise ReplayError(f"there is no seat {seat + 1} in this game")
    game = match.game
    played = match.rounds[round_number - 1]
    r = game.new_round(match.rules, match.players, played.dealer, played.deck)
    earlier = match.earlier_views(seat, before=round_number - 1)
    out: list[dict[str, Any]] = []
    for index, (who, move) in enumerate(played.history):
        if who == seat and len(out) < max_moves:
            view = r.view(seat)
            legal = list(view.legal)
            entry: dict[str, Any] = {"step": index + 1, "move": game.move_to_json(move),
                                     "choices": len(legal)}
            if len(legal) > 1:
                ranked = hints(game.name, view, level, seed=index, earlier=earlier)
                values = {m: float(v) for m, v in ranked}
                best, best_value = ranked[0]
                mine = values.get(move, 0.0)
                entry.update(value=round(mine, 3), best=game.move_to_json(best),
                             best_value=round(float(best_value), 3),
                             dropped=best_value - mine >= DROP)
            else:
                entry.update(value=None, best=None, best_value=None, dropped=False)
            out.append(entry)
        r.apply(move)
    return out
