"""Replays and reviews of finished games, for the replay page (``/replay``).

A replay is built from a ``parlour-record/1`` (a finished table's, or a file a person
uploads) by the engine itself: every round is dealt again from its recorded deck and
every move applied, and each step carries every hand (the game is over: its decks are
revealed, so nothing here is hidden any more; FT-10 and FA-7 hold while a game is in
play), the public view, the event and, at a round's end, the itemised score
(``Round.score_detail()``).

A review goes through one seat's moves in one round and asks the hints API
(:func:`parlour.bots.hints.hints`) for the value of every legal move from that seat's
own view (never the hidden cards), so each move gets its value, the best alternative
and whether the value dropped, as chess sites mark inaccuracies.
"""

from __future__ import annotations

from typing import Any

from parlour import cards, record
from parlour.game import Round
from parlour.match import Match

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


def _step(r: Round, event: dict[str, Any] | None) -> dict[str, Any]:
    view = r.view(0).to_json()
    view["hand"], view["legal"], view["seat"] = [], [], None
    return {"event": event, "view": view,
            "hands": [cards.codes(r.hand(s)) for s in range(r.players)],
            "current": r.current_player}


def frames(match: Match) -> dict[str, Any]:
    """Every round of ``match``, step by step, with every hand shown."""
    game = match.game
    out = []
    for k, played in enumerate(match.rounds):
        r = game.new_round(match.rules, match.players, played.dealer, played.deck)
        steps = [_step(r, {"kind": "deal", "round": k + 1, "dealer": played.dealer})]
        for seat, move in played.history:
            r.apply(move)
            steps.append(_step(r, {"kind": "move", "round": k + 1, "seat": seat,
                                   "move": game.move_to_json(move)}))
        out.append({"round": k + 1, "dealer": played.dealer, "steps": steps,
                    "score": r.score(), "detail": r.score_detail() if r.is_over else None})
    return {"game": game.name, "title": game.title, "rules": match.rules,
            "seats": list(match.seats), "rounds": out,
            "totals": match.totals, "winners": match.winners if match.is_over else None,
            "scores": match.scores(), "bots": (match.meta or {}).get("bots", {})}


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
