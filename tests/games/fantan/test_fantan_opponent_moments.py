"""The opponent reader's past positions (:func:`parlour.games.fantan.opponents._moments`)
charge each past pass as the engine did at that moment (FT-7, FT-11).

The reader rebuilds every past decision from a view's history and asks the compiled
search player model what it would have played there, scored with the passes charged so
far. Those charges come from the kernel's ``pass_turn`` (the one compiled transition);
this holds them to :class:`parlour.games.fantan.rules.FanTanRound`, so a house rule on a
pass's price that reaches one and not the other fails here.
"""

from __future__ import annotations

import random

import pytest

from parlour.games import get_game
from parlour.games.fantan.opponents import _moments


@pytest.mark.parametrize("strict", [True, False])
@pytest.mark.parametrize("seed", range(6))
def test_each_past_moment_holds_the_passes_the_engine_charged_then(seed, strict):
    game = get_game("fantan")
    n = 3 + seed % 2
    rules = game.rules(n, {"rounds": 1, "strict": strict})
    deck = list(range(52))
    rng = random.Random(seed)
    rng.shuffle(deck)
    rnd = game.new_round(rules, n, seed % n, deck)
    charged = []  # the engine's passes before each move
    while not rnd.is_over:
        charged.append(tuple(rnd.passes))
        rnd.apply(rng.choice(rnd.legal_moves()))
    assert sum(charged[-1]) > 0  # the round had passes to charge
    moments = _moments(rnd.view(0))
    assert [m.passes for m in moments] == charged
