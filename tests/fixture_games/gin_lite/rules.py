"""Gin Lite rules engine: draw from the stock, discard one card, collect one suit.

The rules (ids GL-n, cited in the fixture's tests the way the products cite RULINGS):

* GL-1 2 to 4 players; one 52-card deck. Deck card ``i`` for ``i < hand * players``
  goes to seat ``(dealer + 1 + i) % players`` (option ``hand``: 7 or 5 cards each);
  the rest is the stock, face down, drawn from the front of the deck order.
* GL-2 The seat after the dealer plays first, then clockwise. A turn is: draw the top
  card of the stock (the engine draws it as the turn starts, so the player to move
  holds ``hand + 1`` cards), then discard one card face up. The move is the discard.
* GL-3 The round ends at once when a discard leaves a hand of one suit ("gin"), or
  when a turn would start with the stock empty.
* GL-4 Each seat scores the number of cards in its longest suit; a player who went
  gin adds 3 (option ``gin_bonus``: ``true`` | ``false``). Highest total wins.
* GL-5 Discards are public; each player sees their own hand, every hand's size and
  how many cards the stock holds, never another hand or the stock's order.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from parlour import cards
from parlour.cards import Card, Mask
from parlour.game import Game, Move, Round, check_deck
from parlour.options import Option, OptionSet

GIN_BONUS = 3


def longest_suit(hand: Mask) -> int:
    """GL-4: the number of cards in the hand's longest suit."""
    return max((hand & m).bit_count() for m in cards.SUIT_MASKS)


def is_gin(hand: Mask) -> bool:
    """GL-3: a non-empty hand of one suit."""
    return hand != 0 and any(hand & ~m == 0 for m in cards.SUIT_MASKS)


@dataclass(frozen=True)
class GinLiteView:
    """What one seat sees (GL-5)."""

    seat: int
    players: int
    dealer: int
    rules: dict[str, Any]
    hand: Mask
    discards: Mask
    hand_counts: tuple[int, ...]
    stock_left: int
    history: tuple[tuple[int, Move], ...]
    current_player: int
    legal: tuple[Move, ...]
    score: tuple[int, ...] | None
    gin: int

    def to_json(self) -> dict[str, Any]:
        return {
            "game": GIN_LITE.name, "seat": self.seat, "players": self.players,
            "dealer": self.dealer, "rules": self.rules, "hand": cards.codes(self.hand),
            "discards": cards.codes(self.discards), "hand_counts": list(self.hand_counts),
            "stock_left": self.stock_left,
            "moves": [{"seat": s, **GIN_LITE.move_to_json(m)} for s, m in self.history],
            "current_player": self.current_player,
            "legal": [GIN_LITE.move_to_json(m) for m in self.legal],
            "score": list(self.score) if self.score is not None else None,
            "gin": self.gin if self.gin >= 0 else None,
        }


