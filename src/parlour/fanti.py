"""Fanti: the sum-to-11 capture game, rules engine.

Cards keep their standard codes; Fanti names them (FA-1): J = Guardian, Q = Mystic,
K = Scout, clubs = Leaf, diamonds = Star. A played card collects from the table
(FA-5): a number card (A..10) any set of valued table cards that makes 11 with it; an
Ace also one Ace; a Scout one Scout; a Mystic one Mystic; a Guardian sweeps every
table card but Scouts and Mystics (and Guardians, if ``guardian_takes_guardians`` is
false). Collecting is compulsory and the player picks among the ways (FA-6).

Rule options: ``rounds`` (5), ``ties`` (``"none"`` | ``"shared"``, FA-9),
``guardian_takes_guardians`` (``true`` | ``false``, FA-5).

Speed (docs/speed.md, "step engine"): the legal moves of a turn are listed once and
kept until the next move. Listing them enumerates the sets of valued table cards adding
up to 10 or less once per table (:func:`subsets_by_sum`, cached by the table's valued
cards), and every number card in the hand reads its collections from that one table.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from . import cards
from .cards import ACE, JACK, KING, QUEEN, Card, Mask
from .game import Game, Move, Round, check_deck, move_card, move_take, play
from .options import Option, OptionSet

HAND_SIZE = 4
TABLE_START = 4


def _rank_mask(rank: int) -> Mask:
    return cards.mask_of(cards.card(rank, s) for s in range(4))


KINGS, QUEENS, JACKS, ACES = (_rank_mask(r) for r in (KING, QUEEN, JACK, ACE))
VALUED: Mask = cards.FULL_DECK & ~(KINGS | QUEENS | JACKS)
LEAVES: Mask = cards.SUIT_MASKS[cards.CLUBS]
TWO_OF_CLUBS: Card = cards.card(1, cards.CLUBS)
TEN_OF_DIAMONDS: Card = cards.card(9, cards.DIAMONDS)
VALUE = [cards.rank_of(c) + 1 if cards.rank_of(c) < JACK else 0 for c in range(52)]


MAX_TARGET = 10
"""The most a number card's collection adds up to (an Ace, worth 1, needs 10)."""


@lru_cache(maxsize=1 << 13)
def subsets_by_sum(valued_table: Mask) -> tuple[tuple[Mask, ...], ...]:
    """The sets of the given valued table cards by the sum of their values.

    Entry ``t`` (0..10) holds every set adding up to ``t``, as masks in ascending order
    (entry 0 is just the empty set). One table serves every number card of a hand: the
    card of value ``v`` collects the sets of entry ``11 - v``.

    Random tables hold about three valued cards, so there are a handful of sets; the
    cache pays because a table often comes back unchanged (a Scout or Mystic played,
    or a turn after a discard of one) and small tables recur across rounds.
    """
    # Adding the cards lowest first keeps the list in ascending mask order: every new
    # set holds the new card, which is above every card before it, so it is larger
    # than every set already listed, and the new sets keep the order of the old ones.
    sets: list[tuple[int, Mask]] = [(0, 0)]  # (sum of values, mask)
    for c in cards.cards_of(valued_table):
        value, bit = VALUE[c], 1 << c
        sets += [(total + value, m | bit) for total, m in sets if total + value <= MAX_TARGET]
    by_sum: list[list[Mask]] = [[] for _ in range(MAX_TARGET + 1)]
    for total, m in sets:
        by_sum[total].append(m)
    return tuple(tuple(masks) for masks in by_sum)


def sum_sets(valued_table: Mask, target: int) -> tuple[Mask, ...]:
    """Every set of the given valued table cards whose values add up to ``target``."""
    if not 0 < target <= MAX_TARGET:
        return _sum_sets_beyond(valued_table, target)
    return subsets_by_sum(valued_table)[target]


