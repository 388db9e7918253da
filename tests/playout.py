"""Seeded random games for tests (importable as ``playout`` from any test folder)."""

from __future__ import annotations

from parlour import get_game
from parlour.match import Match, Shuffler


def random_playout(game_name: str, players: int, seed: int, rules: dict | None = None) -> Match:
    """A whole game with uniformly random legal moves, seeded."""
    from parlour.bots import make_bot

    game = get_game(game_name)
    m = Match.new(game, players, rules, shuffler=Shuffler(seed))
    bots = [make_bot("random", game_name, seed * 10 + i) for i in range(players)]
    return m.play_out(bots, Shuffler(seed + 1))
