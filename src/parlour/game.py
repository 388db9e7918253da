"""The one interface both games implement, and everything else speaks to.

A :class:`Game` describes a card game: its name, its player range, its rule options,
and how to start a round from a deal. A :class:`Round` is the state of one round in
play, in the style of OpenSpiel: ``current_player``, ``legal_moves()``, ``apply()``,
``is_over``, ``score()``, and ``view(seat)`` -- what one seat may see. Bots, the
command line, the server, the research environments and the record reader use only
these, so a third game is one new module implementing them.

Moves are plain integers (fast to generate, hash and compare):

* bits 0-5: the card played (0..51), or :data:`PASS` (52);
* bits 6 and up: the mask of table cards it collects (Fanti; 0 for a discard).

So a Fan Tan move is simply its card, or :data:`PASS`, which is also its action id
in the research environments. Use :func:`play`, :func:`move_card`, :func:`move_take`
rather than the bit layout:

>>> from parlour import cards
>>> from parlour.game import move_card, move_take, play
>>> move = play(cards.parse("7D"), cards.mask_of([cards.parse("4C")]))
>>> cards.code(move_card(move)), cards.codes(move_take(move))
('7D', ['4C'])
>>> move_take(play(cards.parse("7D")))  # a discard, and every Fan Tan play
0

A round is played through the interface alone, whatever the game (here Fan Tan with
the deck in card order: the seat holding the 7D leads with it):

>>> from parlour.games import get_game
>>> fantan = get_game("fantan")
>>> r = fantan.new_round(fantan.rules(4), 4, 0, list(range(52)))
>>> r.current_player, [fantan.format_move(m) for m in r.legal_moves()]
(0, ['play 7D'])
>>> r.apply(r.legal_moves()[0])
>>> r.current_player, r.is_over
(1, False)

The deal is explicit: a round is created from the deck order and the dealer, and it
never holds a random generator, so copying a state cannot leak future draws.
"""

from __future__ import annotations

import abc
from collections.abc import Sequence
from typing import Any, ClassVar

from parlour import cards
from parlour.cards import Card, Mask
from parlour.options import OptionSet

Move = int
PASS: Move = 52


def play(card: Card, take: Mask = 0) -> Move:
    """The move that plays ``card`` and collects the table cards in ``take``."""
    return card | (take << 6)


def move_card(move: Move) -> Card:
    """The card a move plays (:data:`PASS` for a pass)."""
    return move & 63


def move_take(move: Move) -> Mask:
    """The table cards a move collects, as a mask."""
    return move >> 6


def is_pass(move: Move) -> bool:
    return move == PASS


class IllegalMove(ValueError):
    """A move the rules do not allow at this point. The state is left unchanged."""


