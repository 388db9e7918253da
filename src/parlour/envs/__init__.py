"""Research interfaces: PettingZoo, Gymnasium and OpenSpiel (needs the ``rl`` extra).

For every registered game with an ``env`` part (:mod:`parlour.envs.kit`):

* ``from parlour.envs import fantan_v0, fanti_v0`` -- PettingZoo AEC environments
  (:mod:`.pettingzoo_env`; the module name is the env part's ``aec_name``);
* ``import parlour.envs`` registers the Gymnasium ids (``parlour/FanTan-v0``,
  ``parlour/Fanti-v0``): one learning seat against parlour bots, and with
  ``gymnasium.make_vec(..., vectorization_mode="vector_entry_point")`` the compiled
  vector environment (:mod:`.vector`) where the game's kernel part offers one;
* ``import parlour.envs.openspiel`` registers ``python_fantan`` and ``python_fanti``
  with ``pyspiel``.

They share one action encoding per game (:mod:`.encoding`), one observation layout
(:mod:`.observation`) and one reward scheme (:mod:`.session`); ``docs/research.md``
is the manual. The core package never imports this one, so parlour works without
PettingZoo, Gymnasium or OpenSpiel installed.
"""

from __future__ import annotations

import gymnasium

from parlour.envs.kit import env_parts
from parlour.envs.pettingzoo_env import aec_module
from parlour.games import KITS

GYM_IDS: dict[str, str] = {}
"""The Gymnasium id of every game with research environments, by game name."""


def _register() -> None:
    for kit in list(KITS.values()):
        if kit.attr("env", "ENV") is None:
            continue
        parts = env_parts(kit.name)
        GYM_IDS[kit.name] = parts.gym_id
        module = aec_module(kit.name, parts.aec_name, kit.game.title)
        globals()[parts.aec_name] = module
        if parts.gym_id not in gymnasium.registry:
            gymnasium.register(id=parts.gym_id, entry_point="parlour.envs.gym_env:ParlourGymEnv",
                               kwargs={"game": kit.name})


_register()

__all__ = ["GYM_IDS"]
