"""One game in play behind a research environment.

A :class:`Session` wraps a :class:`parlour.match.Match` with what the environments
add: action ids (:mod:`.encoding`), observation vectors (:mod:`.observation`), the
Fanti play in progress, rewards, and the next deal. PettingZoo and Gymnasium both
drive one; so the two agree move for move, and the match underneath is an ordinary
one: ``parlour.record.dump(session.match)`` is its game record.

Observations (``observation``): ``"vector"`` (default) or ``"infostate"`` (perfect
recall of the round, :data:`OBSERVATIONS`).

Episodes (``episode``): ``"game"`` plays every round of the rules (``rounds``);
``"round"`` plays a single round, which is the same as ``rounds=1`` (FT-9: the
round's winner is then the game's winner).

Rewards (``reward``), per seat, always "more is better":

* ``"result"`` (default): 0 until the game ends, then the zero-sum game result --
  each of ``k`` winners gets ``(n-k) / (k (n-1))``, every other seat ``-1/(n-1)``
  (a sole winner +1; everyone tied: 0).
* ``"score"``: at the end of each round, the seat's round score, signed so more is
  better -- Fan Tan points are negated (FT-7, FT-8), Fan Tan chips and Fanti points
  (FA-9) are taken as they are. Summed over an episode this is the final total.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from parlour.envs.encoding import Pending, codec_for
from parlour.envs.observation import encoder_for
from parlour.game import Move, Round
from parlour.games import get_game
from parlour.match import Match, Shuffler


def action_id(action: Any) -> int:
    """An action as the ``int`` id it names: an ``int``, a numpy integer, a one-element
    integer array, or a float with no fraction (3.0). Anything else is a caller's
    mistake, not an illegal move, and raises ``TypeError`` -- ``int(3.5)`` would have
    quietly played action 3."""
    if type(action) is int:  # the common case, without numpy's conversion
        return action
    arr = np.asarray(action)
    if arr.size == 1 and (arr.dtype.kind in "iu" or (
            arr.dtype.kind == "f" and float(arr.reshape(())).is_integer())):
        return int(arr.reshape(()))
    raise TypeError(f"an action is a whole number (an action id), not {action!r}")

EPISODES = ("game", "round")
REWARDS = ("result", "score")
OBSERVATIONS = ("vector", "infostate")
"""``"vector"``: what the seat sees now; ``"infostate"``: that plus perfect recall of the
round's public history (the game's ``info_state`` fields, :mod:`.observation`)."""


def game_result(match: Match) -> list[float]:
    """The zero-sum result of a finished match (module docstring)."""
    n = match.players
    winners = match.winners or []
    k = len(winners)
    if k == n:
        return [0.0] * n
    win = (n - k) / (k * (n - 1))
    return [win if s in winners else -1.0 / (n - 1) for s in range(n)]


def signed_score(match: Match, score: list[int]) -> list[float]:
    """A round score with its sign set so that more is better."""
    sign = -1.0 if match.game.lower_wins(match.rules) else 1.0
    return [sign * x for x in score]


def resolve_rules(game_name: str, players: int, rules: dict[str, Any] | None,
                  episode: str) -> dict[str, Any]:
    """The full rules of an environment, checked, with ``episode`` applied."""
    if episode not in EPISODES:
        raise ValueError(f"episode must be one of {EPISODES}, not {episode!r}")
    given = dict(rules or {})
    if episode == "round":
        if given.get("rounds", 1) != 1:
            raise ValueError('episode="round" plays one round: leave out "rounds" or set it to 1')
        given["rounds"] = 1
    return get_game(game_name).rules(players, given)


class Session:
    """A match in play, seen through action ids and observation vectors."""

    def __init__(self, game_name: str, players: int | None, rules: dict[str, Any] | None = None,
                 episode: str = "game", reward: str = "result",
                 observation: str = "vector") -> None:
        if reward not in REWARDS:
            raise ValueError(f"reward must be one of {REWARDS}, not {reward!r}")
        if observation not in OBSERVATIONS:
            raise ValueError(f"observation must be one of {OBSERVATIONS}, not {observation!r}")
        self.game = get_game(game_name)
        players = get_game(game_name).usual_players if players is None else players
        self.players = players
        self.rules = resolve_rules(self.game.name, players, rules, episode)
        self.episode = episode
        self.reward = reward
        self.codec = codec_for(self.game.name)
        self.encoder = encoder_for(self.game.name, players, observation == "infostate")
        self.match: Match | None = None
        self.pending: Pending | None = None
        self.shuffler = Shuffler(None)

    # --- state ------------------------------------------------------------------------

    def reset(self, shuffler: Shuffler) -> None:
        """Start a new match; its first dealer and every deck come from ``shuffler``."""
        self.shuffler = shuffler
        self.match = Match.new(self.game, self.players, self.rules, shuffler=shuffler)
        self.pending = None

    @property
    def round(self) -> Round:
        assert self.match is not None, "reset() first"
        return self.match.rounds[-1]

    @property
    def is_over(self) -> bool:
        return self.match is not None and self.match.is_over

    @property
    def current_seat(self) -> int:
        """The seat to act, or -1 once the game is over."""
        return -1 if self.is_over else self.round.current_player

    def legal_actions(self) -> list[int]:
        if self.is_over:
            return []
        return self.codec.legal_actions(self.round, self.pending)

    def action_mask(self, seat: int) -> np.ndarray:
        """``int8`` mask over the action ids: the legal ones for the seat to act,
        all zeros for any other seat."""
        mask = np.zeros(self.codec.num_actions, np.int8)
        if seat == self.current_seat:
            mask[self.legal_actions()] = 1
        return mask

    def observe(self, seat: int) -> np.ndarray:
        return self.encoder.encode(self.match, seat, self.pending)

    # --- acting -----------------------------------------------------------------------

    def step(self, action: int) -> list[float]:
        """Play one action id for the seat to act; the rewards it brings every seat.

        Raises ``ValueError`` (state unchanged) when the action is not legal.
        """
        if self.is_over:
            raise ValueError("the game is over")
        pending, move = self.codec.decode(self.round, self.pending, action_id(action))
        self.pending = pending
        if move is None:
            return [0.0] * self.players
        return self.apply_move(move)

    def apply_move(self, move: Move) -> list[float]:
        """Play a whole engine move (a bot's) for the seat to act; the rewards."""
        assert self.match is not None
        if self.pending is not None:
            raise ValueError("a Fanti play is half chosen: finish it with step()")
        rnd = self.match.apply(move)
        rewards = [0.0] * self.players
        if not rnd.is_over:
            return rewards
        if self.reward == "score":
            rewards = signed_score(self.match, rnd.score() or [])
        if self.match.needs_deal:
            self.match.deal(self.shuffler.deck())
        elif self.match.is_over and self.reward == "result":
            rewards = game_result(self.match)
        return rewards