class Round(abc.ABC):
    """One round in play. Subclasses keep their state in slots of plain ints and lists."""

    game: ClassVar[Game]

    players: int
    dealer: int
    rules: dict[str, Any]
    deck: tuple[Card, ...]
    history: list[tuple[int, Move]]
    """Every move of the round so far, as ``(seat, move)``; all of it is public."""

    @property
    @abc.abstractmethod
    def current_player(self) -> int:
        """The seat to move, or -1 when the round is over."""

    @property
    @abc.abstractmethod
    def is_over(self) -> bool:
        """Whether the round has ended. (The engines keep it as a plain attribute, which
        every playing loop reads once a move for a fraction of a property's cost.)"""

    @abc.abstractmethod
    def legal_moves(self) -> list[Move]:
        """The moves the current player may make, in a fixed order ([] when over)."""

    @abc.abstractmethod
    def why_illegal(self, move: Move) -> str | None:
        """Why ``move`` is not legal now, or None when it is."""

    def refusal(self, move: Move) -> tuple[str, dict[str, Any]] | None:
        """Why ``move`` is not legal now as a ``game`` catalog key and its facts
        (:mod:`parlour.refusals`: worded in the reader's language), or None when it is.
        An engine that keys its reasons overrides this; the default carries
        :meth:`why_illegal`'s words as they are."""
        reason = self.why_illegal(move)
        return None if reason is None else ("refusal.text", {"text": reason})

    def ended(self) -> str | None:
        """How an over round ended when it is not the usual way, in plain words (a
        record check names it), else None."""
        return None

    @abc.abstractmethod
    def _apply(self, move: Move) -> None:
        """Apply a move already known to be legal."""

    @abc.abstractmethod
    def score(self) -> list[int] | None:
        """The round's score per seat once it is over, else None."""

    def score_detail(self) -> dict[str, Any] | None:
        """The finished round's score item by item, or None while it is in play.

        A JSON-ready dict, the one explanation of a score that the terminal, ``replay``,
        the web page and the docs all show::

            {"seats": [{"seat": 0, "total": 8,
                        "items": [{"what": "Cards left", "detail": "4 cards",
                                   "points": 4, "rule": "FT-7"}, ...]}, ...],
             "notes": [{"text": "...", "rule": "FA-9", "seats": [0, 1]}, ...],
             "chips": None | {"ante": 1, "pot": 4,
                              "payments": [{"from": 1, "to": 0, "chips": 3,
                                            "what": "cards left"}, ...]}}

        Every seat's ``total`` is its :meth:`score` and is the sum of its items'
        ``points``. A game with catalogs gives each item, note and payment a ``key`` and
        its facts in ``params`` instead of words, and its presenter words them in the
        reader's language (:meth:`parlour.present.Presenter.worded`); a game without
        writes ``what``, ``detail`` and ``text`` itself. They are plain words for players (the
        engine does not know names: a note lists the ``seats`` it speaks of, so a page
        can put names in); ``rule`` is the ruling id, for help and docs. A game may add
        keys of its own to a seat entry (the cards behind the items).

        This default gives each seat one item, its round score; the games itemise.
        """
        score = self.score()
        if score is None:
            return None
        return {"seats": [{"seat": s, "total": p,
                           "items": [{"what": "Round score", "detail": "", "points": p,
                                      "rule": ""}]}
                          for s, p in enumerate(score)],
                "notes": [], "chips": None}

    def stock(self) -> Mask:
        """The cards not dealt yet, hidden from every seat (0 in a game that deals every
        card at once)."""
        return 0

    def leftovers(self) -> Mask:
        """Once the round is over, the cards left on the table that its rules hand to a
        seat (or to nobody) by themselves, announced to everyone (Fanti: FA-8); 0 in a
        game without such cards."""
        return 0

    def leftovers_to(self) -> int | None:
        """The seat the :meth:`leftovers` go to, or None (nobody)."""
        return None

    @abc.abstractmethod
    def hand(self, seat: int) -> Mask:
        """The cards in a seat's hand (hidden information: not for other seats)."""

    @abc.abstractmethod
    def view(self, seat: int) -> Any:
        """What ``seat`` may see (FT-10, FA-7): a game-specific view with ``to_json()``."""

    @abc.abstractmethod
    def copy(self) -> Round:
        """An independent copy, cheap enough for search."""

    @abc.abstractmethod
    def locations(self) -> list[Mask]:
        """Where every card is: a list of disjoint masks whose union is the full deck (the
        round's pack, where an option cuts the deck: FT-12, FA-11)."""

    def advance(self, move: Move) -> None:
        """Play ``move``, which the caller knows to be legal (one of ``legal_moves()``),
        without checking it: for search in worlds it owns. Engines may bind this
        straight to their ``_apply`` for speed."""
        self._apply(move)

    def apply(self, move: Move) -> None:
        """Play ``move`` for the current player.

        Raises :class:`IllegalMove` with the reason, leaving the state unchanged.
        """
        reason = self.why_illegal(move)
        if reason is not None:
            raise IllegalMove(reason)
        self._apply(move)

    def moves_json(self) -> list[dict[str, Any]]:
        return [{"seat": s, **self.game.move_to_json(m)} for s, m in self.history]

    def _key(self) -> tuple:
        return (self.game.name, self.players, self.dealer, self.deck,
                tuple(sorted(self.rules.items())), tuple(self.history))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Round) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        return (f"<{type(self).__name__} players={self.players} dealer={self.dealer} "
                f"moves={len(self.history)} over={self.is_over}>")