def _sum_sets_beyond(valued_table: Mask, target: int) -> tuple[Mask, ...]:
    """:func:`sum_sets` for targets no card needs (0, negative, above 10)."""
    if target == 0:
        return (0,)
    if target < 0:
        return ()
    items = [(c, VALUE[c]) for c in cards.cards_of(valued_table)]
    sets: list[tuple[int, Mask]] = [(0, 0)]
    for c, value in items:
        sets += [(total + value, m | 1 << c) for total, m in sets if total + value <= target]
    return tuple(m for total, m in sets if total == target)


def _takes(card: Card, table: Mask, by_sum: tuple[tuple[Mask, ...], ...],
           guardian_takes_guardians: bool) -> Sequence[Mask]:
    """Every way ``card`` can collect from ``table`` (FA-5), ascending; ``by_sum`` is
    :func:`subsets_by_sum` of the table's valued cards."""
    rank = card % 13
    if rank < JACK:  # a number card: sets making 11 with it (an Ace's value is 1)
        sets = by_sum[MAX_TARGET - rank]
        if rank == ACE and table & ACES:  # an Ace also takes one Ace
            return sorted([*sets, *_singles(table & ACES)])
        return sets
    if rank == JACK:
        swept = table & ~(KINGS | QUEENS)
        if not guardian_takes_guardians:
            swept &= ~JACKS
        return (swept,) if swept else ()
    return _singles(table & (KINGS if rank == KING else QUEENS))


def _singles(m: Mask) -> list[Mask]:
    """Each card of ``m`` as a set of its own, ascending."""
    return [1 << c for c in cards.cards_of(m)]


def collections(card: Card, table: Mask, guardian_takes_guardians: bool = True) -> list[Mask]:
    """Every way ``card`` can collect from ``table`` (FA-5), as masks; [] when none."""
    return list(_takes(card, table, subsets_by_sum(table & VALUED), guardian_takes_guardians))


@dataclass(frozen=True)
class FantiView:
    """What one seat sees (FA-7): own hand, the table, every collected pile, counts."""

    seat: int
    players: int
    dealer: int
    rules: dict[str, Any]
    hand: Mask
    table: Mask
    piles: tuple[Mask, ...]
    hand_counts: tuple[int, ...]
    deck_left: int
    last_collector: int
    history: tuple[tuple[int, Move], ...]
    current_player: int
    legal: tuple[Move, ...]
    score: tuple[int, ...] | None

    game = "fanti"

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "seat": self.seat,
            "players": self.players,
            "dealer": self.dealer,
            "rules": self.rules,
            "hand": cards.codes(self.hand),
            "table": cards.codes(self.table),
            "piles": [cards.codes(p) for p in self.piles],
            "pile_counts": [p.bit_count() for p in self.piles],
            "leaf_counts": [(p & LEAVES).bit_count() for p in self.piles],
            "hand_counts": list(self.hand_counts),
            "deck_left": self.deck_left,
            "last_collector": self.last_collector if self.last_collector >= 0 else None,
            "moves": [{"seat": s, **FANTI.move_to_json(m)} for s, m in self.history],
            "current_player": self.current_player,
            "legal": [FANTI.move_to_json(m) for m in self.legal],
            "score": list(self.score) if self.score is not None else None,
        }


