"""Fanti: the sum-to-11 capture game, rules engine.

Cards keep their standard codes; Fanti names them (FA-1): J = Guardian, Q = Mystic,
K = Scout, clubs = Leaf, diamonds = Star. A played card collects from the table
(FA-5): a number card (A..10) any set of valued table cards that makes 11 with it; an
Ace also one Ace; a Scout one Scout; a Mystic one Mystic; a Guardian sweeps every
table card but Scouts and Mystics (and Guardians, if ``guardian_takes_guardians`` is
false). Collecting is compulsory and the player picks among the ways (FA-6).

Rule options: ``rounds`` (5), ``ties`` (``"none"`` | ``"shared"``, FA-9),
``guardian_takes_guardians`` (``true`` | ``false``, FA-5).

Speed (docs/speed.md, "step engine"): the legal moves of a turn are listed once
(:func:`hand_moves`) and kept until the next move, and ``apply()`` checks a move by
looking it up in that list, falling back to :meth:`FantiRound.why_illegal` only to
explain a refusal. A number card's collections come from a memo (see "Collections").

Two players, the deck in card order, seat 0 dealing (so seat 1 plays first, FA-4):

>>> from parlour import cards
>>> from parlour.game import play
>>> from parlour.games.fanti.rules import FANTI
>>> r = FANTI.new_round(FANTI.rules(2), 2, 0, list(range(52)))
>>> cards.codes(r.table), cards.codes(r.hand(r.current_player))
(['AC', '2C', '3C', '4C'], ['5C', '7C', '9C', 'JC'])
>>> [FANTI.format_move(m) for m in r.legal_moves()]  # sums of 11; the Guardian sweeps
['play 5C take AC+2C+3C', 'play 5C take 2C+4C', 'play 7C take AC+3C',
 'play 7C take 4C', 'play 9C take 2C', 'play JC take AC+2C+3C+4C']
>>> r.why_illegal(play(cards.parse("5C")))
'5C can collect, so it must (FA-6): AC+2C+3C or 2C+4C'
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from parlour import cards
from parlour.cards import ACE, JACK, KING, QUEEN, Card, Mask
from parlour.game import Game, Move, Round, check_deck, move_card, move_take, play
from parlour.games.fanti import names
from parlour.options import Option, OptionError, OptionSet
from parlour.refusals import Refusal, reference

HAND_SIZE = 4
"""Cards each seat is dealt at a time (FA-3)."""
TABLE_START = 4
"""Cards laid face up on the table before the first deal (FA-3)."""


def deal_seat(players: int, dealer: int, position: int) -> int:
    """FA-3: the seat deck card ``position`` goes to; -1 for the opening table.

    The first :data:`TABLE_START` cards go to the table; then, deal after deal, one card
    at a time from the seat after the dealer until each seat holds :data:`HAND_SIZE`.
    """
    if position < TABLE_START:
        return -1
    return (dealer + 1 + (position - TABLE_START) % (HAND_SIZE * players)) % players


def deal_number(players: int, position: int) -> int:
    """FA-3: which deal of the round deck card ``position`` belongs to (0 = the first;
    the opening table counts as deal 0)."""
    return max(position - TABLE_START, 0) // (HAND_SIZE * players)


PACKS: dict[str, Mask] = {
    "full": cards.FULL_DECK,
    "small": cards.mask_of(cards.card(r, s) for r in (ACE, 9, JACK)
                           for s in (cards.CLUBS, cards.DIAMONDS)),
}
"""The cards in play by the option ``pack`` (FA-11): the whole deck, or the small pack of
Leaf and Star A, 10 and Guardian (6 cards) for research (docs/research.md)."""
SMALL_TABLE_START = 2
"""Cards laid on the table before the small pack's one deal (FA-11)."""


def pack_mask(rules: dict[str, Any]) -> Mask:
    """The cards a round under ``rules`` is dealt from (FA-11; the full deck by default)."""
    return PACKS[rules.get("pack", "full")]


def deal_sizes(rules: dict[str, Any], players: int) -> tuple[int, int]:
    """``(table start, hand size)`` of a deal under ``rules`` (FA-3; FA-11 for the small
    pack: 2 to the table, the other 4 in one deal)."""
    if rules.get("pack", "full") == "full":
        return TABLE_START, HAND_SIZE
    return SMALL_TABLE_START, (PACKS["small"].bit_count() - SMALL_TABLE_START) // players


