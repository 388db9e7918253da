"""PettingZoo AEC environment ``fantan_v0``: Fan Tan for 3 to 8 players.

>>> from parlour.envs import fantan_v0
>>> env = fantan_v0.env(players=4, strict=True)          # rule options as keywords
>>> env.reset(seed=42)
>>> for agent in env.agent_iter():
...     obs, reward, termination, truncation, info = env.last()
...     action = None if termination or truncation else \\
...         env.action_space(agent).sample(obs["action_mask"])
...     env.step(action)

Actions: ``Discrete(53)``, the engine's moves (card ``0..51``, ``52`` = pass).
Everything else: :mod:`parlour.envs.pettingzoo_env` and ``docs/research.md``.
"""

from __future__ import annotations

from typing import Any

from pettingzoo import AECEnv

from parlour.envs.pettingzoo_env import ParlourAEC, wrap


class raw_env(ParlourAEC):  # noqa: N801  (PettingZoo's name for the unwrapped class)
    """Fan Tan without PettingZoo's checking wrappers (faster; raises on illegal)."""

    game_name = "fantan"
    metadata = {**ParlourAEC.metadata, "name": "fantan_v0"}


def env(**kwargs: Any) -> AECEnv:
    """Fan Tan with PettingZoo's classic wrappers (see :func:`pettingzoo_env.wrap`)."""
    return wrap(raw_env(**kwargs))
