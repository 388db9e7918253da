"""A bot cannot peek: its decision depends on its view alone (FT-10, FA-7).

Two rounds with the same view for the seat to move but different hidden cards (the
other hands, and in Fanti the undealt deck) must get the same decision from bots with
equal seeds.
"""

from __future__ import annotations

import pytest
from helpers_bots import round_at, twin

from parlour.bots import make_bot

CASES = [("fantan", 4, {}, 3, 30), ("fantan", 5, {"strict": False}, 4, 25),
         ("fanti", 2, {}, 5, 13), ("fanti", 3, {}, 6, 7)]


@pytest.mark.parametrize("game,players,rules,seed,moves", CASES)
@pytest.mark.parametrize("bot", ["heuristic", "greedy", "random", "pimc:40", "ismcts:40",
                                 "hard:40"])
def test_decision_ignores_hidden_cards(game, players, rules, seed, moves, bot):
    r = round_at(game, players, rules, seed, moves)
    while len(r.legal_moves()) < 2:  # find a real choice
        r.apply(r.legal_moves()[0])
    other = twin(r, seed)
    me = r.current_player
    a = make_bot(bot, game, 77).choose(r.view(me))
    b = make_bot(bot, game, 77).choose(other.view(me))
    assert a == b
