"""Compiled vector environments: ``num_envs`` games stepped together in numba.

>>> import gymnasium as gym, numpy as np, parlour.envs
>>> envs = gym.make_vec("parlour/FanTan-v0", num_envs=4096,
...                     vectorization_mode="vector_entry_point", opponents="greedy")
>>> obs, info = envs.reset(seed=7)
>>> rng = np.random.default_rng(7)
>>> actions = (rng.random(info["action_mask"].shape) * info["action_mask"]).argmax(1)
>>> obs, reward, terminated, truncated, info = envs.step(actions)

The game's ``env`` part names the module of its compiled environment (``vector``),
built on the game's one kernel (no rule is written twice); this class is the
Gymnasium face of it, the same for every game. Parameters as the single environment
(:mod:`.gym_env`): ``players``, ``seat`` (``None``: drawn every game), ``opponents``
(``"random"``, ``"greedy"``, ``"heuristic"`` played inside the compiled code, or
``"self"``: every seat is the learner -- self-play, the acting seat in
``info["seat"]``), ``episode``, ``reward``, ``observation`` (``"vector"`` or
``"infostate"``), ``max_episode_steps`` and rule options.

* ``step(actions)`` returns observations ``(num_envs, size)`` ``float32`` (the single
  environment's encoding, bit for bit), rewards, ``terminated``, ``truncated`` and
  ``info`` with ``"action_mask"`` ``(num_envs, actions)`` bool, ``"seat"`` (whose
  observation it is), ``"rewards"`` ``(num_envs, players)`` (every seat's reward this
  step; in self-play ``reward`` is the acting seat's) and ``"actor"``.
* **Autoreset: same step** (``gymnasium.vector.AutoresetMode.SAME_STEP``): an env whose
  game ends starts the next game within that step; the observation and mask returned
  are the new game's, so every mask is usable, and the ended game's last observation
  is ``info["final_obs"][i]`` (Gymnasium's layout: an object array holding ``None`` for
  envs still playing, and the bool mask ``info["_final_obs"]``).
  ``info["final_info"]``/``["_final_info"]`` as Gymnasium's ``SyncVectorEnv`` gives
  them in that mode: the ended game's last-step ``seat``, ``rewards``, ``actor`` (and
  ``illegal_action``), each batched with its ``_key`` mask.
* Seeds: ``reset(seed=s)`` (any integer, numpy integers too) fixes every deal and
  every compiled opponent's choice; the ``k``-th game of env ``i`` is game
  ``k * num_envs + i`` of the :mod:`parlour.batch.stream` run ``s``. A list of one
  integer per env (Gymnasium's convention) is hashed as a whole into that one seed.
* ``illegal_action``: ``"raise"`` (default; ``ValueError`` for the whole step, nothing
  moves) or ``"terminate"`` (the single environment's choice: that env's game ends with
  ``illegal_reward`` to the learner and ``info["illegal_action"]``, its next game
  starts in the same step, the other envs step as usual).
* ``action_masks()``: the current masks (sb3-contrib's convention).
* ``bot_actions(name)``: what a compiled bot would do now for the seat to move (labels
  for imitation learning).
"""

from __future__ import annotations

import hashlib
import importlib
from collections.abc import Sequence
from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from parlour.envs.batch_actions import batch_actions
from parlour.envs.kit import env_parts
from parlour.envs.session import OBSERVATIONS, REWARDS, resolve_rules
from parlour.games import get_game