def _rank_mask(rank: int) -> Mask:
    return cards.mask_of(cards.card(rank, s) for s in range(4))


KINGS, QUEENS, JACKS, ACES = (_rank_mask(r) for r in (KING, QUEEN, JACK, ACE))
VALUED: Mask = cards.FULL_DECK & ~(KINGS | QUEENS | JACKS)
LEAVES: Mask = cards.SUIT_MASKS[cards.CLUBS]
TWO_OF_CLUBS: Card = cards.card(1, cards.CLUBS)
TEN_OF_DIAMONDS: Card = cards.card(9, cards.DIAMONDS)
VALUE = [cards.rank_of(c) + 1 if cards.rank_of(c) < JACK else 0 for c in range(52)]


# --- Collections (FA-5) ---------------------------------------------------------------
#
# Listing the legal moves is the hot path of every bot and simulation, and a number
# card's collections (the sets of valued table cards making 11 with it) are most of its
# cost. Two things keep it cheap (docs/speed.md, "step engine"):
#
# * a card of rank r can only collect cards worth 10 - r or less (its *candidates*):
#   a 9 or a 10 looks at the table's Aces and 2s only, and in random play four number
#   cards in ten have no candidate at all and are done after one mask test;
# * the sets are kept in a memo keyed by rank and candidates, which repeat far more
#   than whole tables do (random play finds about 85% of them there).


def _worth_at_most(most: int) -> Mask:
    return cards.mask_of(c for c in range(52) if 0 < VALUE[c] <= most)


CANDIDATES: tuple[Mask, ...] = tuple(_worth_at_most(10 - rank) for rank in range(10))
"""By number-card rank r (0 = Ace .. 9 = the 10): the valued cards worth 10 - r or less,
the only ones a set making 11 with it can hold."""

_TAKES_MEMO: tuple[dict[Mask, tuple[Mask, ...]], ...] = tuple({} for _ in range(10))
_TAKES_MEMO_LIMIT = 1 << 14
"""Entries a rank's memo keeps before it starts again from empty. Random play fills
about 40,000 entries in all (some 6 MB); 4,096 a rank made random rounds ~5% slower."""


def _remember_takes(rank: int, candidates: Mask) -> tuple[Mask, ...]:
    """Every set of ``candidates`` a number card of ``rank`` collects (FA-5), ascending:
    the sets adding up to 11 with it and, for an Ace, each single Ace; kept in the memo."""
    memo = _TAKES_MEMO[rank]
    if len(memo) >= _TAKES_MEMO_LIMIT:
        memo.clear()  # simpler than LRU, and about as good for random tables
    takes = memo[candidates] = _find_number_card_takes(rank, candidates)
    return takes


def _find_number_card_takes(rank: int, candidates: Mask) -> tuple[Mask, ...]:
    """:func:`_remember_takes` without the memo."""
    takes = _sets_adding_up_to(candidates, 10 - rank)
    aces = candidates & ACES
    if rank == ACE and aces:  # an Ace also takes one Ace
        return tuple(sorted(takes + _SINGLES[aces]))
    return takes


def _sets_adding_up_to(valued: Mask, target: int) -> tuple[Mask, ...]:
    """Every set of the ``valued`` cards whose values add up to ``target``, ascending."""
    # The sets adding up to less than the target so far, as (sum, mask), grown by
    # adding the cards lowest first. A set made with the new card is above every set
    # before it (it holds the highest card so far) and the new sets come in the order
    # of the old ones, so sets are made, and found, in ascending mask order.
    partial: list[tuple[int, Mask]] = [(0, 0)]
    found: list[Mask] = []
    for c in cards.cards_of(valued):
        value, bit = VALUE[c], 1 << c
        for total, m in partial.copy():
            total += value
            if total < target:
                partial.append((total, m | bit))
            elif total == target:
                found.append(m | bit)
    return tuple(found)


def sum_sets(valued_table: Mask, target: int) -> tuple[Mask, ...]:
    """Every set of the given valued table cards whose values add up to ``target``."""
    if target <= 0:
        return (0,) if target == 0 else ()
    return _sets_adding_up_to(valued_table & VALUED, target)


RANK_MASKS: tuple[Mask, ...] = tuple(_rank_mask(r) for r in range(13))


def _singles_by_set() -> dict[Mask, tuple[Mask, ...]]:
    out = {}
    for rank in range(13):
        four = [cards.card(rank, s) for s in range(4)]
        for pick in range(16):
            chosen = [c for i, c in enumerate(four) if pick >> i & 1]
            out[cards.mask_of(chosen)] = tuple(1 << c for c in chosen)
    return out


