"""PettingZoo AEC environments for Fan Tan and Fanti (classic-environment conventions).

Use the versioned modules, one per game with an ``env`` part (its ``aec_name``):
``from parlour.envs import fantan_v0, fanti_v0``; ``fantan_v0.env(players=4)`` is wrapped like PettingZoo's classic games (an illegal
action ends the game with reward -1 for the offender, out-of-range actions assert,
calls are order-checked); ``fantan_v0.raw_env(...)`` is the bare, faster environment,
which raises ``ValueError`` on an illegal action and leaves the state unchanged;
``fantan_v0.parallel_env(...)`` is PettingZoo's parallel API (:mod:`.parallel_env`).

* Agents ``player_0 .. player_{n-1}`` are seats ``0 .. n-1``.
* Observation: ``{"observation": float32 vector in [0, 1], "action_mask": int8}``;
  the vector is :mod:`parlour.envs.observation` (relative seats, layout in
  ``docs/research.md``); the mask is all zeros for agents not to act.
* Actions: the game's codec (:mod:`parlour.envs.encoding`) -- ``Discrete(53)`` for Fan
  Tan (the engine's move ints), ``Discrete(105)`` for Fanti (card, then the collection
  card by card; the same agent acts again while a play is half chosen).
* ``observation="infostate"``: the vector plus perfect recall of the round
  (:data:`parlour.envs.session.OBSERVATIONS`).
* Rewards and episodes: :mod:`parlour.envs.session` (``reward="result"|"score"``,
  ``episode="game"|"round"``). ``max_cycles`` (default none) truncates the episode
  once some agent has acted that many times -- useful with ``strict=False`` Fan Tan,
  where seats may pass for ever.
* ``reset(seed=s)`` seeds only this environment's own shuffler: the first dealer and
  every deck equal ``Match.new(..., shuffler=Shuffler(s))`` and the decks it deals
  next. ``reset()`` without a seed continues the same shuffler.
"""

from __future__ import annotations

import sys
from types import ModuleType
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from gymnasium.utils import EzPickle
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from parlour.envs.session import Session
from parlour.envs.text_view import render_text
from parlour.match import Match, Shuffler


class ParlourAEC(AECEnv, EzPickle):
    """The AEC environment of one parlour game; subclassed per game as ``raw_env``
    (:func:`aec_module`)."""

    game_name: ClassVar[str]
    metadata: ClassVar[dict[str, Any]] = {"render_modes": ["ansi"], "name": "parlour",
                                          "is_parallelizable": False, "render_fps": 1}

    def __init__(self, players: int | None = None, render_mode: str | None = None,
                 episode: str = "game", reward: str = "result",
                 max_cycles: int | None = None, observation: str = "vector",
                 **rules: Any) -> None:
        EzPickle.__init__(self, players, render_mode, episode, reward, max_cycles, observation,
                          **rules)
        super().__init__()
        if render_mode not in (None, *self.metadata["render_modes"]):
            raise ValueError(f"render_mode must be None or 'ansi', not {render_mode!r}")
        self.session = Session(self.game_name, players, rules, episode, reward, observation)
        players = self.session.players
        self.render_mode = render_mode
        self.max_cycles = max_cycles
        self.possible_agents = [f"player_{i}" for i in range(players)]
        self.agents = self.possible_agents[:]
        self.agent_selection = self.agents[0]
        size, actions = self.session.encoder.size, self.session.codec.num_actions
        self.observation_spaces = {
            a: spaces.Dict({
                "observation": spaces.Box(0.0, 1.0, (size,), np.float32),
                "action_mask": spaces.Box(0, 1, (actions,), np.int8),
            })
            for a in self.possible_agents
        }
        self.action_spaces = {a: spaces.Discrete(actions) for a in self.possible_agents}
        self._shuffler = Shuffler(None)
        self._acted = [0] * players

    # --- spaces and observations ------------------------------------------------------

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        seat = self.possible_agents.index(agent)
        return {"observation": self.session.observe(seat),
                "action_mask": self.session.action_mask(seat)}

    @property
    def match(self) -> Match | None:
        """The :class:`parlour.match.Match` underneath (its record: ``record.dump``)."""
        return self.session.match

    # --- episode ----------------------------------------------------------------------

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        if seed is not None:
            self._shuffler = Shuffler(int(seed))
        self.session.reset(self._shuffler)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._acted = [0] * len(self.possible_agents)
        self.agent_selection = self.possible_agents[self.session.current_seat]

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} must act: None is only for finished agents")
        seat = self.possible_agents.index(agent)
        self._cumulative_rewards[agent] = 0.0
        rewards = self.session.step(action)
        self._acted[seat] += 1
        self.rewards = {a: rewards[i] for i, a in enumerate(self.possible_agents)}
        if self.session.is_over:
            self.terminations = dict.fromkeys(self.agents, True)
        else:
            self.agent_selection = self.possible_agents[self.session.current_seat]
            if self.max_cycles is not None and max(self._acted) >= self.max_cycles:
                self.truncations = dict.fromkeys(self.agents, True)
        self._accumulate_rewards()

    # --- rendering --------------------------------------------------------------------

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        return render_text(self.session.match)

    def close(self) -> None:
        pass


def wrap(env: AECEnv) -> AECEnv:
    """PettingZoo's classic wrappers: illegal action ends the game at -1, then
    bounds and order checks."""
    env = wrappers.TerminateIllegalWrapper(env, illegal_reward=-1)
    env = wrappers.AssertOutOfBoundsWrapper(env)
    return wrappers.OrderEnforcingWrapper(env)


def aec_module(game: str, aec_name: str, title: str) -> ModuleType:
    """The versioned PettingZoo module of a game, ``parlour.envs.<aec_name>``:
    ``raw_env`` (unwrapped) and ``env(**kwargs)`` (with :func:`wrap`)."""
    name = f"parlour.envs.{aec_name}"
    module = sys.modules.get(name)
    if module is not None:
        return module
    module = ModuleType(name, f"PettingZoo AEC environment ``{aec_name}``: {title} "
                              "(see :mod:`parlour.envs.pettingzoo_env`).")
    raw = type("raw_env", (ParlourAEC,), {
        "__doc__": f"{title} without PettingZoo's checking wrappers (faster; raises on "
                   "illegal).",
        "__module__": name,
        "game_name": game,
        "metadata": {**ParlourAEC.metadata, "name": aec_name},
    })

    def env(**kwargs: Any) -> AECEnv:
        """The game with PettingZoo's classic wrappers (:func:`wrap`)."""
        return wrap(raw(**kwargs))

    from parlour.envs.parallel_env import ParlourParallel

    parallel = type("parallel_env", (ParlourParallel,), {
        "__doc__": f"{title} through PettingZoo's parallel API (parlour.envs.parallel_env).",
        "__module__": name,
        "aec_class": raw,
        "metadata": {**ParlourParallel.metadata, "name": aec_name},
    })
    env.__module__ = name
    module.parallel_env = parallel  # type: ignore[attr-defined]
    module.raw_env = raw  # type: ignore[attr-defined]
    module.env = env  # type: ignore[attr-defined]
    sys.modules[name] = module
    return module
