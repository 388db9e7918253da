"""Drive the step engine with the batch engine's choices (:mod:`parlour.batch.stream`).

:func:`stream_match` plays game ``g`` of a run seeded ``seed`` through
:class:`parlour.match.Match` and ``Round.apply`` -- the reference the batch kernels are
checked against, and a way to get one game of a batch run without the batch engine.
"""

from __future__ import annotations

from typing import Any

from parlour.batch import stream
from parlour.game import Move, Round
from parlour.games import get_game
from parlour.match import Match


class StreamAgent:
    """A bot-like agent for one round: ``choose(view)`` picks what the stream picks.

    All seats share one agent (the stream is per round, not per seat). It reads only
    ``view.legal`` and the number of moves so far, ``len(view.history)``.
    """

    def __init__(self, seed: int, game: int, rnd: int) -> None:
        self.key = stream.round_key(seed, game, rnd)

    def choose(self, view: Any) -> Move:
        return stream.pick(self.key, len(view.history), view.legal)


class StreamShuffler:
    """A :class:`parlour.match.Shuffler` dealing game ``game`` of the stream run ``seed``:
    its first dealer, then its decks round by round (what the vector environments deal)."""

    def __init__(self, seed: int, game: int) -> None:
        self.seed, self.game, self.rnd = int(seed), int(game), 0

    def seat(self, players: int) -> int:
        return stream.first_dealer(self.seed, self.game, players)

    def deck(self) -> list[int]:
        d = stream.deck(self.seed, self.game, self.rnd)
        self.rnd += 1
        return d


def random_policy_moves(r: Round, seed: int, game: int, rnd: int) -> list[Move]:
    """Play round ``r`` (fresh or part played) to its end with the stream's choices.

    Uses only ``legal_moves`` and ``apply`` (which re-checks every move); returns the
    moves it made.
    """
    key = stream.round_key(seed, game, rnd)
    made = []
    while not r.is_over:
        move = stream.pick(key, len(r.history), r.legal_moves())
        r.apply(move)
        made.append(move)
    return made


def stream_match(game_name: str, players: int, rules: dict[str, Any] | None,
                 seed: int, game: int) -> Match:
    """Game ``game`` of the run seeded ``seed``, played by the step engine."""
    g = get_game(game_name)
    full = g.rules(players, rules)
    m = Match(g, full, [f"Player {i + 1}" for i in range(players)],
              stream.first_dealer(seed, game, players))
    for rnd in range(full["rounds"]):
        r = m.deal(stream.deck(seed, game, rnd))
        random_policy_moves(r, seed, game, rnd)
    return m
