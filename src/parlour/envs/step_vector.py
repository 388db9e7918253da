"""The vector environment on the Python engine: ``num_envs`` games stepped move by move.

The compiled vector environment (:mod:`.vector`) plays only the rules its kernels
serve; a research option such as a cut pack (``OptionSet.compiled_refusal``) runs on
the step engine alone. This class gives the same face as the compiled one -- what
``parlour train`` (:mod:`.training`) asks of it -- over the Python engine, so those
variants can be trained too. It is slow (a Python loop of :class:`.session.Session`
objects, some thousands of steps a second), which the small variants can afford; it
is chosen explicitly (``parlour train --engine step``), never in place of the
compiled one.

* ``reset(seed=s)`` -> observations ``(num_envs, size)`` ``float32`` and ``info`` with
  ``"action_mask"`` (bool) and ``"seat"``; ``step(actions)`` -> observations, the
  learner's rewards, ``terminated``, ``truncated`` and ``info`` with ``"action_mask"``,
  ``"seat"``, ``"rewards"`` ``(num_envs, players)`` (every seat's this step) and
  ``"actor"``, as :mod:`.vector` gives them.
* Autoreset in the same step (Gymnasium's ``SAME_STEP``): an ended game's next one
  starts at once, its last observation in ``info["final_obs"]`` (``"_final_obs"``
  the mask).
* ``opponents``: a bot name for every other seat (anything :func:`parlour.bots.make_bot`
  takes), played move by move; or ``"self"``: every seat is the learner and
  ``info["seat"]`` is the seat to act.
* Seeds: env ``i`` of ``reset(seed=s)`` deals from ``Shuffler`` seeded by ``(s, i)``
  and seeds its bots from the same pair, so a run repeats exactly.
* ``bot_actions(name)``: the action id a bot would take now in each env (imitation
  labels); within a move of several actions (a collection chosen card by card) the
  next action of the bot's move, or -- where the actions taken so far left the bot's
  move -- the next action of the first legal move that extends them.
* An illegal action raises ``ValueError`` for the whole step before any env moves.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from parlour.bots import make_bot
from parlour.bots.base import Bot
from parlour.envs.batch_actions import batch_actions
from parlour.envs.kit import env_parts
from parlour.envs.session import Session
from parlour.match import Shuffler


def env_seed(seed: int, index: int) -> int:
    """The seed of env ``index`` in a run seeded ``seed`` (independent streams)."""
    return int(np.random.SeedSequence([seed & (2**63 - 1), index]).generate_state(2, np.uint32)
               .view(np.uint64)[0] >> 1)


class StepVectorEnv(VectorEnv):
    """``num_envs`` games of one parlour game on the Python engine (module docstring)."""

    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP, "render_modes": []}

    def __init__(self, game: str, num_envs: int = 1, players: int | None = None,
                 seat: int | None = 0, opponents: str = "random", episode: str = "round",
                 reward: str = "result", observation: str = "vector", **rules: Any) -> None:
        env_parts(game)  # a clear error for a game without research environments
        num_envs = int(num_envs)
        if num_envs < 1:
            raise ValueError(f"num_envs must be at least 1, not {num_envs}")
        self.sessions = [Session(game, players, rules, episode, reward, observation)
                         for _ in range(num_envs)]
        first = self.sessions[0]
        self.game_name = first.game.name
        self.players = first.players
        if seat is not None and not 0 <= seat < self.players:
            raise ValueError(f"seat must be 0 to {self.players - 1} or None, not {seat}")
        self.selfplay = opponents == "self"
        if not self.selfplay:
            make_bot(opponents, self.game_name, 0).check_table(self.players)
        self.opponents = opponents
        self.fixed_seat = seat
        self.num_envs = num_envs
        self.codec = first.codec
        size, actions = first.encoder.size, first.codec.num_actions
        self.single_observation_space = spaces.Box(0.0, 1.0, (size,), np.float32)
        self.single_action_space = spaces.Discrete(actions)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self._rngs: list[np.random.Generator] = []
        self._seats = np.zeros(num_envs, np.int64)
        self._bots: list[dict[int, Bot]] = [{} for _ in range(num_envs)]
        self._labellers: dict[str, list[Bot]] = {}
        self._taken: list[list[int]] = [[] for _ in range(num_envs)]  # this move's actions
        self._plans: dict[str, list[list[int] | None]] = {}  # each labelling bot's move
        self._reset_once = False

    # --- games ------------------------------------------------------------------------

    def _new_game(self, i: int) -> float:
        """Env ``i`` starts its next game (seat drawn, bots seated) and the bots play up
        to the learner's first turn; the learner's reward meanwhile (always 0 here)."""
        s, rng = self.sessions[i], self._rngs[i]
        s.reset(s.shuffler)
        self._taken[i] = []
        self._forget(i)
        seat = int(rng.integers(self.players)) if self.fixed_seat is None else self.fixed_seat
        self._seats[i] = seat
        if self.selfplay:
            return 0.0
        self._bots[i] = {q: make_bot(self.opponents, self.game_name, int(rng.integers(2**62)))
                         for q in range(self.players) if q != seat}
        return self._bots_play(i)[seat]

    def _forget(self, i: int) -> None:
        for plans in self._plans.values():
            plans[i] = None

    def _bots_play(self, i: int) -> list[float]:
        """The opponents of env ``i`` move until the learner is to act or the game ends."""
        s, seat = self.sessions[i], int(self._seats[i])
        earned = [0.0] * self.players
        while not s.is_over and s.current_seat != seat:
            q = s.current_seat
            got = s.apply_move(self._bots[i][q].choose(s.round.view(q)))
            earned = [a + b for a, b in zip(earned, got, strict=True)]
        return earned

    def _actor(self, i: int) -> int:
        """Whose observation env ``i`` gives: the seat to act in self-play, else the learner."""
        s = self.sessions[i]
        return s.current_seat if self.selfplay else int(self._seats[i])

    def _observe(self) -> tuple[np.ndarray, np.ndarray]:
        obs = np.stack([s.observe(self._actor(i)) for i, s in enumerate(self.sessions)])
        mask = np.stack([s.action_mask(self._actor(i)) for i, s in enumerate(self.sessions)])
        return obs.astype(np.float32, copy=False), mask.astype(bool)

    # --- the Gymnasium face -----------------------------------------------------------

    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[np.ndarray, dict[str, Any]]:
        """Start a game in every env (``seed``: an integer; None draws one)."""
        super().reset(seed=seed)
        if seed is None:
            seed = int(self.np_random.integers(2**62))
        seeds = [env_seed(int(seed), i) for i in range(self.num_envs)]
        self._rngs = [np.random.default_rng(x) for x in seeds]
        for i, s in enumerate(self.sessions):
            s.shuffler = Shuffler(seeds[i])
            self._new_game(i)
        self._reset_once = True
        obs, mask = self._observe()
        return obs, {"action_mask": mask, "seat": self._seats_now()}

    def _seats_now(self) -> np.ndarray:
        return np.array([self._actor(i) for i in range(self.num_envs)], np.int64)

    def step(self, actions: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray,
                                           dict[str, Any]]:
        a = batch_actions(actions, self.num_envs, self._reset_once)
        for i, s in enumerate(self.sessions):  # all or nothing: check before any env moves
            if int(a[i]) not in s.legal_actions():
                raise ValueError(f"env {i}: action {int(a[i])} is not legal now")
        n = self.num_envs
        reward = np.zeros(n, np.float64)
        rewards = np.zeros((n, self.players), np.float64)
        term = np.zeros(n, np.bool_)
        actor = np.zeros(n, np.int64)
        final = np.full(n, None, dtype=object)
        for i, s in enumerate(self.sessions):
            me = self._actor(i)
            actor[i] = me
            got = s.step(int(a[i]))
            self._taken[i] = [*self._taken[i], int(a[i])] if s.pending is not None else []
            if not self._taken[i]:  # a move was made: the labelling bots choose afresh
                self._forget(i)
            if not self.selfplay:
                more = self._bots_play(i)
                got = [x + y for x, y in zip(got, more, strict=True)]
            rewards[i] = got
            reward[i] = got[me]
            if s.is_over:
                term[i] = True
                final[i] = s.observe(me)
                self._new_game(i)
        obs, mask = self._observe()
        info: dict[str, Any] = {"action_mask": mask, "seat": self._seats_now(),
                                "rewards": rewards, "actor": actor}
        if term.any():
            info["final_obs"], info["_final_obs"] = final, term.copy()
        return obs, reward, term, np.zeros(n, np.bool_), info

    def action_masks(self) -> np.ndarray:
        """(num_envs, actions) bool: the legal actions now (sb3-contrib's convention)."""
        return self._observe()[1]

    # --- labels for imitation ---------------------------------------------------------

    def bot_actions(self, name: str) -> np.ndarray:
        """(num_envs,) the action id the bot ``name`` would take now for the seat to move
        in each env (module docstring); the games are not changed."""
        if not self._reset_once:
            raise RuntimeError("call reset() before bot_actions()")
        if name not in self._labellers:
            make_bot(name, self.game_name, 0).check_table(self.players)
            self._labellers[name] = [make_bot(name, self.game_name, env_seed(7, i))
                                     for i in range(self.num_envs)]
            self._plans[name] = [None] * self.num_envs
        out = np.zeros(self.num_envs, np.int64)
        for i, s in enumerate(self.sessions):
            rnd, taken = s.round, self._taken[i]
            plan = self._plans[name][i]
            if plan is None:  # asked once a move: the bot's view stays the same within it
                move = self._labellers[name][i].choose(rnd.view(rnd.current_player))
                plan = self._plans[name][i] = self.codec.encode(rnd, move)
            if plan[:len(taken)] != taken:  # the actions taken left the bot's move
                plan = next(p for p in (self.codec.encode(rnd, m) for m in rnd.legal_moves())
                            if p[:len(taken)] == taken)
            out[i] = plan[len(taken)]
        return out


__all__ = ["StepVectorEnv", "env_seed"]
