"""A match: the rounds of one game, with dealer rotation, totals and winners.

The first dealer is drawn at random and the deal moves one seat clockwise each round
(FA-10, FT-9). Every deck comes from a :class:`Shuffler`: seeded and reproducible for
simulations, tests and replays, or ``secrets``-backed for live games (C-3).
"""

from __future__ import annotations

import hashlib
import random
import secrets
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from parlour import cards
from parlour.cards import Card
from parlour.game import Game, Move, Round


class Shuffler:
    """Where decks and the first dealer come from.

    ``Shuffler(seed)`` is reproducible bit for bit; ``Shuffler.live()`` uses the
    operating system's cryptographic source (Fisher-Yates over ``secrets``).
    """

    def __init__(self, seed: int | str | None = 0) -> None:
        self.rng: random.Random = random.Random(seed)

    @classmethod
    def live(cls) -> Shuffler:
        s = cls.__new__(cls)
        s.rng = secrets.SystemRandom()
        return s

    def seat(self, players: int) -> int:
        return self.rng.randrange(players)

    def deck(self) -> list[Card]:
        d = list(range(52))
        self.rng.shuffle(d)
        return d


def commitment(deck: Sequence[Card], salt: str) -> str:
    """The deal commitment of RECORD.md: SHA-256 of ``salt + ":" + ",".join(deck)``."""
    text = salt + ":" + ",".join(cards.code(c) for c in deck)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


@dataclass
class Commit:
    """A round's deal commitment; ``salt`` stays None until the round is revealed."""

    commit: str
    salt: str | None = None


@dataclass
class Match:
    """A whole game of Fanti or Fan Tan: rules, seats and the rounds played so far."""

    game: Game
    rules: dict[str, Any]
    seats: list[str]
    first_dealer: int
    rounds: list[Round] = field(default_factory=list)
    commits: list[Commit | None] = field(default_factory=list)
    meta: dict[str, Any] | None = None

    @classmethod
    def new(cls, game: Game, players: int, rules: dict[str, Any] | None = None,
            seats: Sequence[str] | None = None, shuffler: Shuffler | None = None,
            meta: dict[str, Any] | None = None, deal: bool = True) -> Match:
        """A new match; the first dealer is drawn from ``shuffler`` and, with ``deal``,
        the first round dealt from it."""
        full = game.rules(players, rules)
        shuffler = shuffler or Shuffler(0)
        names = list(seats) if seats is not None else [f"Player {i + 1}" for i in range(players)]
        if len(names) != players:
            raise ValueError(f"{players} players need {players} seat names, not {len(names)}")
        m = cls(game, full, names, shuffler.seat(players), meta=meta)
        if deal:
            m.deal(shuffler.deck())
        return m

    @property
    def players(self) -> int:
        return len(self.seats)

    @property
    def next_dealer(self) -> int:
        return (self.first_dealer + len(self.rounds)) % self.players

    @property
    def current(self) -> Round | None:
        """The round in play, or None between rounds and at the end."""
        if self.rounds and not self.rounds[-1].is_over:
            return self.rounds[-1]
        return None

    @property
    def needs_deal(self) -> bool:
        return self.current is None and len(self.rounds) < self.rules["rounds"]

    @property
    def is_over(self) -> bool:
        return len(self.rounds) == self.rules["rounds"] and self.rounds[-1].is_over

    def deal(self, deck: Sequence[Card], commit: Commit | None = None) -> Round:
        """Start the next round from ``deck``."""
        if not self.needs_deal:
            raise ValueError("no round to deal: " + ("the game is over" if self.is_over
                                                     else "a round is in play"))
        r = self.game.new_round(self.rules, self.players, self.next_dealer, deck)
        self.rounds.append(r)
        self.commits.append(commit)
        return r

    def apply(self, move: Move) -> Round:
        """Apply a move in the round in play; IllegalMove leaves everything unchanged."""
        r = self.current
        if r is None:
            raise ValueError("no round in play")
        r.apply(move)
        return r

    def scores(self) -> list[list[int]]:
        return [s for r in self.rounds if (s := r.score()) is not None]

    @property
    def totals(self) -> list[int]:
        totals = [0] * self.players
        for s in self.scores():
            for i, v in enumerate(s):
                totals[i] += v
        return totals

    def earlier_views(self, seat: int, before: int | None = None) -> list[Any]:
        """``seat``'s views of the finished rounds (of the first ``before`` rounds when
        given), oldest first: what search bots and hints read each player by across the
        rounds of a game (:func:`parlour.bots.opponents.read_earlier`)."""
        rounds = self.rounds if before is None else self.rounds[:before]
        return [r.view(seat) for r in rounds if r.is_over]

    @property
    def winners(self) -> list[int] | None:
        """The winning seats once the game is over (several on a tie), else None."""
        if not self.is_over:
            return None
        return self.game.game_winners(self.rules, self.rounds, self.totals)

    def play_out(self, agents: Sequence[Any], shuffler: Shuffler) -> Match:
        """Play to the end with one agent per seat (anything with ``choose(view)``)."""
        while not self.is_over:
            if self.needs_deal:
                self.deal(shuffler.deck())
            r = self.rounds[-1]
            while not r.is_over:
                p = r.current_player
                r.apply(agents[p].choose(r.view(p)))
        return self

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, Match) and self.game.name == other.game.name
                and self.rules == other.rules and self.seats == other.seats
                and self.first_dealer == other.first_dealer and self.rounds == other.rounds)
