"""OpenSpiel games ``python_NAME`` (``python_fantan``, ``python_fanti``), registered on import.

Every registered game with an ``env`` part (:mod:`parlour.envs.kit`) becomes one.

>>> import pyspiel
>>> import parlour.envs.openspiel
>>> game = pyspiel.load_game("python_fantan", {"players": 4, "strict": False})
>>> state = game.new_initial_state()        # chance: first dealer, then 52 cards

Game parameters: ``players`` (default: the game's ``usual_players``, Fan Tan 4,
Fanti 2, as everywhere), every rule option of the game (``rounds`` 0 = the rules' default for the
player count), and the env part's ``spiel_params`` (Fan Tan: ``turn_limit``,
:mod:`.spiel_state`). Chance, actions, observers and returns:
:mod:`.spiel_state`, :mod:`.encoding`, :mod:`.spiel_observer`; returns are the
zero-sum game result of :func:`parlour.envs.session.game_result`, at the end only.

Search: use OpenSpiel's *Python* bots (``open_spiel.python.algorithms.ismcts``,
``mcts``) with :func:`parlour.envs.spiel_bots.ismcts_bot`, which installs the
resampler of :mod:`.resample`. OpenSpiel's C++ MCTS and ISMCTS bots cannot run these
games (``docs/research.md``, "OpenSpiel's C++ search").
"""

from __future__ import annotations

from typing import Any

import pyspiel

from parlour.envs.spiel_observer import ParlourObserver
from parlour.envs.spiel_state import Spec, SpielCore
from parlour.game import Game
from parlour.games import KITS


def _params(game: Game, players: int, extra: dict[str, Any]) -> dict[str, Any]:
    params: dict[str, Any] = {"players": players}
    for opt in game.options:
        params[opt.name] = 0 if opt.name == "rounds" else opt.default_for(players)
    params.update(extra)
    return params


def _game_type(game: Game, short_name: str, players: int, extra: dict[str, Any]
               ) -> pyspiel.GameType:
    return pyspiel.GameType(
        short_name=short_name,
        long_name=f"Python {game.title} (parlour)",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=game.max_players,
        min_num_players=game.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=_params(game, players, extra),
    )


class ParlourSpielGame(pyspiel.Game):
    """A parlour game as an OpenSpiel game; subclassed per game."""

    game: Game
    game_type: pyspiel.GameType
    num_actions: int

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = dict(params or {})
        full = {**{k: v for k, v in self.game_type.parameter_specification.items()}, **params}
        self.spec = Spec.make(self.game.name, full)
        n = self.spec.players
        info = pyspiel.GameInfo(
            num_distinct_actions=self.num_actions,
            max_chance_outcomes=self.spec.max_chance_outcomes,
            num_players=n,
            min_utility=-1.0 / (n - 1),
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=self.spec.max_game_length,
        )
        super().__init__(self.game_type, info, params)

    def new_initial_state(self) -> ParlourSpielState:
        return ParlourSpielState(self)

    def max_chance_nodes_in_history(self) -> int:
        return self.spec.max_chance_nodes

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> ParlourObserver:
        return ParlourObserver(self.spec, iig_obs_type, params)


class ParlourSpielState(pyspiel.State):
    """An OpenSpiel state; all of it lives in ``self.core`` (a :class:`SpielCore`)."""

    def __init__(self, game: ParlourSpielGame) -> None:
        super().__init__(game)
        self.core = SpielCore(game.spec)

    def current_player(self) -> int:
        return self.core.current_player()

    def _legal_actions(self, player: int) -> list[int]:
        return self.core.legal_actions()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return self.core.chance_outcomes()

    def _apply_action(self, action: int) -> None:
        self.core.apply(int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        return self.core.action_to_string(player, action)

    def is_terminal(self) -> bool:
        return self.core.is_terminal()

    def returns(self) -> list[float]:
        return self.core.returns()

    def __str__(self) -> str:
        return str(self.core)


GAMES: dict[str, type[ParlourSpielGame]] = {}
"""The OpenSpiel game class of every registered game with an env part, by game name."""


def _spiel_game(game: Game) -> type[ParlourSpielGame]:
    from parlour.envs.kit import env_parts

    parts = env_parts(game.name)
    return type(f"{game.title.replace(' ', '')}SpielGame", (ParlourSpielGame,), {
        "game": game,
        "num_actions": parts.codec.num_actions,
        "game_type": _game_type(game, f"python_{game.name}", game.usual_players,
                                parts.spiel_params),
        "__module__": __name__,
    })


for _kit in list(KITS.values()):
    if _kit.attr("env", "ENV") is None:
        continue
    _cls = GAMES[_kit.name] = _spiel_game(_kit.game)
    if _cls.game_type.short_name not in pyspiel.registered_names():
        pyspiel.register_game(_cls.game_type, _cls)