class FantiRound(Round):
    """A round of Fanti in play."""

    __slots__ = (
        "players", "dealer", "rules", "deck", "history", "hands", "table", "piles",
        "dealt", "turn", "last_collector", "over", "_gtg", "_legal",
    )

    def __init__(self, rules: dict[str, Any], players: int, dealer: int,
                 deck: Sequence[Card]) -> None:
        self.players = players
        self.dealer = dealer
        self.rules = rules
        self.deck = check_deck(deck)
        self.history: list[tuple[int, Move]] = []
        self.table: Mask = cards.mask_of(self.deck[:TABLE_START])  # FA-3
        self.dealt = TABLE_START
        self.hands = [0] * players
        self.piles = [0] * players
        self.last_collector = -1
        self.over = False
        self._gtg = rules["guardian_takes_guardians"]
        self._legal: list[Move] | None = None
        self._deal()
        self.turn = (dealer + 1) % players  # FA-4

    def _deal(self) -> None:
        """FA-3: one card at a time from the seat after the dealer until each has 4."""
        n, deck, start = self.players, self.deck, self.dealt
        hands = self.hands
        for i in range(HAND_SIZE * n):
            hands[(self.dealer + 1 + i) % n] |= 1 << deck[start + i]
        self.dealt = start + HAND_SIZE * n

    # --- Round interface ------------------------------------------------------------

    @property
    def current_player(self) -> int:
        return -1 if self.over else self.turn

    @property
    def is_over(self) -> bool:
        return self.over

    def _list_moves(self) -> list[Move]:
        """The legal moves of the turn: card ascending, then take mask ascending."""
        moves: list[Move] = []
        table, gtg = self.table, self._gtg
        by_sum = subsets_by_sum(table & VALUED)  # shared by every card of the hand
        for c in cards.cards_of(self.hands[self.turn]):
            takes = _takes(c, table, by_sum, gtg)
            if takes:
                moves += [c | t << 6 for t in takes]
            else:
                moves.append(c)  # FA-6: discard only when nothing can be collected
        return moves

    def legal_moves(self) -> list[Move]:
        if self.over:
            return []
        legal = self._legal  # kept for the turn; _apply forgets it
        if legal is None:
            legal = self._legal = self._list_moves()
        return legal.copy()  # a copy: callers may sort or trim it

    def apply(self, move: Move) -> None:
        # The usual move comes from legal_moves(), whose list is kept for the turn: one
        # membership test instead of the full diagnosis. Anything else goes through
        # why_illegal, which explains a refusal.
        legal = self._legal
        if legal is None and not self.over:
            legal = self._legal = self._list_moves()
        if type(move) is int and legal is not None and move in legal:
            self._apply(move)
        else:
            super().apply(move)

    def why_illegal(self, move: Move) -> str | None:
        if self.over:
            return "the round is over"
        if type(move) is not int or move < 0 or move >> (6 + 52):
            return "not a Fanti move"
        c, take = move_card(move), move_take(move)
        if c >= 52:
            return "Fanti has no pass: play a card (FA-4)"
        if self._legal is None:
            self._legal = self._list_moves()
        if move in self._legal:
            return None
        if not self.hands[self.turn] >> c & 1:
            return f"{cards.code(c)} is not in seat {self.turn}'s hand"
        options = collections(c, self.table, self._gtg)
        if take & ~self.table:
            return f"{', '.join(cards.codes(take & ~self.table))} not on the table"
        if not options:
            return f"{cards.code(c)} collects nothing here: it must be discarded (FA-6)"
        if take == 0:
            return (f"{cards.code(c)} can collect, so it must (FA-6): "
                    + " or ".join("+".join(cards.codes(t)) for t in options))
        return (f"{'+'.join(cards.codes(take))} is not a collection for {cards.code(c)} (FA-5); "
                f"it can take " + " or ".join("+".join(cards.codes(t)) for t in options))

    def _apply(self, move: Move) -> None:
        seat = self.turn
        c, take = move & 63, move >> 6
        self.history.append((seat, move))
        self._legal = None
        bit = 1 << c
        self.hands[seat] ^= bit
        if take:
            self.table ^= take
            self.piles[seat] |= take | bit  # FA-7
            self.last_collector = seat
        else:
            self.table |= bit
        self.turn = (seat + 1) % self.players
        if self.hands[self.turn] == 0:  # everyone has played out: all hands are empty
            if self.dealt < 52:
                self._deal()
            else:  # FA-8: leftovers to the last collector, or to nobody
                self.over = True
                if self.last_collector >= 0:
                    self.piles[self.last_collector] |= self.table
                    self.table = 0

    def score(self) -> list[int] | None:
        """FA-9: +2 most cards, +1 most Leaf cards, +1 for 2C, +1 for 10D."""
        if not self.over:
            return None
        return score_piles(self.piles, self.rules["ties"] == "shared")

    def hand(self, seat: int) -> Mask:
        return self.hands[seat]

    def locations(self) -> list[Mask]:
        undealt = cards.mask_of(self.deck[self.dealt:])
        return [*self.hands, *self.piles, self.table, undealt]

    def view(self, seat: int) -> FantiView:
        score = self.score()
        return FantiView(
            seat=seat,
            players=self.players,
            dealer=self.dealer,
            rules=dict(self.rules),
            hand=self.hands[seat],
            table=self.table,
            piles=tuple(self.piles),
            hand_counts=tuple(h.bit_count() for h in self.hands),
            deck_left=52 - self.dealt,
            last_collector=self.last_collector,
            history=tuple(self.history),
            current_player=self.current_player,
            legal=tuple(self.legal_moves()) if seat == self.current_player else (),
            score=tuple(score) if score is not None else None,
        )

    def copy(self) -> FantiRound:
        new = FantiRound.__new__(FantiRound)
        new.players = self.players
        new.dealer = self.dealer
        new.rules = self.rules
        new.deck = self.deck
        new.history = self.history.copy()
        new.hands = self.hands.copy()
        new.table = self.table
        new.piles = self.piles.copy()
        new.dealt = self.dealt
        new.turn = self.turn
        new.last_collector = self.last_collector
        new.over = self.over
        new._gtg = self._gtg
        new._legal = self._legal
        return new


