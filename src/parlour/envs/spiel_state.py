"""The state of an OpenSpiel parlour game, free of ``pyspiel`` so it copies fast.

OpenSpiel clones a Python state by making a fresh initial state and deep-copying each
attribute, so :class:`SpielCore` is the one attribute and copies itself in one step.
Its decision structure, chance included:

1. a chance node draws the first dealer (``n`` equally likely seats, FA-10, FT-9);
2. before every round, 52 chance nodes draw the deck one card at a time (outcome =
   card id, uniform over the cards not drawn yet): the deck order *is* the deal
   (C-2, FT-1, FA-3). Nobody is told the cards; each seat's observations show only
   its own. Later deals of a round (Fanti's) come from this same deck, so search must
   resample the undealt part too (:mod:`.resample`) -- no generator is ever stored in
   a state;
3. the players' actions, encoded as in :mod:`.encoding`.

A game ends after its ``rounds``. A round that reaches ``turn_limit`` actions ends
the game at once with every return 0 (only reachable under Fan Tan ``strict: false``,
where seats may withhold for ever; each game's ``round_length`` bounds a round).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from parlour import cards
from parlour.envs.encoding import Codec, Pending
from parlour.envs.kit import EnvParts, env_parts
from parlour.envs.session import game_result
from parlour.game import Game, Round
from parlour.games import get_game
from parlour.match import Match

CHANCE = -1
TERMINAL = -4


@dataclass(frozen=True)
class Spec:
    """What stays fixed for one game instance: game, players, rules, limits."""

    game: Game
    players: int
    rules: dict[str, Any]
    turn_limit: int
    codec: Codec

    @classmethod
    def make(cls, game_name: str, params: dict[str, Any]) -> Spec:
        game = get_game(game_name)
        n = int(params["players"])
        given = {k: params[k] for k in game.options.names() if k in params}
        if given.get("rounds") == 0:
            del given["rounds"]  # 0 = the rules' default for this player count
        rules = game.rules(n, given)
        return cls(game, n, rules, int(params.get("turn_limit", 0)), env_parts(game.name).codec)

    @property
    def parts(self) -> EnvParts:
        """The game's env part (looked up, not held: a spec is pickled with a state)."""
        return env_parts(self.game.name)

    @property
    def round_length(self) -> int:
        """Most player actions in one round."""
        return self.parts.round_length(self.players, self.rules, self.turn_limit)

    @property
    def max_game_length(self) -> int:
        return self.rules["rounds"] * self.round_length

    @property
    def max_chance_nodes(self) -> int:
        return 1 + 52 * self.rules["rounds"]


class SpielCore:
    """Everything that changes during an OpenSpiel game (see the module docstring)."""

    __slots__ = ("spec", "match", "deck", "pending", "turns", "truncated")

    def __init__(self, spec: Spec) -> None:
        self.spec = spec
        self.match: Match | None = None
        self.deck: list[int] = []
        self.pending: Pending | None = None
        self.turns = 0
        self.truncated = False

    def __deepcopy__(self, memo: dict) -> SpielCore:
        new = SpielCore.__new__(SpielCore)
        new.spec = self.spec
        m = self.match
        if m is None:
            new.match = None
        else:
            rounds = list(m.rounds)
            if rounds and not rounds[-1].is_over:
                rounds[-1] = rounds[-1].copy()
            new.match = Match(m.game, m.rules, m.seats, m.first_dealer, rounds,
                              list(m.commits), m.meta)
        new.deck = self.deck.copy()
        new.pending = self.pending
        new.turns = self.turns
        new.truncated = self.truncated
        return new

    def __getstate__(self) -> dict[str, Any]:
        return {k: getattr(self, k) for k in self.__slots__}

    def __setstate__(self, state: dict[str, Any]) -> None:
        for k, v in state.items():
            setattr(self, k, v)

    # --- the OpenSpiel view -----------------------------------------------------------

    @property
    def round(self) -> Round | None:
        return self.match.rounds[-1] if self.match and self.match.rounds else None

    def is_terminal(self) -> bool:
        return self.truncated or (self.match is not None and self.match.is_over)

    def current_player(self) -> int:
        if self.is_terminal():
            return TERMINAL
        if self.match is None or self.match.needs_deal:
            return CHANCE
        return self.match.rounds[-1].current_player

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self.match is None:
            n = self.spec.players
            return [(s, 1.0 / n) for s in range(n)]
        left = [c for c in range(52) if c not in self.deck]
        return [(c, 1.0 / len(left)) for c in left]

    def legal_actions(self) -> list[int]:
        rnd = self.round
        assert rnd is not None
        return self.spec.codec.legal_actions(rnd, self.pending)

    def apply(self, action: int) -> None:
        spec = self.spec
        if self.match is None:
            seats = [f"Player {i + 1}" for i in range(spec.players)]
            self.match = Match(spec.game, spec.rules, seats, action)
            return
        if self.match.needs_deal:
            self.deck.append(action)
            if len(self.deck) == 52:
                self.match.deal(self.deck)
                self.deck = []
                self.turns = 0
            return
        rnd = self.match.rounds[-1]
        self.pending, move = spec.codec.decode(rnd, self.pending, action)
        self.turns += 1
        if move is not None:
            rnd.apply(move)
        if spec.turn_limit and self.turns >= spec.turn_limit and not rnd.is_over:
            self.truncated = True

    def returns(self) -> list[float]:
        if self.match is not None and self.match.is_over and not self.truncated:
            return game_result(self.match)
        return [0.0] * self.spec.players

    def action_to_string(self, player: int, action: int) -> str:
        if player == CHANCE:
            if self.match is None:
                return f"first dealer: seat {action}"
            return f"deal {cards.code(action)}"
        return self.spec.codec.action_name(action)

    def __str__(self) -> str:
        """The whole state, every hand included (for debugging, not for players)."""
        if self.match is None:
            return "first dealer not drawn"
        m = self.match
        lines = [f"round {len(m.rounds)}/{m.rules['rounds']} totals {m.totals}"]
        if self.deck:
            lines.append(f"dealing: {' '.join(cards.codes(cards.mask_of(self.deck)))}")
        rnd = self.round
        if rnd is not None:
            for s in range(m.players):
                lines.append(f"seat {s}: {' '.join(cards.codes(rnd.hand(s)))}")
            lines.append("moves: " + " ".join(f"{s}:{m.game.format_move(x)}"
                                              for s, x in rnd.history))
        if self.pending is not None:
            lines.append(f"choosing: {cards.code(self.pending.card)} "
                         f"with {' '.join(cards.codes(self.pending.chosen))}")
        if self.truncated:
            lines.append("stopped at the turn limit")
        return "\n".join(lines)
