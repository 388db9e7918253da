"""Every registered bot of every registered game moves legally and cannot peek: its
decision is unchanged when the cards its seat cannot see are dealt differently.

Bots come from ``parlour.bots.bot_names(game)``. A search level that stops on a clock
(``hard``, ``expert``) is run with a fixed iteration budget (``NAME:8``) so the same
seed gives the same move; a name that takes no budget is run as it is. Bots play at the
game's usual table (``Game.default_players``): some (``learned``) play only there.
"""

from __future__ import annotations

import random

import pytest
from conformance_kit import random_round, twin

from parlour.bots import bot_names, make_bot
from parlour.game import Game
from parlour.games import KITS
from parlour.match import Match, Shuffler

BUDGET = 8


def reproducible(name: str, game: str) -> str:
    """``name`` with a small fixed budget when it takes one, else ``name``."""
    try:
        make_bot(f"{name}:{BUDGET}", game, 0)
    except ValueError:
        return name
    return f"{name}:{BUDGET}"


def table_size(game: Game) -> int:
    """The game's usual table (``default_players``), where every bot of it must play."""
    return game.default_players or game.min_players


CASES = [(game, name) for game in sorted(KITS) for name in bot_names(game)]


def test_every_game_has_the_random_bot():
    for game in KITS:
        assert "random" in bot_names(game)


@pytest.mark.parametrize(("game", "name"), CASES, ids=[f"{g}-{n}" for g, n in CASES])
def test_every_bot_plays_a_whole_round_legally(game, name):
    g = KITS[game].game
    players = table_size(g)
    bot_name = reproducible(name, game)
    m = Match.new(g, players, {"rounds": 1}, shuffler=Shuffler(11))
    bots = [make_bot(bot_name, game, 5 + s) for s in range(players)]
    r = m.rounds[0]
    while not r.is_over:
        seat = r.current_player
        view = r.view(seat)
        move = bots[seat].choose(view)
        assert move in view.legal, f"{bot_name} chose {move!r}, not one of {view.legal}"
        r.apply(move)


@pytest.mark.parametrize(("game", "name"), CASES, ids=[f"{g}-{n}" for g, n in CASES])
def test_no_bot_can_peek(game, name):
    """Same view, other hidden cards: the same decision from bots with equal seeds."""
    g = KITS[game].game
    bot_name = reproducible(name, game)
    checked = 0
    for seed in range(6):
        full = random_round(g, table_size(g), {}, seed, check=False).rounds[0]
        rng = random.Random(seed)
        cut = rng.randrange(len(full.history) // 4, len(full.history) // 2 + 1)
        r = g.new_round(full.rules, full.players, full.dealer, full.deck)
        for _, move in full.history[:cut]:
            r.apply(move)
        while not r.is_over and len(r.legal_moves()) < 2:
            r.apply(r.legal_moves()[0])
        if r.is_over:
            continue
        me = r.current_player
        other = twin(r, me, rng)
        if other is None:
            continue
        assert other.view(me) == r.view(me), "the twin must look the same to the seat"
        a = make_bot(bot_name, game, 77).choose(r.view(me))
        b = make_bot(bot_name, game, 77).choose(other.view(me))
        assert a == b, f"{bot_name} decided {a} and {b} on the same view"
        checked += 1
    assert checked >= 3, "too few positions with a real choice and another hidden deal"
