"""Research interfaces: PettingZoo, Gymnasium and OpenSpiel (needs the ``rl`` extra).

* ``from parlour.envs import fantan_v0, fanti_v0`` -- PettingZoo AEC environments.
* ``import parlour.envs`` registers the Gymnasium environments ``parlour/FanTan-v0``
  and ``parlour/Fanti-v0`` (one learning seat against parlour bots).
* ``import parlour.envs.openspiel`` registers ``python_fantan`` and ``python_fanti``
  with ``pyspiel``.

They share one action encoding (:mod:`.encoding`), one observation layout
(:mod:`.observation`) and one reward scheme (:mod:`.session`); ``docs/research.md``
is the manual. The core package never imports this one, so parlour works without
PettingZoo, Gymnasium or OpenSpiel installed.
"""

from __future__ import annotations

import gymnasium

GYM_IDS = {"fantan": "parlour/FanTan-v0", "fanti": "parlour/Fanti-v0"}


def _register() -> None:
    entry = {"fantan": "parlour.envs.gym_env:FanTanEnv", "fanti": "parlour.envs.gym_env:FantiEnv"}
    for game, env_id in GYM_IDS.items():
        if env_id not in gymnasium.registry:
            gymnasium.register(id=env_id, entry_point=entry[game])


_register()

__all__ = ["GYM_IDS"]
