"""Self-play and leagues for the Gymnasium environment: opponents drawn from a pool.

>>> import gymnasium as gym, parlour.envs
>>> from parlour.envs.league import League
>>> env = League(gym.make("parlour/FanTan-v0", players=4, episode="round"),
...              pool=["random", "greedy"])
>>> def my_policy(observation, mask):  # the learner: here, the first legal action
...     return int(mask.nonzero()[0][0])
>>> env.add(my_policy)          # a frozen copy of the learner goes in: self-play
>>> observation, info = env.reset(seed=1)

Every ``reset`` draws each opponent seat's player from the pool (bot names, ``Bot``
objects or policies ``policy(observation, mask) -> action``, as the environment's
``opponents`` takes them), with the wrapper's own generator, seeded by ``reset(seed=)``.
For self-play in compiled code, the vector environment's ``opponents="self"`` plays
every seat as the learner.
"""

from __future__ import annotations

import copy
from typing import Any

import gymnasium
import numpy as np

from parlour.envs.gym_env import Opponent, ParlourGymEnv


class League(gymnasium.Wrapper):
    """Draw the opponents of every episode from a pool (module docstring)."""

    def __init__(self, env: gymnasium.Env, pool: list[Opponent]) -> None:
        super().__init__(env)
        if not isinstance(env.unwrapped, ParlourGymEnv):
            raise ValueError("League wraps a parlour Gymnasium environment")
        if not pool:
            raise ValueError("the pool needs at least one opponent")
        self.pool: list[Opponent] = list(pool)
        self._rng = np.random.default_rng()
        self.last_draw: list[Opponent] = []

    def add(self, opponent: Opponent) -> None:
        """Put a frozen copy of one more opponent in the pool (a snapshot of the
        learner, say): training the learner on afterwards leaves the copy as it was.
        Bot names are kept as they are."""
        if isinstance(opponent, str):
            self.pool.append(opponent)
            return
        try:
            frozen = copy.deepcopy(opponent)
        except Exception as e:
            raise ValueError(f"the league cannot freeze a copy of {opponent!r}: {e}; "
                             f"add a copy you made yourself") from None
        self.pool.append(frozen)

    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[np.ndarray, dict[str, Any]]:
        if seed is not None:
            self._rng = np.random.default_rng(int(seed))
        base: ParlourGymEnv = self.env.unwrapped  # type: ignore[assignment]
        picks = self._rng.integers(len(self.pool), size=base.players - 1)
        self.last_draw = [self.pool[int(i)] for i in picks]
        base.opponent_names = list(self.last_draw)
        return self.env.reset(seed=seed, options=options)