def score_piles(piles: Sequence[Mask], shared_ties: bool) -> list[int]:
    """Round score from the collected piles (FA-9)."""
    n = len(piles)
    score = [0] * n
    for counts, bonus in (([p.bit_count() for p in piles], 2),
                          ([(p & LEAVES).bit_count() for p in piles], 1)):
        best = max(counts)
        leaders = [s for s in range(n) if counts[s] == best]
        if len(leaders) == 1 or shared_ties:
            for s in leaders:
                score[s] += bonus
    for special in (TWO_OF_CLUBS, TEN_OF_DIAMONDS):
        for s in range(n):
            if piles[s] >> special & 1:
                score[s] += 1
    return score


class Fanti(Game):
    """Fanti: 2 to 4 players collect cards by making 11 with the table."""

    name = "fanti"
    title = "Fanti"
    min_players = 2
    max_players = 4
    options = OptionSet(
        Option("rounds", int, 5, minimum=1, help="rounds in a game (FA-10)"),
        Option("ties", str, "none", ("none", "shared"),
               help="a tie for most cards or Leaf cards: nobody or everyone tied gets it (FA-9)"),
        Option("guardian_takes_guardians", bool, True, (True, False),
               help="the Guardian sweep also takes Guardians on the table (FA-5)"),
    )

    def new_round(self, rules: dict[str, Any], players: int, dealer: int,
                  deck: Sequence[Card]) -> FantiRound:
        self.check_deal(players, dealer)
        return FantiRound(rules, players, dealer, deck)

    def move_to_json(self, move: Move) -> dict[str, Any]:
        return {"play": cards.code(move_card(move)), "take": cards.codes(move_take(move))}

    def move_from_json(self, data: dict[str, Any]) -> Move:
        if set(data) != {"play", "take"}:
            raise ValueError(f'a Fanti move is {{"play": CARD, "take": [CARD, ...]}}, '
                             f"not keys {sorted(data)}")
        take = data["take"]
        if not isinstance(take, list):
            raise ValueError('"take" must be a list of card codes')
        mask = cards.mask_from_codes(take)
        if mask.bit_count() != len(take):
            raise ValueError('"take" lists a card twice')
        return play(cards.from_code(data["play"]), mask)

    def format_move(self, move: Move) -> str:
        c, take = move_card(move), move_take(move)
        text = f"play {cards.code(c)}"
        if take:
            return f"{text} take {'+'.join(cards.codes(take))}"
        return f"{text} (discard)"

    def card_name(self, card: Card) -> str:
        return cards.fanti_name(card)


FANTI = Fanti()
FantiRound.game = FANTI