_SINGLES = _singles_by_set()
"""Each card of a set of one rank as a set of its own, ascending: the takes of a Scout,
Mystic or Ace that takes one card of its rank. Precomputed for the 16 sets of each rank."""

GUARDIAN_SWEEPS = {True: cards.FULL_DECK & ~(KINGS | QUEENS),
                   False: cards.FULL_DECK & ~(KINGS | QUEENS | JACKS)}
"""What a Guardian sweeps, by ``guardian_takes_guardians`` (FA-5)."""


def hand_moves(hand: Mask, table: Mask, guardian_takes_guardians: bool = True) -> list[Move]:
    """Every legal move of ``hand`` against ``table`` (FA-5, FA-6), in the engine's
    order: card ascending, then take mask ascending."""
    moves: list[Move] = []
    valued = table & VALUED
    for c in cards.cards_of(hand):
        rank = c % 13
        if rank < JACK:  # sets making 11 with it, of its candidates; an Ace also takes an Ace
            candidates = valued & CANDIDATES[rank]
            takes = _TAKES_MEMO[rank].get(candidates) if candidates else ()
            if takes is None:
                takes = _remember_takes(rank, candidates)
        elif rank == JACK:  # a Guardian sweeps the table
            swept = table & GUARDIAN_SWEEPS[guardian_takes_guardians]
            takes = (swept,) if swept else ()
        else:  # a Scout or Mystic takes one of its own rank
            takes = _SINGLES[table & RANK_MASKS[rank]]
        if takes:
            # A plain loop: most cards have one take or none, and a comprehension
            # costs more to set up than it saves on one or two items.
            for t in takes:
                moves.append(c | t << 6)
        else:
            moves.append(c)  # FA-6: discard only when nothing can be collected
    return moves


def collections(card: Card, table: Mask, guardian_takes_guardians: bool = True) -> list[Mask]:
    """Every way ``card`` can collect from ``table`` (FA-5), as masks; [] when none."""
    return [m >> 6 for m in hand_moves(1 << card, table, guardian_takes_guardians) if m >> 6]


def play_card(hands: list[Mask], piles: list[Mask], table: Mask, seat: int,
              move: Move) -> Mask:
    """Play ``move`` for ``seat`` (FA-5..FA-7): the card leaves its hand (in place); a
    collection goes to its pile (in place) with the card that made it, a discard
    stays on the table. Returns the table after. The one transition of the rules,
    shared by the engine and the search."""
    bit = 1 << (move & 63)
    take = move >> 6
    hands[seat] ^= bit
    if take:
        piles[seat] |= take | bit
        return table ^ take
    return table | bit


def states_before(moves: Sequence[tuple[int, Move]], table: Mask,
                  piles: Sequence[Mask]) -> list[tuple[Mask, tuple[Mask, ...]]]:
    """For each of ``moves`` (``(seat, move)``, oldest first, all within one round and
    before its FA-8 leftovers), the table and every seat's pile *before* it, found by
    undoing the moves from the current ``table`` and ``piles`` (FA-5, FA-6: a
    collection left the table for the player's pile with the card that made it; a
    discard joined the table). Everything here is public (FA-7)."""
    piles = list(piles)
    before: list[tuple[Mask, tuple[Mask, ...]]] = []
    for seat, m in reversed(moves):  # undo, newest first
        card, take = m & 63, m >> 6
        if take:
            table |= take
            piles[seat] &= ~(take | 1 << card)
        else:
            table &= ~(1 << card)
        before.append((table, tuple(piles)))
    before.reverse()
    return before


def tables_before(moves: Sequence[tuple[int, Move]], table: Mask,
                  piles: Sequence[Mask]) -> list[tuple[Mask, Mask]]:
    """For each of ``moves``, as :func:`states_before`: the table, and the table and
    every pile together (every card seen), before it."""
    return [(tab, seen_cards(tab, ps)) for tab, ps in states_before(moves, table, piles)]


def seen_cards(table: Mask, piles: Sequence[Mask]) -> Mask:
    """Every card face up: the table and every collected pile (FA-7)."""
    for p in piles:
        table |= p
    return table