class ParlourVectorEnv(VectorEnv):
    """``num_envs`` games of one parlour game in compiled code (module docstring)."""

    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP, "render_modes": []}

    def __init__(self, game: str, num_envs: int = 1, players: int | None = None, seat: int | None = 0,
                 opponents: str | Sequence[str] = "random", episode: str = "game",
                 reward: str = "result", observation: str = "vector",
                 max_episode_steps: int | None = None, illegal_action: str = "raise",
                 illegal_reward: float = -1.0, **rules: Any) -> None:
        parts = env_parts(game)
        if parts.vector is None:
            raise ValueError(f"{get_game(game).title} has no compiled vector environment")
        if reward not in REWARDS:
            raise ValueError(f"reward must be one of {REWARDS}, not {reward!r}")
        if observation not in OBSERVATIONS:
            raise ValueError(f"observation must be one of {OBSERVATIONS}, not {observation!r}")
        if illegal_action not in ILLEGAL:
            raise ValueError(f"illegal_action must be one of {ILLEGAL}, not {illegal_action!r}")
        num_envs = int(num_envs)
        if num_envs < 1:
            raise ValueError(f"num_envs must be at least 1, not {num_envs}")
        g = get_game(game)
        players = g.usual_players if players is None else int(players)
        full = resolve_rules(g.name, players, rules, episode)
        if refusal := g.options.compiled_refusal(full):
            raise ValueError(f"the vector environment is compiled: {refusal} "
                             "(the PettingZoo or Gymnasium environment)")
        if seat is not None and not 0 <= seat < players:
            raise ValueError(f"seat must be 0 to {players - 1} or None, not {seat}")
        names = [opponents] * (players - 1) if isinstance(opponents, str) else list(opponents)
        if len(names) != players - 1:
            raise ValueError(f"{players} players need {players - 1} opponents, not {len(names)}")
        module = importlib.import_module(parts.vector)
        known = (*module.BOTS, "self")
        for name in names:
            if name not in known:
                raise ValueError(f"opponent {name!r} is not played inside the vector "
                                 f"environment; choose one of: {', '.join(known)}")
        if ("self" in names) and any(n != "self" for n in names):
            raise ValueError('self-play is every seat: opponents="self"')
        self.game_name = g.name
        self.players = players
        self.core = module.make(num_envs, players, full, -1 if seat is None else seat, names,
                                reward, observation == "infostate", int(max_episode_steps or 0))
        self.num_envs = num_envs
        size = self.core.encoder.size
        actions = self.core.num_actions
        self.single_observation_space = spaces.Box(0.0, 1.0, (size,), np.float32)
        self.single_action_space = spaces.Discrete(actions)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self._obs = np.zeros((num_envs, size), np.float32)
        self._final = np.zeros((num_envs, size), np.float32)
        self._mask = np.zeros((num_envs, actions), np.bool_)
        self._reward = np.zeros(num_envs, np.float64)
        self._rewards = np.zeros((num_envs, players), np.float64)
        self._term = np.zeros(num_envs, np.bool_)
        self._trunc = np.zeros(num_envs, np.bool_)
        self._actor = np.zeros(num_envs, np.int64)
        self._reset_once = False
        self.illegal_action = illegal_action
        self.illegal_reward = float(illegal_reward)
        self._seats = np.zeros(num_envs, np.int64)

    def reset(self, *, seed: int | Sequence[int | None] | None = None,
              options: dict[str, Any] | None = None) -> tuple[np.ndarray, dict[str, Any]]:
        """Start a game in every env (``seed``: any integer, or a list of one integer per
        env as Gymnasium's vector envs take it; None draws one)."""
        seed = one_seed(seed, self.num_envs)
        super().reset(seed=seed)
        if seed is None:
            seed = int(self.np_random.integers(2**63))
        self._obs, self._mask = np.empty_like(self._obs), np.empty_like(self._mask)
        self.core.reset(int(seed), self._obs, self._mask)
        self._reset_once = True
        self._seats = self.core.learner_seats()
        return self._obs, {"action_mask": self._mask, "seat": self._seats}

    def step(self, actions: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray,
                                           dict[str, Any]]:
        a = batch_actions(actions, self.num_envs, self._reset_once)
        # fresh output arrays every step (the kernel fills every entry): nothing to copy,
        # and what a caller keeps from one step is never overwritten by the next
        obs, mask = np.empty_like(self._obs), np.empty_like(self._mask)
        reward, rewards = np.empty_like(self._reward), np.empty_like(self._rewards)
        term, trunc = np.empty_like(self._term), np.empty_like(self._trunc)
        actor = np.empty_like(self._actor)
        bad: np.ndarray | None = None
        if self.illegal_action == "terminate" and self.core.illegal(a) >= 0:
            a, bad, before = self._stand_in(a)
        self.core.step(a, obs, mask, reward, rewards, term, trunc, self._final, actor)
        if bad is not None:  # those games end here, -1 to the learner, the next one starts
            self.core.restart(bad, obs, mask)
            reward[bad] = self.illegal_reward
            rewards[bad] = 0.0
            rewards[bad, self._seats[bad]] = self.illegal_reward
            term[bad], trunc[bad] = True, False
            self._final[bad] = before
        final_seat = actor if self.core.selfplay else self._seats
        self._obs, self._mask = obs, mask
        self._seats = self.core.learner_seats()
        info: dict[str, Any] = {"action_mask": mask, "seat": self._seats,
                                "rewards": rewards, "actor": actor}
        ended = term | trunc
        if ended.any():  # Gymnasium's layout: an object array, None where still running
            final = np.full(self.num_envs, None, dtype=object)
            for i in np.flatnonzero(ended):
                final[i] = self._final[i].copy()
            info["final_obs"], info["_final_obs"] = final, ended
            info["final_info"], info["_final_info"] = self._final_info(
                ended, final_seat, rewards, actor, bad), ended
        if bad is not None:
            flags = np.zeros(self.num_envs, np.bool_)
            flags[bad] = True
            info["illegal_action"], info["_illegal_action"] = flags, flags
        return obs, reward, term, trunc, info

    def _stand_in(self, a: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Under ``illegal_action="terminate"``: the envs whose action is illegal, a
        legal action to step them with (their game is abandoned after the step) and
        their observations now (the ended game's last)."""
        ok = (a >= 0) & (a < self._mask.shape[1])
        legal = np.zeros(self.num_envs, np.bool_)
        legal[ok] = self._mask[np.flatnonzero(ok), a[ok]]
        bad = np.flatnonzero(~legal)
        a = a.copy()
        a[bad] = self._mask[bad].argmax(1)
        return a, bad, self._obs[bad].copy()

    def _final_info(self, ended: np.ndarray, seat: np.ndarray, rewards: np.ndarray,
                    actor: np.ndarray, bad: np.ndarray | None) -> dict[str, Any]:
        """The last step's info of every env whose game ended, in Gymnasium's layout
        (``SyncVectorEnv``'s ``final_info``: each key batched, ``_key`` its mask; the
        entries outside the mask are not zeroed, as nothing may read them)."""
        # the step's own fresh arrays, not copies: entries outside ``_key`` belong to
        # games still running (Gymnasium zeroes them; they are to be ignored either way)
        out: dict[str, Any] = {"seat": seat, "_seat": ended, "rewards": rewards,
                               "_rewards": ended, "actor": actor, "_actor": ended}
        if bad is not None:
            flags = np.zeros(self.num_envs, np.bool_)
            flags[bad] = True
            out["illegal_action"], out["_illegal_action"] = flags, flags
        return out

    def action_masks(self) -> np.ndarray:
        """(num_envs, actions) bool: the legal actions now (sb3-contrib's convention)."""
        return self._mask.copy()

    def bot_actions(self, name: str) -> np.ndarray:
        """(num_envs,) the action id the compiled bot ``name`` (``random``, ``greedy``,
        ``heuristic``) would take now for the seat to move in each env: an expert's labels
        for imitation learning (``parlour.envs.training``). The state is not changed."""
        if not self._reset_once:
            raise RuntimeError("call reset() before bot_actions()")
        if name not in self.core.bot_names:
            raise ValueError(f"bot {name!r} is not compiled for {get_game(self.game_name).title}"
                             f"; choose one of: {', '.join(self.core.bot_names)}")
        return self.core.bot_actions(name)

    @property
    def bytes_per_env(self) -> float:
        """The compiled state plus the output buffers, per env."""
        out = sum(a.nbytes for a in (self._obs, self._final, self._mask, self._reward,
                                     self._rewards, self._term, self._trunc, self._actor))
        return (self.core.nbytes + out) / self.num_envs


ILLEGAL = ("raise", "terminate")
"""``illegal_action`` choices, as the single environment's (:mod:`.gym_env`)."""


def one_seed(seed: int | Sequence[int | None] | None, num_envs: int) -> int | None:
    """The one seed of the compiled stream: an integer as given; a list of one integer per
    env (Gymnasium's ``reset(seed=[...])``) hashed as a whole, so the same list gives the
    same games; a list of ``None`` is ``None``."""
    if seed is None or isinstance(seed, int | np.integer):
        return None if seed is None else int(seed)
    seeds = list(seed)
    if len(seeds) != num_envs:
        raise ValueError(f"need one seed per env: {num_envs}, not {len(seeds)}")
    if all(s is None for s in seeds):
        return None
    if any(s is None or not isinstance(s, int | np.integer) for s in seeds):
        raise ValueError("seed every env with an integer, or none of them")
    text = ",".join(str(int(s)) for s in seeds).encode()
    return int.from_bytes(hashlib.blake2b(text, digest_size=8).digest(), "big") >> 1


__all__ = ["ParlourVectorEnv"]
