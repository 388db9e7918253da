"""Policies as players: any ``policy(observation, mask) -> action`` as a parlour bot.

A *policy* maps one seat's observation vector (:mod:`.observation`) and its legal-action
mask (``int8``, the game's codec, :mod:`.encoding`) to one action id. :class:`PolicyBot`
plays one through the ordinary :class:`parlour.bots.base.Bot` interface -- so in
``parlour tournament``, ``parlour play --bots``, the arena and as a server level -- and
the Gymnasium environment takes one as an opponent.

A bot sees only its seat's view (FT-10, FA-7), not the match around it, so the
observation it builds holds no game totals: ``behind`` is all zeros and
``rounds_left`` 0, exactly as in a one-round episode (``episode="round"``), which is how
the shipped ``learned`` policies are trained. A move that takes several actions (a
Fanti collection) is asked for one action at a time, as in the environments.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from parlour.bots.base import Bot
from parlour.envs.encoding import Pending, codec_for
from parlour.envs.observation import encoder_for
from parlour.game import Move

Policy = Callable[[np.ndarray, np.ndarray], int]
"""``policy(observation, mask) -> action id``."""


class _ViewRound:
    """A round seen through one seat's view: what codecs and encoders ask of a round."""

    def __init__(self, view: Any) -> None:
        self._view = view
        self.rules = view.rules
        self.table = view.table
        self.players = view.players
        self.current_player = view.seat
        self.is_over = False

    def hand(self, seat: int) -> int:
        if seat != self._view.seat:
            raise ValueError("a bot sees only its own hand")
        return int(self._view.hand)

    def legal_moves(self) -> list[Move]:
        return list(self._view.legal)

    def why_illegal(self, move: Move) -> str | None:
        return None if move in self._view.legal else "not a legal move now"

    def view(self, seat: int) -> Any:
        return self._view


class ViewMatch:
    """A match of one round holding only the view (no totals: see the module docstring)."""

    def __init__(self, game: Any, view: Any) -> None:
        self.game = game
        self.rules = {**view.rules, "rounds": 1}
        self.players = view.players
        self.totals = [0] * view.players
        self.rounds = [_ViewRound(view)]


class PolicyBot(Bot):
    """A parlour bot that asks ``policy(observation, mask)`` for every action."""

    name = "policy"

    def __init__(self, game: str, policy: Policy, seed: int | None = 0,
                 observation: str = "vector") -> None:
        super().__init__(game, seed)
        self.policy = policy
        self.info_state = observation == "infostate"
        self.codec = codec_for(self.game.name)
        self._encoders: dict[int, Any] = {}

    def _encoder(self, players: int) -> Any:
        enc = self._encoders.get(players)
        if enc is None:
            enc = self._encoders[players] = encoder_for(self.game.name, players, self.info_state)
        return enc

    def choose(self, view: Any) -> Move:
        match = ViewMatch(self.game, view)
        rnd = match.rounds[0]
        enc = self._encoder(view.players)
        pending: Pending | None = None
        for _ in range(64):  # a move takes a few actions at most
            obs = enc.encode(match, view.seat, pending)  # type: ignore[arg-type]
            mask = np.zeros(self.codec.num_actions, np.int8)
            mask[self.codec.legal_actions(rnd, pending)] = 1  # type: ignore[arg-type]
            action = int(self.policy(obs, mask))
            if not 0 <= action < len(mask) or not mask[action]:
                raise ValueError(f"the policy chose action {action}, which is not legal now")
            pending, move = self.codec.decode(rnd, pending, action)  # type: ignore[arg-type]
            if move is not None:
                return move
        raise RuntimeError("the policy did not finish its move")


def first_legal(observation: np.ndarray, mask: np.ndarray) -> int:
    """The lowest legal action: a trivial policy (for tests and examples)."""
    return int(np.flatnonzero(mask)[0])
