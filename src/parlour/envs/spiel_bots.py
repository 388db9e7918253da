"""Bots for the OpenSpiel games: parlour's own bots, and OpenSpiel's Python ISMCTS.

>>> import pyspiel, numpy as np
>>> from parlour.envs.spiel_bots import ParlourBot, ismcts_bot
>>> game = pyspiel.load_game("python_fantan", {"players": 3, "rounds": 1})
>>> bots = [ismcts_bot(game, seed=1), ParlourBot(game, "greedy", 1, seed=2),
...         ParlourBot(game, "greedy", 2, seed=3)]
>>> from open_spiel.python.algorithms.evaluate_bots import evaluate_bots
>>> evaluate_bots(game.new_initial_state(), bots, np.random.RandomState(0))  # doctest: +SKIP

:func:`resample` builds, for the seat to move, a state it cannot tell from the real
one (:mod:`.resample`) by replaying the real history with a new deck for the round in
play, so the new state's ``history()`` is an honest history of it.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

from parlour.bots import make_bot
from parlour.envs.resample import resample_deck


def resample(state: Any, player: int, rng: random.Random) -> Any:
    """A state with the same information state for ``player`` as ``state``."""
    core = state.core
    m = core.match
    if m is None or m.current is None or state.is_chance_node():
        return state.clone()
    index = len(m.rounds) - 1
    deck = resample_deck(m.rounds[-1], player, rng)
    new = state.get_game().new_initial_state()
    for action in state.history():
        c = new.core
        if new.is_chance_node() and c.match is not None and len(c.match.rounds) == index:
            action = deck[len(c.deck)]
        new.apply_action(action)
    return new


class ISMCTSBot(ismcts.ISMCTSBot):
    """OpenSpiel's Python ISMCTS bot, plus the no-op ``restart_at`` and
    ``inform_action`` that ``evaluate_bots`` calls (it keeps no state between moves)."""

    def restart_at(self, state: Any) -> None:
        pass

    def inform_action(self, state: Any, player: int, action: int) -> None:
        pass


def ismcts_bot(game: Any, seed: int = 0, simulations: int = 200, uct_c: float = 2.0,
               rollouts: int = 1, max_world_samples: int = -1) -> ISMCTSBot:
    """OpenSpiel's Python ISMCTS with random-rollout evaluation and :func:`resample`."""
    rs = np.random.RandomState(seed)
    bot = ISMCTSBot(
        game=game,
        evaluator=mcts.RandomRolloutEvaluator(n_rollouts=rollouts, random_state=rs),
        uct_c=uct_c,
        max_simulations=simulations,
        max_world_samples=max_world_samples,
        random_state=rs,
        final_policy_type=ismcts.ISMCTSFinalPolicyType.MAX_VISIT_COUNT,
    )
    rng = random.Random(seed)
    bot.set_resampler(lambda state, player: resample(state, player, rng))
    return bot


class ParlourBot(pyspiel.Bot):
    """A parlour bot (``random``, ``greedy``, ... via ``make_bot``) playing one seat of
    an OpenSpiel parlour game. It decides on the seat's view only; a Fanti move that
    takes several actions is handed out one action per ``step``."""

    def __init__(self, game: Any, name: str, seat: int, seed: int = 0) -> None:
        pyspiel.Bot.__init__(self)
        self.seat = seat
        self.bot = make_bot(name, game.spec.game.name, seed)
        self.codec = game.spec.codec
        self._path: list[int] = []

    def restart_at(self, state: Any) -> None:
        self._path = []
        self.bot.remember(())  # a new game: its players are read afresh

    def inform_action(self, state: Any, player: int, action: int) -> None:
        pass

    def step(self, state: Any) -> int:
        core = state.core
        rnd = core.match.rounds[-1]
        if core.pending is None or not self._path:
            move = self.bot.choose(rnd.view(self.seat))
            self._path = self.codec.encode(rnd, move)
        return self._path.pop(0)