class GinLiteRound(Round):
    """A round of Gin Lite in play."""

    __slots__ = ("players", "dealer", "rules", "deck", "history", "hands", "discards",
                 "drawn", "turn", "gin", "is_over")

    def __init__(self, rules: dict[str, Any], players: int, dealer: int,
                 deck: Sequence[Card]) -> None:
        self.players, self.dealer, self.rules = players, dealer, rules
        self.deck = check_deck(deck)
        self.history: list[tuple[int, Move]] = []
        dealt = rules["hand"] * players
        self.hands = [cards.mask_of(self.deck[(s - dealer - 1) % players:dealt:players])
                      for s in range(players)]  # GL-1
        self.discards: Mask = 0
        self.drawn = dealt
        self.gin = -1
        self.is_over = False
        self.turn = (dealer + 1) % players  # GL-2
        self._draw()

    def _draw(self) -> None:
        """GL-2: the player to move draws the stock's top card; GL-3: none left ends it."""
        if self.drawn == 52:
            self.is_over, self.turn = True, -1
            return
        self.hands[self.turn] |= 1 << self.deck[self.drawn]
        self.drawn += 1

    @property
    def current_player(self) -> int:
        return self.turn

    def legal_moves(self) -> list[Move]:
        return [] if self.is_over else cards.cards_of(self.hands[self.turn])

    def why_illegal(self, move: Move) -> str | None:
        if self.is_over:
            return "the round is over"
        if type(move) is not int or not 0 <= move < 52:
            return "not a Gin Lite move (discard one card from your hand)"
        if not self.hands[self.turn] >> move & 1:
            return f"{cards.code(move)} is not in seat {self.turn}'s hand"
        return None

    def _apply(self, move: Move) -> None:
        seat = self.turn
        self.history.append((seat, move))
        self.hands[seat] ^= 1 << move
        self.discards |= 1 << move
        if is_gin(self.hands[seat]):  # GL-3
            self.gin, self.is_over, self.turn = seat, True, -1
            return
        self.turn = (seat + 1) % self.players
        self._draw()

    def score(self) -> list[int] | None:
        """GL-4: longest suit, plus the gin bonus."""
        if not self.is_over:
            return None
        bonus = GIN_BONUS if self.rules["gin_bonus"] else 0
        return [longest_suit(h) + (bonus if s == self.gin else 0)
                for s, h in enumerate(self.hands)]

    def score_detail(self) -> dict[str, Any] | None:
        """GL-4 item by item: the longest suit, and the gin bonus of the player who went
        out (the contract of :meth:`parlour.game.Round.score_detail`)."""
        score = self.score()
        if score is None:
            return None
        seats = []
        for s, h in enumerate(self.hands):
            size = longest_suit(h)
            items = [{"what": "Longest suit", "detail": f"{size} cards", "points": size,
                      "rule": "GL-4"}]
            if score[s] > size:
                items.append({"what": "Gin", "detail": "a hand of one suit",
                              "points": score[s] - size, "rule": "GL-4"})
            seats.append({"seat": s, "items": items, "total": score[s]})
        return {"seats": seats, "notes": [], "chips": None}

    def hand(self, seat: int) -> Mask:
        return self.hands[seat]

    def locations(self) -> list[Mask]:
        return [*self.hands, self.discards, self.stock()]

    def stock(self) -> Mask:
        return cards.mask_of(self.deck[self.drawn:])

    def view(self, seat: int) -> GinLiteView:
        score = self.score()
        return GinLiteView(
            seat=seat, players=self.players, dealer=self.dealer, rules=dict(self.rules),
            hand=self.hands[seat], discards=self.discards,
            hand_counts=tuple(h.bit_count() for h in self.hands),
            stock_left=52 - self.drawn, history=tuple(self.history),
            current_player=self.turn,
            legal=tuple(self.legal_moves()) if seat == self.turn else (),
            score=tuple(score) if score is not None else None, gin=self.gin)

    def copy(self) -> GinLiteRound:
        new = GinLiteRound.__new__(GinLiteRound)
        for name in self.__slots__:
            setattr(new, name, getattr(self, name))
        new.history = self.history.copy()
        new.hands = self.hands.copy()
        return new


class GinLite(Game):
    """Gin Lite: 2 to 4 players draw and discard towards a hand of one suit."""

    name = "ginlite"
    title = "Gin Lite"
    min_players = 2
    max_players = 4
    options = OptionSet(
        Option("rounds", int, 3, minimum=1, help="rounds in a game"),
        Option("hand", int, 7, (7, 5), help="cards dealt to each player (GL-1)"),
        Option("gin_bonus", bool, True, (True, False), help="3 more points for gin (GL-4)"),
    )

    def new_round(self, rules: dict[str, Any], players: int, dealer: int,
                  deck: Sequence[Card]) -> GinLiteRound:
        self.check_deal(players, dealer)
        return GinLiteRound(rules, players, dealer, deck)

    def move_to_json(self, move: Move) -> dict[str, Any]:
        return {"discard": cards.code(move)}

    def move_from_json(self, data: dict[str, Any]) -> Move:
        if set(data) != {"discard"}:
            raise ValueError(f'a Gin Lite move is {{"discard": CARD}}, not keys {sorted(data)}')
        return cards.from_code(data["discard"])

    def format_move(self, move: Move) -> str:
        return f"discard {cards.code(move)}"


GIN_LITE = GinLite()
GAME = GIN_LITE
GinLiteRound.game = GIN_LITE
