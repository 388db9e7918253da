"""Turn kernel output into ``parlour-record/1`` records (RECORD.md).

:func:`chunk_record` writes the record dict directly from the arrays -- the same dict
:func:`parlour.record.dump` writes for the match the step engine plays with the same
stream -- and :func:`to_match` reads it back through :func:`parlour.record.load`, which
replays every move through ``Round.apply`` and checks every score, total and winner.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from parlour import cards, record
from parlour.batch import engine
from parlour.batch.engine import Chunk
from parlour.batch.outcome import winners_mask
from parlour.game import Game, play
from parlour.games import get_game
from parlour.match import Match


def seat_names(players: int) -> list[str]:
    """The seat names :class:`parlour.match.Match` gives by default."""
    return [f"Player {i + 1}" for i in range(players)]


def _moves_json(g: Game, ch: Chunk, b: int, r: int) -> list[dict[str, Any]]:
    """The round's moves as the record writes them: card (or pass) and take, through
    the game's own ``move_to_json``."""
    assert ch.rec_seat is not None and ch.rec_move is not None
    n = int(ch.nmoves[b, r])
    seats = ch.rec_seat[b, r, :n].tolist()
    played = ch.rec_move[b, r, :n].tolist()
    takes = ch.rec_take[b, r, :n].tolist() if ch.rec_take is not None else [0] * n
    to_json = g.move_to_json
    return [{"seat": s, **to_json(play(c, t))} for s, c, t in zip(seats, played, takes,
                                                                   strict=True)]


def chunk_record(game: str, players: int, rules: dict[str, Any], ch: Chunk,
                 b: int) -> dict[str, Any]:
    """The record of game ``b`` of a chunk that ran with recording on."""
    if ch.rec_deck is None or ch.rec_move is None:
        raise ValueError("this chunk ran without recording")
    if int(ch.nmoves[b].max()) > ch.rec_move.shape[2]:
        raise ValueError("a round of this game is longer than the recording buffer")
    g = get_game(game)
    first = int(ch.first[b])
    rounds = []
    for r in range(ch.scores.shape[1]):
        rounds.append({
            "dealer": (first + r) % players,
            "deck": [cards.ALL_CODES[c] for c in ch.rec_deck[b, r].tolist()],
            "moves": _moves_json(g, ch, b, r),
            "score": ch.scores[b, r].tolist(),
        })
    totals = ch.scores[b].sum(axis=0, dtype=np.int64)
    winners = winners_mask(game, rules, totals[None, :], ch.won[b:b + 1])[0]
    return {
        "format": record.FORMAT,
        "game": g.name,
        "rules": g.options.recorded(rules),
        "seats": seat_names(players),
        "rounds": rounds,
        "totals": totals.tolist(),
        "winners": np.flatnonzero(winners).tolist(),
    }


def game_record(game: str, players: int, rules: dict[str, Any], seed: int,
                index: int, cap: int | None = None) -> dict[str, Any]:
    """The record of game ``index`` of the run seeded ``seed``, run alone in the kernel.

    A Fan Tan round longer than the buffer (possible with ``strict: false``) is run again
    with a buffer that fits it.
    """
    full = get_game(game).rules(players, rules)
    ch = engine.run(game, players, full, seed, index,
                    engine.alloc(game, 1, players, full["rounds"], True, cap))
    assert ch.rec_move is not None
    longest = int(ch.nmoves[0].max())
    if longest > ch.rec_move.shape[2]:
        return game_record(game, players, full, seed, index, cap=longest)
    return chunk_record(game, players, full, ch, 0)


def to_match(data: dict[str, Any]) -> Match:
    """The match of a record, every move replayed and checked by the step engine."""
    return record.load(data)
