"""Move hints: every legal move with its estimated value, for people and servers.

>>> from parlour.bots.hints import hints, suggest
>>> hints("fantan", round.view(seat), level="hard", seed=0)   # doctest: +SKIP
[(19, 0.41), (32, 0.37), (52, 0.0)]

The value of a move is the estimated **probability that this seat wins the round**
after playing it (a shared win counts as its share: 1/2 for a two-way tie), as
measured by the PIMC search over worlds consistent with the view, with
the level's budget:

=======  ==========================================================
level    search budget per call
=======  ==========================================================
easy     a fifth of ``hard``'s iterations (the game's ``model.HARD``)
medium   half of ``hard``'s iterations
hard     ``hard``'s iterations, at most 1 s
expert   ``expert``'s engine and iterations (``model.EXPERT``), at most 3 s
=======  ==========================================================

The engine is the one ``hard`` plays with (:func:`.levels.search_bot`): the game's
own engine if its kit has one (Fan Tan's compiled PIMC), else the generic PIMC, so
a hint costs what a ``hard`` move costs. Games without a search model have no hints.

With an iteration budget only (easy, medium) the values are reproducible from the
seed; hard and expert are also cut by wall time, so under load they may differ.
The list is best first; it is empty when the seat has no move to make (not its
turn, or the round is over). Only the view is used: hints never see hidden cards.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from parlour.bots.budget import Budget
from parlour.bots.levels import iterations, level_budget, search_bot
from parlour.bots.opponents import read_earlier
from parlour.game import Move
from parlour.games import get_game

BUDGETS = {"easy": lambda g: Budget(max(1, iterations(g, "hard") // 5)),
           "medium": lambda g: Budget(max(1, iterations(g, "hard") // 2)),
           "hard": lambda g: level_budget(g, "hard"),
           "expert": lambda g: level_budget(g, "expert")}


def hints(game_name: str, view: Any, level: str = "hard", seed: int = 0,
          earlier: Sequence[Any] = ()) -> list[tuple[Move, float]]:
    """Every legal move of ``view`` with its estimated win probability, best first.
    ``earlier``: the seat's views of the game's finished rounds, whose plays the
    search reads each opponent by too (:func:`.opponents.read_earlier`)."""
    game = get_game(game_name).name
    if level not in BUDGETS:
        raise ValueError(f"level must be one of {', '.join(BUDGETS)}, not {level!r}")
    if not view.legal:
        return []
    engine = search_bot("expert" if level == "expert" else "hard", game, seed,
                        BUDGETS[level](game)).engine
    if hasattr(engine, "earlier"):
        engine.earlier = read_earlier(game, earlier)
    return [(e.move, e.value) for e in engine.estimates(view, random.Random(seed))]


def suggest(game_name: str, view: Any, level: str = "hard", seed: int = 0) -> Move | None:
    """The best move for ``view`` by :func:`hints`, or None when there is none to make."""
    ranked = hints(game_name, view, level, seed)
    return ranked[0][0] if ranked else None