class Game(abc.ABC):
    """A card game: its identity, options and rules of play."""

    name: ClassVar[str]
    title: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    options: ClassVar[OptionSet]
    lower_is_better: ClassVar[bool] = False
    default_players: ClassVar[int | None] = None
    """Players at a table when a command is not told (None: :attr:`min_players`)."""

    @property
    def usual_players(self) -> int:
        """The one default table size of the game everywhere: the command line, the arena,
        the research environments (PettingZoo, Gymnasium, vector, OpenSpiel), training."""
        return self.default_players or self.min_players
    rating_sizes: ClassVar[tuple[tuple[int, int], ...]] = ()
    """Table sizes rated apart, as ``(fewest, most)`` players (the player count changes
    the game); empty: one rating for every size (:mod:`parlour.server.ratings`)."""

    def check_players(self, players: int) -> None:
        if type(players) is not int or not self.min_players <= players <= self.max_players:
            raise ValueError(
                f"{self.title} takes {self.min_players} to {self.max_players} players, "
                f"not {players}"
            )

    def rules(self, players: int, given: dict[str, Any] | None = None) -> dict[str, Any]:
        """Every option for this player count: defaults overlaid with ``given``."""
        self.check_players(players)
        rules = self.options.resolve(players, given)
        self.check_rules(rules, players)
        return rules

    def check_rules(self, rules: dict[str, Any], players: int) -> None:
        """Raise :class:`~parlour.options.OptionError` when options that are each valid
        do not go together with this player count (a cut pack too small for it)."""
        return None

    @abc.abstractmethod
    def new_round(self, rules: dict[str, Any], players: int, dealer: int,
                  deck: Sequence[Card]) -> Round:
        """The round dealt by ``dealer`` from ``deck`` (52 cards, first dealt first; where
        an option cuts the pack, its cards are dealt in this order, the others set aside)."""

    def pack(self, rules: dict[str, Any]) -> Mask:
        """The cards a round under ``rules`` deals (the full deck unless an option cuts it)."""
        return cards.FULL_DECK

    def deal_groups(self, rules: dict[str, Any], players: int, dealer: int) -> list[int]:
        """For each position of the pack's deal order, where that card goes, as a group
        number; cards whose order within a group changes nothing share it (a seat's hand
        of one deal). The research environments draw a cut pack a group at a time."""
        return list(range(self.pack(rules).bit_count()))

    def max_round_moves(self, players: int) -> int | None:
        """The most moves a round can have, from the rules: what the server's cap on a
        table's moves is derived from (None: a game that does not say)."""
        return None

    def public_passes(self, rules: dict[str, Any]) -> bool:
        """Whether a pass tells everyone that nothing else fitted (then the server passes
        for a player by itself, announced). False where the rules let a player pass
        while holding a playable card (Fan Tan's ``strict: false``, FT-5): nobody may
        learn whether a pass was forced, not from the messages nor their timing."""
        return True

    def lower_wins(self, rules: dict[str, Any]) -> bool:
        """Whether the lowest total wins under these rules."""
        return self.lower_is_better

    def winners(self, rules: dict[str, Any], totals: Sequence[int]) -> list[int]:
        """Seats with the best total, ascending (several on a tie)."""
        best = min(totals) if self.lower_wins(rules) else max(totals)
        return [s for s, t in enumerate(totals) if t == best]

    def game_winners(self, rules: dict[str, Any], rounds: Sequence[Round],
                     totals: Sequence[int]) -> list[int]:
        """The winners of a finished game, given its rounds and totals.

        By default the best totals (:meth:`winners`); a game whose rules name the
        winner another way in some case overrides this (Fan Tan, FT-9).
        """
        return self.winners(rules, totals)

    def check_deal(self, players: int, dealer: int) -> None:
        """Raise ``ValueError`` unless ``players`` is in range and ``dealer`` is a seat."""
        self.check_players(players)
        if type(dealer) is not int or not 0 <= dealer < players:
            raise ValueError(f"the dealer must be a seat from 0 to {players - 1}, not {dealer!r}")

    # --- moves as JSON and as text -------------------------------------------------

    @abc.abstractmethod
    def move_to_json(self, move: Move) -> dict[str, Any]:
        """The move's keys in a record (without ``seat``)."""

    @abc.abstractmethod
    def move_from_json(self, data: dict[str, Any]) -> Move:
        """A move from its record keys (without ``seat``); ValueError if malformed."""

    @abc.abstractmethod
    def format_move(self, move: Move) -> str:
        """A short human description, e.g. ``play 7D`` or ``play 5C take 6H``."""

    def card_name(self, card: Card) -> str:
        """How this game names a card to people."""
        return cards.symbol(card)


DECK_ERROR = "the deck must hold each of the 52 cards exactly once"
_DECK_IN_ORDER = list(range(cards.DECK_SIZE))


def check_deck(deck: Sequence[Card]) -> tuple[Card, ...]:
    """A deck as a tuple, after checking it is a permutation of the 52 cards."""
    t = tuple(deck)
    # Sorting in C is about 3x cheaper than building the mask card by card, and this
    # runs for every round dealt.
    if len(t) != 52 or sorted(t) != _DECK_IN_ORDER:
        raise ValueError(DECK_ERROR)
    return t