def last_collector_after(last_collector: int, seat: int, move: Move) -> int:
    """FA-8: who has collected last once ``seat`` has played ``move``: that seat if the
    move collects, else still ``last_collector`` (-1: nobody yet). The engine and the
    search (:mod:`.solver`, :mod:`.infoset`, :mod:`.opponents`) all ask this.

    >>> from parlour import cards
    >>> take = play(cards.parse("5C"), cards.mask_of([cards.parse("6D")]))
    >>> last_collector_after(-1, 1, take), last_collector_after(1, 0, play(cards.parse("KS")))
    (1, 1)
    """
    return seat if move >> 6 else last_collector


def leftovers(piles: Sequence[Mask], table: Mask, last_collector: int) -> tuple[list[Mask], Mask]:
    """FA-8: at the end of the round the cards left on the table go to the last
    player who collected, or to nobody. The piles (a new list) and the table after."""
    piles = list(piles)
    if last_collector >= 0:
        piles[last_collector] |= table
        table = 0
    return piles, table


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
            "moves": [_history_entry(s, m) for s, m in self.history],
            "current_player": self.current_player,
            "legal": [FANTI.move_to_json(m) for m in self.legal],
            "score": list(self.score) if self.score is not None else None,
        }


@lru_cache(maxsize=8192)
def _history_entry(seat: int, move: Move) -> dict[str, Any]:
    """A move of the history as a view shows it. Kept: every seat's view of every move
    lists the whole round's moves, and the same entry object in each lets a comparison
    of two views (the server's deltas) pass over it at once. Never change it."""
    return {"seat": seat, **FANTI.move_to_json(move)}


