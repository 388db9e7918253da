"""PettingZoo AEC environment ``fanti_v0``: Fanti for 2 to 4 players.

>>> from parlour.envs import fanti_v0
>>> env = fanti_v0.env(players=3, ties="shared")          # rule options as keywords
>>> env.reset(seed=42)
>>> for agent in env.agent_iter():
...     obs, reward, termination, truncation, info = env.last()
...     action = None if termination or truncation else \\
...         env.action_space(agent).sample(obs["action_mask"])
...     env.step(action)

Actions: ``Discrete(105)``: the card (``0..51``), then, when it can collect in
several ways, the collection one table card at a time (``52 + card``, ``104`` = stop);
the same agent acts again until the play is whole (:mod:`parlour.envs.encoding`).
Everything else: :mod:`parlour.envs.pettingzoo_env` and ``docs/research.md``.
"""

from __future__ import annotations

from typing import Any

from pettingzoo import AECEnv

from parlour.envs.pettingzoo_env import ParlourAEC, wrap


class raw_env(ParlourAEC):  # noqa: N801  (PettingZoo's name for the unwrapped class)
    """Fanti without PettingZoo's checking wrappers (faster; raises on illegal)."""

    game_name = "fanti"
    metadata = {**ParlourAEC.metadata, "name": "fanti_v0"}


def env(**kwargs: Any) -> AECEnv:
    """Fanti with PettingZoo's classic wrappers (see :func:`pettingzoo_env.wrap`)."""
    return wrap(raw_env(**kwargs))
