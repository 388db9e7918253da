"""The ``learned`` bot: a small trained policy network, played with numpy alone.

A game ships its trained weights in its own folder as ``learned_<P>p.npz`` (for the
player count ``P`` it was trained at); ``parlour train`` (:mod:`.training`: imitation of
the compiled ``heuristic``, then PPO) writes them (``docs/research.md``, "Training a
baseline"). The network is a multilayer perceptron
on the environments' observation vector (:mod:`.observation`, one-round episodes: see
:mod:`.policy`): two ``tanh`` layers, then one logit per action id; the bot plays the
legal action with the highest logit (no randomness, so the seed changes nothing). At a
player count without shipped weights it is refused in plain words (``check_table``, and
``choose`` too): it never plays another bot's moves under its name.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from parlour.bots.base import Bot
from parlour.envs.policy import PolicyBot
from parlour.games import get_kit

LAYERS = ("w1", "b1", "w2", "b2", "wp", "bp")
"""The arrays a weights file holds for play (training adds the value head ``wv``, ``bv``)."""


class MLPPolicy:
    """``policy(observation, mask) -> action``: the argmax of the masked logits."""

    def __init__(self, weights: dict[str, np.ndarray]) -> None:
        missing = [k for k in LAYERS if k not in weights]
        if missing:
            raise ValueError(f"the weights lack {', '.join(missing)}")
        self.w = {k: np.asarray(weights[k], np.float32) for k in LAYERS}
        self.size = self.w["w1"].shape[0]
        self.actions = self.w["wp"].shape[1]

    def logits(self, obs: np.ndarray) -> np.ndarray:
        w = self.w
        h = np.tanh(obs @ w["w1"] + w["b1"])
        h = np.tanh(h @ w["w2"] + w["b2"])
        return h @ w["wp"] + w["bp"]

    def __call__(self, obs: np.ndarray, mask: np.ndarray) -> int:
        z = self.logits(np.asarray(obs, np.float32))
        return int(np.argmax(np.where(np.asarray(mask) > 0, z, -np.inf)))


def weights_path(game: str, players: int) -> Path:
    """Where a game's shipped weights for ``players`` players live."""
    return get_kit(game).folder / f"learned_{players}p.npz"


def shipped(game: str) -> list[int]:
    """The player counts a game has shipped weights for."""
    folder = get_kit(game).folder
    return sorted(int(p.stem.split("_")[1][:-1]) for p in folder.glob("learned_*p.npz"))


def load(game: str, players: int) -> MLPPolicy:
    """The shipped policy of a game at a player count (ValueError if there is none)."""
    path = weights_path(game, players)
    if not path.is_file():
        have = ", ".join(f"{p} players" for p in shipped(game)) or "no player count"
        raise ValueError(f"the learned bot has weights for {get_kit(game).game.title} with "
                         f"{have} only, not {players}; enter your own weights as a "
                         f"PATH.npz bot (docs/arena.md)")
    with np.load(path) as data:
        return MLPPolicy({k: data[k] for k in data.files})


class LearnedBot(PolicyBot):
    """The shipped policy of the game, for the player count of the table it sits at.

    A table size with no shipped weights is refused (:func:`shipped` says which have).
    """

    name = "learned"

    def __init__(self, game: str, seed: int | None = 0) -> None:
        super().__init__(game, self._play, seed)
        self._policies: dict[int, MLPPolicy] = {}
        self._players = 0

    def _play(self, obs: np.ndarray, mask: np.ndarray) -> int:
        return self._policies[self._players](obs, mask)

    def check_table(self, players: int) -> None:
        if players not in self._policies:
            self._policies[players] = load(self.game.name, players)

    def choose(self, view: object) -> int:
        players = view.players  # type: ignore[attr-defined]
        self.check_table(players)
        self._players = players
        return super().choose(view)


def learned_bot(game: str, seed: int | None = 0) -> Bot:
    """Factory for the bots registry: ``learned`` for any game with shipped weights."""
    return LearnedBot(game, seed)