class FantiRound(Round):
    """A round of Fanti in play."""

    __slots__ = (
        "players", "dealer", "rules", "deck", "history", "hands", "table", "piles",
        "dealt", "turn", "last_collector", "is_over", "_gtg", "_legal", "_order", "_hand",
    )

    def __init__(self, rules: dict[str, Any], players: int, dealer: int,
                 deck: Sequence[Card]) -> None:
        self.players = players
        self.dealer = dealer
        self.rules = rules
        self.deck = check_deck(deck)
        self.history: list[tuple[int, Move]] = []
        # The cards dealt, in deck order: the whole deck, or the small pack's cards with
        # the rest set aside (FA-11); and the table start and hand size of a deal.
        pack = pack_mask(rules)
        self._order = (self.deck if pack == cards.FULL_DECK
                       else tuple(c for c in self.deck if pack >> c & 1))
        start, self._hand = deal_sizes(rules, players)
        self.table: Mask = cards.mask_of(self._order[:start])  # FA-3
        self.dealt = start
        self.hands = [0] * players
        self.piles = [0] * players
        self.last_collector = -1
        # A plain attribute rather than a property: every playing loop reads it each
        # move, and a property call costs as much as a third of a legal-moves call.
        self.is_over = False
        self._gtg = rules["guardian_takes_guardians"]
        self._legal: list[Move] | None = None
        self._deal()
        self.turn = (dealer + 1) % players  # FA-4

    def _deal(self) -> None:
        """FA-3: one card at a time from the seat after the dealer until each has 4
        (FA-11: the small pack's one deal)."""
        n, deck, start = self.players, self._order, self.dealt
        end = start + self._hand * n
        hands = self.hands
        # By deal_seat: card start+i goes to seat dealer+1+i, so seat s gets every n-th
        # card from start + (s - dealer - 1) % n.
        for s in range(n):
            hands[s] |= cards.mask_of(deck[start + (s - self.dealer - 1) % n:end:n])
        self.dealt = end

    # --- Round interface ------------------------------------------------------------

    @property
    def current_player(self) -> int:
        return -1 if self.is_over else self.turn

    @property
    def over(self) -> bool:
        """The same as :attr:`is_over` (its older name)."""
        return self.is_over

    def legal_moves(self) -> list[Move]:
        if self.is_over:
            return []
        legal = self._legal  # the turn's moves, listed once; _apply forgets them
        if legal is None:
            legal = self._legal = hand_moves(self.hands[self.turn], self.table, self._gtg)
        return legal.copy()  # a copy: callers may sort or trim it

    def apply(self, move: Move) -> None:
        # The usual move comes from legal_moves(), whose list is kept for the turn: one
        # membership test instead of the full diagnosis. Anything else goes through
        # why_illegal, which explains a refusal.
        legal = self._legal
        if legal is None and not self.is_over:
            legal = self._legal = hand_moves(self.hands[self.turn], self.table, self._gtg)
        if type(move) is int and legal is not None and move in legal:
            self._apply(move)
        else:
            super().apply(move)

    def why_illegal(self, move: Move) -> str | None:
        refused = self.refusal(move)
        return None if refused is None else reference(refused)

    def refusal(self, move: Move) -> Refusal | None:
        if self.is_over:
            return ("refusal.over", {})
        if type(move) is not int or move < 0 or move >> (6 + 52):
            return ("refusal.fanti.not_a_move", {})
        c, take = move_card(move), move_take(move)
        if c >= 52:
            return ("refusal.fanti.no_pass", {})
        if self._legal is None:
            self._legal = hand_moves(self.hands[self.turn], self.table, self._gtg)
        if move in self._legal:
            return None
        if not self.hands[self.turn] >> c & 1:
            return ("refusal.not_in_hand", {"card": cards.code(c), "seat": self.turn})
        options = [cards.codes(t) for t in collections(c, self.table, self._gtg)]
        if take & ~self.table:
            return ("refusal.fanti.not_on_table", {"cards": cards.codes(take & ~self.table)})
        if not options:
            return ("refusal.fanti.discard", {"card": cards.code(c)})
        if take == 0:
            return ("refusal.fanti.must_collect", {"card": cards.code(c), "options": options})
        return ("refusal.fanti.not_a_collection",
                {"card": cards.code(c), "take": cards.codes(take), "options": options})

    def _apply(self, move: Move) -> None:
        seat = self.turn
        self.history.append((seat, move))
        self._legal = None
        hands = self.hands
        self.table = play_card(hands, self.piles, self.table, seat, move)
        self.last_collector = last_collector_after(self.last_collector, seat, move)
        turn = self.turn = (seat + 1) % self.players
        if hands[turn] == 0:  # everyone has played out: all hands are empty
            if self.dealt < len(self._order):
                self._deal()
            else:
                self.is_over = True
                self.piles, self.table = leftovers(self.piles, self.table,
                                                   self.last_collector)

    advance = _apply

    def score(self) -> list[int] | None:
        """FA-9: +2 most cards, +1 most Leaf cards, +1 for 2C, +1 for 10D."""
        if not self.is_over:
            return None
        return score_piles(self.piles, self.rules["ties"] == "shared")

    def score_detail(self) -> dict[str, Any] | None:
        """FA-9 item by item, with the FA-8 leftovers as a note (see Round.score_detail).

        Every seat lists its cards and its Leaf cards (with the +2 / +1 where it had the
        most), and Leaf 2 and Star 10 where it holds them; a tie for most is a note
        saying which tie rule applied. A seat entry also holds its ``pile`` (card codes).
        """
        if not self.is_over:
            return None
        return detail_piles(self.piles, self.rules["ties"] == "shared",
                            self.leftovers(), self.last_collector)

    def leftovers(self) -> Mask:
        """Once the round is over, the cards that were left on the table at the end
        (FA-8): those that went to the last collector, or stayed with nobody."""
        if not self.is_over or self.last_collector < 0:
            return self.table
        collected = 0
        for seat, move in self.history:
            if seat == self.last_collector and move >> 6:
                collected |= move >> 6 | 1 << (move & 63)
        return self.piles[self.last_collector] & ~collected

    def leftovers_to(self) -> int | None:
        """The last collector, who takes the leftovers (FA-8); None when nobody collected."""
        return self.last_collector if self.last_collector >= 0 else None

    def hand(self, seat: int) -> Mask:
        return self.hands[seat]

    def locations(self) -> list[Mask]:
        """Where every card of the pack is (the full deck but for FA-11's small pack)."""
        undealt = cards.mask_of(self._order[self.dealt:])
        return [*self.hands, *self.piles, self.table, undealt]

    def stock(self) -> Mask:
        """The undealt deck (FA-3), hidden from everyone."""
        return cards.mask_of(self._order[self.dealt:])

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
            deck_left=len(self._order) - self.dealt,
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
        new.is_over = self.is_over
        new._gtg = self._gtg
        new._legal = self._legal
        new._order = self._order
        new._hand = self._hand
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


