"""PettingZoo's parallel API for the parlour games: ``fantan_v0.parallel_env(...)``.

The games are turn-based, so a parallel step is one action of the seat to move: every
live agent sends an action (PettingZoo's convention), the one whose mask is non-zero --
the seat to act, ``infos[agent]["to_act"]`` -- is applied and the others are ignored
(send anything, e.g. ``0``). Every agent observes every step (``{"observation",
"action_mask"}``, the mask all zeros for the agents not to act) and gets its reward of
that step; when the game ends every agent terminates together (or is truncated together
by ``max_cycles``). Keywords as the AEC environment's (:mod:`.pettingzoo_env`); an
illegal action of the seat to act raises ``ValueError`` and changes nothing, as
``raw_env`` does. Built directly on the AEC ``raw_env``, not on PettingZoo's
``aec_to_parallel`` (which refuses turn-based games).
"""

from __future__ import annotations

from typing import Any, ClassVar

from gymnasium import spaces
from gymnasium.utils import EzPickle
from pettingzoo import ParallelEnv

from parlour.envs.pettingzoo_env import ParlourAEC


class ParlourParallel(ParallelEnv, EzPickle):
    """The parallel environment of one parlour game (module docstring); subclassed per
    game as ``parallel_env`` by :func:`parlour.envs.pettingzoo_env.aec_module`."""

    aec_class: ClassVar[type[ParlourAEC]]
    metadata: ClassVar[dict[str, Any]] = {"render_modes": ["ansi"], "name": "parlour",
                                          "is_parallelizable": True, "render_fps": 1}

    def __init__(self, **kwargs: Any) -> None:
        EzPickle.__init__(self, **kwargs)
        self.aec = self.aec_class(**kwargs)
        self.possible_agents = list(self.aec.possible_agents)
        self.agents: list[str] = []
        self.render_mode = self.aec.render_mode

    @property
    def max_cycles(self) -> int | None:
        return self.aec.max_cycles

    @max_cycles.setter
    def max_cycles(self, value: int | None) -> None:
        self.aec.max_cycles = value

    @property
    def match(self) -> Any:
        """The :class:`parlour.match.Match` underneath."""
        return self.aec.match

    def observation_space(self, agent: str) -> spaces.Space:
        return self.aec.observation_space(agent)

    def action_space(self, agent: str) -> spaces.Space:
        return self.aec.action_space(agent)

    def _infos(self) -> dict[str, dict[str, Any]]:
        acting = self.aec.agent_selection
        return {a: {"to_act": a == acting and not self.aec.terminations[a]}
                for a in self.agents}

    def reset(self, seed: int | None = None, options: dict | None = None
              ) -> tuple[dict[str, Any], dict[str, dict[str, Any]]]:
        self.aec.reset(seed=seed, options=options)
        self.agents = list(self.aec.agents)
        return {a: self.aec.observe(a) for a in self.agents}, self._infos()

    def step(self, actions: dict[str, Any]) -> tuple[dict, dict, dict, dict, dict]:
        if not self.agents:
            raise RuntimeError("the game is over: call reset()")
        acting = self.aec.agent_selection
        if acting not in actions:
            raise ValueError(f"{acting} is to act: give it an action")
        self.aec.step(int(actions[acting]))
        agents = self.agents
        obs = {a: self.aec.observe(a) for a in agents}
        rewards = {a: float(self.aec.rewards[a]) for a in agents}
        terms = {a: bool(self.aec.terminations[a]) for a in agents}
        truncs = {a: bool(self.aec.truncations[a]) for a in agents}
        infos = self._infos()
        self.agents = [a for a in agents if not (terms[a] or truncs[a])]
        return obs, rewards, terms, truncs, infos

    def render(self) -> str | None:
        return self.aec.render()

    def close(self) -> None:
        self.aec.close()
