"""Helpers for the bot tests: rounds in progress, variants, small search bots."""

from __future__ import annotations

import random
from typing import Any

from option_variants import option_variants
from parlour.bots import make_bot
from parlour.bots.determinize import replay
from parlour.games import get_game
from parlour.games.fantan.determinize import FanTanDeterminizer
from parlour.games.fanti.determinize import FantiDeterminizer


def _variants(game: str, sizes: tuple[int, ...], limit: int) -> list[tuple[str, int, dict]]:
    """The game's variants from its declared options, each at one of ``sizes`` players."""
    return [(game, sizes[i % len(sizes)], rules)
            for i, rules in enumerate(option_variants(game, limit=limit))]


VARIANTS: list[tuple[str, int, dict[str, Any]]] = (_variants("fantan", (4, 3, 5, 8, 6), 6)
                                                   + _variants("fanti", (2, 3, 4), 4))


def round_at(game: str, players: int, rules: dict, seed: int, moves: int,
             bot: str = "random") -> Any:
    """A round dealt from ``seed`` after ``moves`` moves by seeded ``bot`` players
    (stopping early if it ends)."""
    g = get_game(game)
    full = g.rules(players, {"rounds": 1, **rules})
    rng = random.Random(seed)
    deck = list(range(52))
    rng.shuffle(deck)
    r = g.new_round(full, players, rng.randrange(players), deck)
    bots = [make_bot(bot, game, seed * 10 + s) for s in range(players)]
    for _ in range(moves):
        if r.is_over:
            break
        p = r.current_player
        r.apply(bots[p].choose(r.view(p)))
    return r


def twin(r, seed):
    """A round with the same view for the seat to move and different hidden cards."""
    me = r.current_player
    view = r.view(me)
    det = FanTanDeterminizer() if r.game.name == "fantan" else FantiDeterminizer()
    rng = random.Random(seed)
    for _ in range(50):
        other = det.deal(view, rng)
        replay(other, view.history, me, None)
        hidden_differs = any(other.hand(s) != r.hand(s) for s in range(r.players)
                             if s != me) or other.locations() != r.locations()
        if hidden_differs:
            assert other.view(me) == view
            return other
    raise AssertionError("could not build a different hidden deal")