def detail_piles(piles: Sequence[Mask], shared_ties: bool, leftovers: Mask = 0,
                 last_collector: int = -1) -> dict[str, Any]:
    """The itemised round score of the collected piles (FA-9), in the shape of
    :meth:`parlour.game.Round.score_detail`; ``leftovers`` and ``last_collector`` give
    the FA-8 note. Seat totals equal :func:`score_piles`. Items and notes carry catalog
    keys and their facts; the words are the presenter's (``present.py``, the catalogs)."""
    n = len(piles)
    seats: list[dict[str, Any]] = [
        {"seat": s, "items": [], "total": 0, "pile": cards.codes(piles[s])} for s in range(n)]
    notes: list[dict[str, Any]] = []
    for counts, bonus, what in (([p.bit_count() for p in piles], 2, "cards"),
                                ([(p & LEAVES).bit_count() for p in piles], 1, "leaves")):
        best = max(counts)
        leaders = [s for s in range(n) if counts[s] == best]
        scores = len(leaders) == 1 or shared_ties
        tie = len(leaders) > 1
        if tie:
            notes.append({"key": f"fanti.note.{what}_tie.{'shared' if shared_ties else 'none'}",
                          "params": {"most": best, "seats": leaders, "bonus": bonus},
                          "rule": "FA-9", "seats": leaders})
        for s in range(n):
            got = bonus if s in leaders and scores else 0
            key = f"fanti.score.{'most_' if got else ''}{what}"
            if s in leaders and tie:
                key += ".shared" if shared_ties else ".tied"
            seats[s]["items"].append({"key": key, "params": {"count": counts[s]},
                                      "points": got, "rule": "FA-9"})
    for special in (TWO_OF_CLUBS, TEN_OF_DIAMONDS):
        for s in range(n):
            if piles[s] >> special & 1:
                seats[s]["items"].append({"key": "fanti.score.special",
                                          "params": {"card": cards.code(special)},
                                          "points": 1, "rule": "FA-9"})
    for entry in seats:
        entry["total"] = sum(item["points"] for item in entry["items"])
    if leftovers:
        params = {"count": leftovers.bit_count(), "cards": cards.codes(leftovers)}
        if last_collector >= 0:
            notes.append({"key": "fanti.note.leftovers",
                          "params": {**params, "seat": last_collector},
                          "rule": "FA-8", "seats": [last_collector]})
        else:
            notes.append({"key": "fanti.note.leftovers.nobody", "params": params,
                          "rule": "FA-8", "seats": []})
    return {"seats": seats, "notes": notes, "chips": None}


class Fanti(Game):
    """Fanti: 2 to 4 players collect cards by making 11 with the table."""

    name = "fanti"
    title = "Fanti"
    min_players = 2
    default_players = 2  # the shipped learned weights and the arena's table
    max_players = 4
    rating_sizes = ((2, 2), (3, 4))  # head to head is another game than three or four
    options = OptionSet(
        Option("rounds", int, 5, minimum=1, help="rounds in a game (FA-10)"),
        Option("ties", str, "none", ("none", "shared"),
               help="a tie for most cards or Leaf cards: nobody or everyone tied gets it (FA-9)"),
        Option("guardian_takes_guardians", bool, True, (True, False),
               help="the Guardian sweep also takes Guardians on the table (FA-5)"),
        Option("pack", str, "full", ("full", "small"), optional=True, compiled=False,
               research=True,
               help="the whole deck, or the small pack of 6 cards for research (FA-11)"),
    )

    def check_rules(self, rules: dict[str, Any], players: int) -> None:
        """FA-11: the small pack's 4 cards after the table are dealt to 2 players."""
        if rules.get("pack") == "small" and players != 2:
            raise OptionError(f"the small pack (FA-11) takes 2 players, not {players}")

    def pack(self, rules: dict[str, Any]) -> Mask:
        return pack_mask(rules)  # FA-11

    def deal_groups(self, rules: dict[str, Any], players: int, dealer: int) -> list[int]:
        """FA-3: the opening table is one group, then each seat's cards of each deal."""
        start, hand = deal_sizes(rules, players)
        per_deal = hand * players
        return [0 if i < start else
                1 + (i - start) // per_deal * players
                + (dealer + 1 + (i - start) % per_deal) % players
                for i in range(pack_mask(rules).bit_count())]

    def new_round(self, rules: dict[str, Any], players: int, dealer: int,
                  deck: Sequence[Card]) -> FantiRound:
        self.check_deal(players, dealer)
        self.check_rules(rules, players)
        return FantiRound(rules, players, dealer, deck)

    def max_round_moves(self, players: int) -> int:
        """Exactly 48 (fewer with FA-11's small pack): no passing (FA-4), every move plays
        one of the 48 dealt cards (FA-3), so a Fanti round cannot loop."""
        return 48

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
        return names.name(card)


FANTI = Fanti()
GAME = FANTI
FantiRound.game = FANTI
