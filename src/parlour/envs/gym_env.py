"""Gymnasium single-agent environments: one learning seat against parlour bots.

Registered on ``import parlour.envs`` under each game's id (its ``env`` part:
``parlour/FanTan-v0``, ``parlour/Fanti-v0``):

>>> import gymnasium as gym, parlour.envs
>>> env = gym.make("parlour/FanTan-v0", players=4, opponents="greedy", strict=False)
>>> obs, info = env.reset(seed=7)
>>> obs, reward, terminated, truncated, info = env.step(
...     env.action_space.sample(info["action_mask"]))

Parameters: ``game`` (set by the registration); ``players``; ``seat`` (the learner's
seat, or ``None`` to draw it at every reset); ``opponents`` -- one opponent for every
other seat, or a list of them in seat order skipping the learner, each a bot name
(anything :func:`parlour.bots.make_bot` knows), a :class:`parlour.bots.base.Bot`, or a
policy ``policy(observation, mask) -> action`` (:mod:`parlour.envs.policy`; it sees its
own seat's observation, built like the learner's); ``observation`` (``"vector"`` or
``"infostate"``, :mod:`.session`);
``episode``, ``reward`` (:mod:`parlour.envs.session`); ``illegal_action``:
``"terminate"`` (default: the episode ends with ``illegal_reward``, -1, and
``info["illegal_action"] = True``) or ``"raise"`` (``ValueError``); rule options as
keywords.

Observation: the learner's vector of :mod:`parlour.envs.observation`; the legal
actions are ``info["action_mask"]`` (``int8``) and ``action_masks()`` (bool, the
sb3-contrib ``MaskablePPO`` convention). ``gymnasium.make`` ends an episode at
``max_episode_steps`` learner actions (default :data:`parlour.envs.MAX_EPISODE_STEPS`)
with ``truncated=True``. Seeds may be any integers, numpy integers too. One ``step`` is one action of the
learner, then the bots play until it is the learner's turn again or the game ends;
the reward is everything the learner earned meanwhile. The same reset seed gives the
same deals as the engine's ``Shuffler(seed)``; the bots' seeds and a drawn seat come
from the environment's ``np_random``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, ClassVar

import gymnasium
import numpy as np
from gymnasium import spaces

from parlour.bots import make_bot
from parlour.bots.base import Bot
from parlour.envs.kit import env_parts
from parlour.envs.session import Session
from parlour.envs.text_view import render_text
from parlour.match import Match, Shuffler

Opponent = str | Bot | Callable[[np.ndarray, np.ndarray], int]
"""A bot name, a :class:`~parlour.bots.base.Bot`, or a policy ``(observation, mask) -> action``."""


class ParlourGymEnv(gymnasium.Env):
    """One seat of a parlour game against bots."""

    metadata: ClassVar[dict[str, Any]] = {"render_modes": ["ansi"], "render_fps": 1}

    def __init__(self, game: str, players: int | None = None, seat: int | None = 0,
                 opponents: Opponent | Sequence[Opponent] = "random", episode: str = "game",
                 reward: str = "result", illegal_action: str = "terminate",
                 illegal_reward: float = -1.0, render_mode: str | None = None,
                 observation: str = "vector", **rules: Any) -> None:
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode must be None or 'ansi', not {render_mode!r}")
        if illegal_action not in ("terminate", "raise"):
            raise ValueError('illegal_action must be "terminate" or "raise"')
        env_parts(game)  # a clear error for a game without research environments
        self.session = Session(game, players, rules, episode, reward, observation)
        players = self.session.players
        self.game_name = self.session.game.name
        if seat is not None and not 0 <= seat < players:
            raise ValueError(f"seat must be 0 to {players - 1} or None, not {seat}")
        single = isinstance(opponents, str | Bot) or callable(opponents)
        names = [opponents] * (players - 1) if single else list(opponents)  # type: ignore[arg-type]
        if len(names) != players - 1:
            raise ValueError(f"{players} players need {players - 1} opponents, not {len(names)}")
        for name in names:
            if isinstance(name, str):  # fail now on an unknown name or a table it cannot play
                make_bot(name, self.game_name, 0).check_table(players)
            elif not (isinstance(name, Bot) or callable(name)):
                raise ValueError(f"an opponent is a bot name, a Bot or a policy, not {name!r}")
        self.players = players
        self.fixed_seat = seat
        self.opponent_names = names
        self.illegal_action = illegal_action
        self.illegal_reward = float(illegal_reward)
        self.render_mode = render_mode
        self.observation_space = spaces.Box(0.0, 1.0, (self.session.encoder.size,), np.float32)
        self.action_space = spaces.Discrete(self.session.codec.num_actions)
        self.seat = seat if seat is not None else 0
        self.bots: dict[int, Any] = {}
        self._shuffler: Shuffler | None = None
        self._done = True

    @property
    def match(self) -> Match | None:
        """The :class:`parlour.match.Match` underneath (its record: ``record.dump``)."""
        return self.session.match

    def _info(self) -> dict[str, Any]:
        return {"action_mask": self.session.action_mask(self.seat), "seat": self.seat}

    def action_masks(self) -> np.ndarray:
        """The learner's legal actions now, as bools (sb3-contrib's ``action_masks``)."""
        return self.session.action_mask(self.seat).astype(bool)

    def _bots_play(self) -> float:
        """Let the opponents move until the learner is to act or the game ends."""
        s = self.session
        earned = 0.0
        while not s.is_over and s.current_seat != self.seat:
            seat = s.current_seat
            bot = self.bots[seat]
            if isinstance(bot, Bot):
                earned += s.apply_move(bot.choose(s.round.view(seat)))[self.seat]
            else:  # a policy: one action id at a time, from its own observation
                earned += s.step(bot(s.observe(seat), s.action_mask(seat)))[self.seat]
        return earned

    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[np.ndarray, dict[str, Any]]:
        seed = None if seed is None else int(seed)
        super().reset(seed=seed)
        if seed is not None or self._shuffler is None:
            self._shuffler = Shuffler(seed if seed is not None
                                      else int(self.np_random.integers(2**63)))
        if self.fixed_seat is None:
            self.seat = int(self.np_random.integers(self.players))
        others = [s for s in range(self.players) if s != self.seat]
        self.bots = {s: self._opponent(name) for s, name in zip(others, self.opponent_names,
                                                               strict=True)}
        self.session.reset(self._shuffler)
        self._bots_play()  # nothing is scored before the learner's first move
        self._done = self.session.is_over
        return self.session.observe(self.seat), self._info()

    def _opponent(self, who: Opponent) -> Bot | Callable[[np.ndarray, np.ndarray], int]:
        seed = int(self.np_random.integers(2**63))  # drawn for every seat, whatever it is
        return make_bot(who, self.game_name, seed) if isinstance(who, str) else who

    def step(self, action: int) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        if self._done:
            raise RuntimeError("the episode is over: call reset()")
        s = self.session
        try:
            reward = s.step(action)[self.seat]
        except ValueError:
            if self.illegal_action == "raise":
                raise
            self._done = True
            info = self._info()
            info["illegal_action"] = True
            return s.observe(self.seat), self.illegal_reward, True, False, info
        reward += self._bots_play()
        self._done = s.is_over
        return s.observe(self.seat), float(reward), self._done, False, self._info()

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        return render_text(self.session.match, self.seat)
