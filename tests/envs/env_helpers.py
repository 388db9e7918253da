"""Shared helpers for the research-interface tests."""

from __future__ import annotations

import random
import warnings
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from parlour.game import Round
from parlour.games import get_game
from parlour.match import Match, Shuffler

# PettingZoo's api_test warns about every dict observation (and dict observation space)
# of an environment not on its own list of classic games, though a dict with
# "observation" and "action_mask" is the classic convention.
EXPECTED_WARNINGS = (
    "Observation is not a NumPy array",
    "Observation space for each agent probably should be gymnasium.spaces.box",
)


@contextmanager
def no_unexpected_warnings() -> Iterator[None]:
    """Fail on any warning the checks raise, except the expected ones."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        yield
    bad = [str(w.message) for w in caught
           if not any(e in str(w.message) for e in EXPECTED_WARNINGS)]
    assert not bad, bad


def played_round(game: str, players: int, seed: int, depth: int,
                 rules: dict[str, Any] | None = None) -> Round:
    """A round after ``depth`` seeded random moves (fewer if it ends first)."""
    m = Match.new(get_game(game), players, rules, shuffler=Shuffler(seed))
    rnd = m.rounds[-1]
    rng = random.Random(seed)
    for _ in range(depth):
        if rnd.is_over:
            break
        rnd.apply(rng.choice(rnd.legal_moves()))
    return rnd


class Replay:
    """An engine agent that plays one seat's recorded moves, in order."""

    def __init__(self, moves: list[int]) -> None:
        self.moves = list(moves)

    def choose(self, view: Any) -> int:
        return self.moves.pop(0)


def engine_replay(match: Match, seed: int) -> Match:
    """The engine's own match for ``Shuffler(seed)`` and the moves of ``match``:
    ``Match.new`` then ``play_out`` with agents that replay those moves."""
    per_seat: list[list[int]] = [[] for _ in range(match.players)]
    for rnd in match.rounds:
        for s, m in rnd.history:
            per_seat[s].append(m)
    sh = Shuffler(seed)
    mine = Match.new(match.game, match.players, match.rules, shuffler=sh)
    return mine.play_out([Replay(ms) for ms in per_seat], sh)


def random_actions(seed: int) -> Callable[[list[int]], int]:
    rng = random.Random(seed)
    return lambda legal: rng.choice(legal)
