"""Research interfaces: PettingZoo, Gymnasium and OpenSpiel (the ``rl`` extra).

For every registered game with an ``env`` part (:mod:`parlour.envs.kit`):

* ``from parlour.envs import fantan_v0, fanti_v0`` -- PettingZoo AEC environments
  (:mod:`.pettingzoo_env`; the module name is the env part's ``aec_name``);
* ``import parlour.envs`` registers the Gymnasium ids (``parlour/FanTan-v0``,
  ``parlour/Fanti-v0``): ``gymnasium.make`` gives one learning seat against parlour
  bots or policies (:mod:`.gym_env`), ``gymnasium.make_vec(...,
  vectorization_mode="vector_entry_point")`` the compiled vector environment
  (:mod:`.vector`) where the game offers one;
* ``import parlour.envs.openspiel`` registers ``python_fantan`` and ``python_fanti``
  with ``pyspiel``.

They share one action encoding per game (:mod:`.encoding`), one observation layout
(:mod:`.observation`) and one reward scheme (:mod:`.session`); ``docs/research.md``
is the manual. The encodings and the policy adapter (:mod:`.policy`) need numpy only;
the interfaces need their libraries, imported when used, so parlour works without
PettingZoo, Gymnasium or OpenSpiel installed.
"""

from __future__ import annotations

import importlib.util
from types import ModuleType

from parlour.games import KITS

GYM_IDS: dict[str, str] = {}
"""The Gymnasium id of every game with research environments, by game name."""
MAX_EPISODE_STEPS = 5000
"""Gymnasium's default ``max_episode_steps`` for the registered ids: far above any game
under the default rules, it ends an episode that never would (Fan Tan ``strict: false``
with a learner that always passes) with ``truncated=True``."""


def _parts() -> dict[str, object]:
    from parlour.envs.kit import env_parts

    return {k.name: env_parts(k.name) for k in list(KITS.values())
            if k.attr("env", "ENV") is not None}


def _register() -> None:
    import gymnasium

    for name, parts in _parts().items():
        GYM_IDS[name] = parts.gym_id  # type: ignore[attr-defined]
        if parts.gym_id in gymnasium.registry:  # type: ignore[attr-defined]
            continue
        vector = "parlour.envs.vector:ParlourVectorEnv" if parts.vector else None  # type: ignore[attr-defined]
        gymnasium.register(id=parts.gym_id,  # type: ignore[attr-defined]
                           entry_point="parlour.envs.gym_env:ParlourGymEnv",
                           vector_entry_point=vector, max_episode_steps=MAX_EPISODE_STEPS,
                           kwargs={"game": name})


def __getattr__(name: str) -> ModuleType:
    """``fantan_v0``, ``fanti_v0``, ...: a game's PettingZoo module, made when first asked."""
    for game, parts in _parts().items():
        if parts.aec_name == name:  # type: ignore[attr-defined]
            from parlour.envs.pettingzoo_env import aec_module

            return aec_module(game, name, KITS[game].game.title)
    raise AttributeError(f"module 'parlour.envs' has no attribute {name!r}")


if importlib.util.find_spec("gymnasium") is not None:
    _register()

__all__ = ["GYM_IDS"]
