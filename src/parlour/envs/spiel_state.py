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
   Where an option cuts the pack (the solvable variants, FT-12 and FA-11), a chance
   node draws a whole *group* of cards at once instead (a seat's hand of one deal, the
   opening table: :meth:`parlour.game.Game.deal_groups`): outcome = the index of the
   group's set among the sets of the cards left (``itertools.combinations`` order),
   uniform, so each deal is one chance path and the tree counts deals, not orders.
   The cards outside the pack follow in ascending order (they are set aside);
3. the players' actions, encoded as in :mod:`.encoding`.

A game ends after its ``rounds``. A round that reaches ``turn_limit`` actions ends
the game at once with every return 0 (only reachable under Fan Tan ``strict: false``,
where seats may withhold for ever; each game's ``round_length`` bounds a round).
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from functools import cached_property
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

    @cached_property
    def pack(self) -> list[int]:
        """The cards dealt, ascending (all 52 unless an option cuts the pack)."""
        return cards.cards_of(self.game.pack(self.rules))

    @property
    def grouped(self) -> bool:
        """Whether chance deals by groups (a cut pack) rather than card by card."""
        return len(self.pack) < 52

    def groups(self, dealer: int) -> list[list[int]]:
        """The pack's deal positions by group, in the order chance fills them."""
        by: dict[int, list[int]] = {}
        for i, g in enumerate(self.game.deal_groups(self.rules, self.players, dealer)):
            by.setdefault(g, []).append(i)
        return list(by.values())

    @property
    def max_chance_outcomes(self) -> int:
        if not self.grouped:
            return 52
        most = self.players
        for dealer in range(self.players):
            left = len(self.pack)
            for positions in self.groups(dealer):
                most = max(most, math.comb(left, len(positions)))
                left -= len(positions)
        return most

    @property
    def max_chance_nodes(self) -> int:
        per_round = len(self.groups(0)) if self.grouped else 52
        return 1 + per_round * self.rules["rounds"]


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
        if self.spec.grouped:
            left, k = self._group_draw()
            count = math.comb(len(left), k)
            return [(i, 1.0 / count) for i in range(count)]
        left = [c for c in range(52) if c not in self.deck]
        return [(c, 1.0 / len(left)) for c in left]

    def _group_draw(self) -> tuple[list[int], int]:
        """A cut pack's next chance node: the cards left, and how many it draws."""
        assert self.match is not None
        groups = self.spec.groups(self.match.next_dealer)
        drawn = set(self.deck)
        return [c for c in self.spec.pack if c not in drawn], len(groups[self._groups_done()])

    def _groups_done(self) -> int:
        assert self.match is not None
        done, size = 0, 0
        for positions in self.spec.groups(self.match.next_dealer):
            size += len(positions)
            if size > len(self.deck):
                break
            done += 1
        return done

    def _group_cards(self, action: int) -> tuple[int, ...]:
        left, k = self._group_draw()
        return next(itertools.islice(itertools.combinations(left, k), action, None))

    def _deal_group(self, action: int) -> None:
        """Put the drawn set into its group's positions; deal when the pack is full.
        ``self.deck`` holds the drawn cards group after group; the deck dealt puts each
        group's cards, ascending, into its positions, then the cards set aside."""
        assert self.match is not None
        self.deck.extend(self._group_cards(action))
        spec = self.spec
        if len(self.deck) < len(spec.pack):
            return
        order = [0] * len(spec.pack)
        at = 0
        for positions in spec.groups(self.match.next_dealer):
            for i in positions:
                order[i] = self.deck[at]
                at += 1
        pack = set(spec.pack)
        self.match.deal(order + [c for c in range(52) if c not in pack])
        self.deck = []
        self.turns = 0

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
            if spec.grouped:
                self._deal_group(action)
                return
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
            if self.spec.grouped:
                return "deal " + " ".join(cards.code(c) for c in self._group_cards(action))
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
