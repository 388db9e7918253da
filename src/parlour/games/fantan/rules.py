"""Fan Tan (Sevens, Parliament): the rules engine.

Rows grow out from the 7s (FT-2, FT-3). The state keeps one mask of *playable*
cards -- the 7s of unstarted rows and the next card beyond each end of every started
row -- updated in constant time per play, so the legal plays of a seat are just
``hand & playable``.

Speed (docs/speed.md, "step engine"): the legal moves of a turn are one mask with bit
52 (:data:`PASS`) set when passing is allowed, computed once per turn and kept until
the next move; ``legal_moves()`` copies a list remembered for that mask, and
``apply()`` checks a move with one bit test, falling back to
:meth:`FanTanRound.why_illegal` only to explain a refusal.

Rule options (RULINGS FT-4, FT-5, FT-7, FT-9):

``rounds``   number of rounds, default the number of players;
``opening``  ``"seven-of-diamonds"`` (its holder leads) or ``"any-seven"``;
``ace``      ``"low"`` (A 2 .. K) or ``"high"`` (2 .. K A);
``stakes``   ``"points"`` (penalty points, lowest total wins) or ``"chips"``;
``strict``   ``true`` (pass only when nothing fits) or ``false`` (withholding allowed,
             and fined at the end of the round, FT-8).

A round that nobody will finish ends blocked (FT-11): :func:`block_after` passes in a
row with no card played -- every seat has passed twice running, the same hands, table
and turn come round the third time. Only withholding can get there (with ``strict:
true`` someone always holds a playable card, so at most ``players - 1`` passes come in a
row), and it bounds every round at :func:`max_round_moves` moves.

Four players, the deck in card order, seat 0 dealing:

>>> from parlour import cards
>>> from parlour.game import play
>>> from parlour.games.fantan.rules import FANTAN
>>> r = FANTAN.new_round(FANTAN.rules(4), 4, 0, list(range(52)))
>>> [FANTAN.format_move(m) for m in r.legal_moves()]  # the 7D's holder opens (FT-4)
['play 7D']
>>> r.apply(play(cards.parse("7D")))
>>> [FANTAN.format_move(m) for m in r.legal_moves()]  # the next diamond, or a 7 (FT-3)
['play 8D', 'play 7H']
>>> r.why_illegal(play(cards.parse("KC")))
'KC does not fit on the table (FT-3)'
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from parlour import cards
from parlour.cards import Card, Mask
from parlour.game import DECK_ERROR, PASS, Game, Move, Round, check_deck
from parlour.options import Option, OptionSet
from parlour.refusals import Refusal, reference

SEVEN = 6
SEVENS: Mask = cards.mask_of(cards.card(SEVEN, s) for s in range(4))
SEVEN_OF_DIAMONDS: Card = cards.card(SEVEN, cards.DIAMONDS)
SEVEN_OF_DIAMONDS_BIT: Mask = 1 << SEVEN_OF_DIAMONDS
PASS_BIT: Mask = 1 << PASS
"""PASS's bit in a legal-move mask (just above the 52 cards)."""
_MOVE_LISTS: dict[Mask, tuple[Move, ...]] = {}
_MOVE_LISTS_LIMIT = 1 << 15
"""Legal-move masks whose move lists are remembered before starting again from empty.

A legal mask holds a few cards at most (one or two ends of each row), so masks recur
a lot (random play finds ~85% of them here); a hit is a dict look-up and a list copy,
about three times cheaper than :func:`cards.cards_of`. At most a few MB."""


PACKS: dict[str, Mask] = {
    "full": cards.FULL_DECK,
    "small": cards.mask_of(cards.card(r, s) for r in (SEVEN - 1, SEVEN, SEVEN + 1)
                           for s in (cards.CLUBS, cards.DIAMONDS)),
}
"""The cards in play by the option ``pack`` (FT-12): the whole deck, or the small pack of
the 6s, 7s and 8s of clubs and diamonds (6 cards) for research (docs/research.md)."""


def pack_mask(rules: dict[str, Any]) -> Mask:
    """The cards a round under ``rules`` is dealt from (FT-12; the full deck by default)."""
    return PACKS[rules.get("pack", "full")]


def _remember_moves(legal: Mask) -> tuple[Move, ...]:
    """The moves of a legal-move mask in the engine's order, cards ascending then PASS
    (exactly the order of the mask's bits), remembered in :data:`_MOVE_LISTS`."""
    if len(_MOVE_LISTS) >= _MOVE_LISTS_LIMIT:
        _MOVE_LISTS.clear()  # simpler than LRU, and about as good here
    moves = _MOVE_LISTS[legal] = tuple(cards.cards_of(legal))
    return moves


def _neighbours(ace_high: bool) -> tuple[list[int], list[int]]:
    """For every card, the card directly below and above it in its row (-1: none)."""
    order = list(range(1, 13)) + [0] if ace_high else list(range(13))
    down, up = [-1] * 52, [-1] * 52
    for s in range(4):
        for i, r in enumerate(order):
            c = cards.card(r, s)
            if i > 0:
                down[c] = cards.card(order[i - 1], s)
            if i < 12:
                up[c] = cards.card(order[i + 1], s)
    return down, up


def _unlocks(ace_high: bool) -> list[Mask]:
    """The cards that become playable when a card is played (FT-3).

    A 7 opens both directions; any other card opens the next card further out.
    """
    down, up = _neighbours(ace_high)
    order = list(range(1, 13)) + [0] if ace_high else list(range(13))
    pos = {r: i for i, r in enumerate(order)}
    out = []
    for c in range(52):
        r = cards.rank_of(c)
        nxt = [down[c], up[c]] if r == SEVEN else [down[c] if pos[r] < pos[SEVEN] else up[c]]
        out.append(cards.mask_of(n for n in nxt if n >= 0))
    return out


UNLOCKS = {False: _unlocks(False), True: _unlocks(True)}


def card_mask(moves: Iterable[Move]) -> Mask:
    """The cards among ``moves`` as a mask (a pass, FT-5, is not a card)."""
    mask = 0
    for m in moves:
        if m != PASS:
            mask |= 1 << m
    return mask


def block_after(players: int) -> int:
    """FT-11: passes in a row, no card played, that end the round blocked (two circles)."""
    return 2 * players


def max_round_moves(players: int) -> int:
    """FT-11: the most moves a round can have. At most ``53 - players`` cards are played
    (every other hand keeps one when a player goes out; a blocked round ends with every
    hand holding one), and fewer than :func:`block_after` passes come before each play,
    or exactly that many end the round: ``2 * players * (53 - players)``."""
    return block_after(players) * (53 - players)


def deal_seat(players: int, dealer: int, position: int) -> int:
    """FT-1: the seat that deck card ``position`` goes to (one at a time, left of the dealer)."""
    return (dealer + 1 + position) % players


def pack_order(deck: Sequence[Card], pack: Mask) -> Sequence[Card]:
    """The cards of ``pack`` in deck order: the deck itself for the full deck (FT-12)."""
    return deck if pack == cards.FULL_DECK else tuple(c for c in deck if pack >> c & 1)


def deal(deck: Sequence[Card], players: int, dealer: int) -> list[Mask]:
    """FT-1: every seat's hand from the deck order, by :func:`deal_seat`.

    Seat ``s`` gets every ``players``-th card from position ``(s - dealer - 1) % players``,
    the one position ``p < players`` with ``deal_seat(players, dealer, p) == s``.
    """
    return [cards.mask_of(deck[(s - dealer - 1) % players::players]) for s in range(players)]


def leader(deck: Sequence[Card], players: int, dealer: int, any_seven: bool) -> int:
    """FT-4: the seat that leads: left of the dealer, or the holder of 7D."""
    if any_seven:
        return deal_seat(players, dealer, 0)
    return deal_seat(players, dealer, deck.index(SEVEN_OF_DIAMONDS))
NEIGHBOURS = {False: _neighbours(False), True: _neighbours(True)}


@dataclass(frozen=True)
class Withholding:
    """A pass made while holding a legal card (only under ``strict: false``, FT-8).

    ``sevens`` lists each withheld legal 7 with the holders of its 6 and 8 at that pass.
    """

    seat: int
    sevens: tuple[tuple[Card, int, int], ...]


@dataclass(frozen=True)
class FanTanView:
    """What one seat sees (FT-10): own hand, the table, every count and pass."""

    seat: int
    players: int
    dealer: int
    rules: dict[str, Any]
    hand: Mask
    table: Mask
    hand_counts: tuple[int, ...]
    passes: tuple[int, ...]
    history: tuple[tuple[int, Move], ...]
    current_player: int
    legal: tuple[Move, ...]
    score: tuple[int, ...] | None
    winner: int

    game = "fantan"

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "seat": self.seat,
            "players": self.players,
            "dealer": self.dealer,
            "rules": self.rules,
            "hand": cards.codes(self.hand),
            "table": cards.codes(self.table),
            "rows": rows_json(self.table, self.rules["ace"] == "high"),
            "hand_counts": list(self.hand_counts),
            "passes": list(self.passes),
            "moves": [_history_entry(s, m) for s, m in self.history],
            "current_player": self.current_player,
            "legal": [FANTAN.move_to_json(m) for m in self.legal],
            "score": list(self.score) if self.score is not None else None,
            "winner": self.winner if self.winner >= 0 else None,
        }


@lru_cache(maxsize=1024)
def _history_entry(seat: int, move: Move) -> dict[str, Any]:
    """A move of the history as a view shows it. Kept: every seat's view of every move
    lists the whole round's moves, and the same entry object in each lets a comparison
    of two views (the server's deltas) pass over it at once. Never change it."""
    return {"seat": seat, **FANTAN.move_to_json(move)}


def rows_json(table: Mask, ace_high: bool) -> dict[str, list[str]]:
    """Each suit's row on the table, lowest card first."""
    return {suit: list(row) for suit, row in _rows(table, ace_high)}


@lru_cache(maxsize=4096)
def _rows(table: Mask, ace_high: bool) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """(A pure function of the table: kept, as every seat's view of a move asks again.)"""
    order = list(range(1, 13)) + [0] if ace_high else list(range(13))
    return tuple(
        (cards.SUITS[s], tuple(cards.code(cards.card(r, s)) for r in order
                               if table >> cards.card(r, s) & 1))
        for s in range(4))


class FanTanRound(Round):
    """A round of Fan Tan in play."""

    __slots__ = (
        "players", "dealer", "rules", "deck", "history", "hands", "table", "playable",
        "turn", "passes", "withholdings", "winner", "is_over", "streak", "blocked",
        "_unlock", "_strict", "_any_seven", "_chips", "_legal", "_block_at", "_size",
    )

    def __init__(self, rules: dict[str, Any], players: int, dealer: int,
                 deck: Sequence[Card]) -> None:
        self.players = players
        self.dealer = dealer
        self.rules = rules
        self.deck = deck = tuple(deck)
        self.history: list[tuple[int, Move]] = []
        pack = pack_mask(rules)
        if pack != cards.FULL_DECK:  # FT-12: the pack's cards in deck order, the rest aside
            check_deck(deck)
            deck = pack_order(deck, pack)
        hands = deal(deck, players, dealer)  # FT-1
        # C-2, as check_deck() checks it but on the hands just dealt (52 cards whose
        # masks cover the deck are each card once), which saves sorting the deck.
        dealt = 0
        for hand in hands:
            dealt |= hand
        if len(deck) != pack.bit_count() or dealt != pack:
            raise ValueError(DECK_ERROR)
        self.hands = hands
        self.table: Mask = 0
        self.playable: Mask = SEVENS & pack
        self._unlock = UNLOCKS[rules["ace"] == "high"]
        self._strict = rules["strict"]
        self._any_seven = rules["opening"] == "any-seven"
        self._chips = rules["stakes"] == "chips"
        self.passes = [0] * players
        self.withholdings: list[Withholding] = []
        self.winner = -1
        self.streak = 0  # passes in a row since the last card played (FT-11)
        self.blocked = False  # ended by FT-11, with no winner
        self._block_at = block_after(players)
        # A plain attribute rather than a property: every playing loop reads it each
        # move, and a property call costs as much as a third of a legal-moves call.
        self.is_over = False
        self._size = len(deck)  # cards dealt: 52, or the small pack's (FT-12)
        self.turn = leader(deck, players, dealer, self._any_seven)  # FT-4
        # The legal moves of the turn, as a mask (see _legal_bits): computed as soon as a
        # turn starts, read by legal_moves() and apply().
        self._legal = self._legal_bits()

    # --- Round interface ------------------------------------------------------------

    @property
    def current_player(self) -> int:
        return self.turn

    def _legal_bits(self) -> Mask:
        """The legal moves now as one mask: the legal cards, plus :data:`PASS_BIT` when
        passing is allowed (FT-4, FT-5); 0 once the round is over.

        Computed from the state; the engine keeps the turn's mask in ``_legal`` (set when
        a turn starts: here at the deal, then by ``_apply``, which repeats the last
        three lines below for speed).
        """
        if self.is_over:
            return 0
        hand = self.hands[self.turn]
        if self.table == 0 and not self._any_seven:
            # FT-4: the round opens with 7D; its holder is on turn and may not pass.
            legal = hand & SEVEN_OF_DIAMONDS_BIT
            return legal if legal else PASS_BIT
        legal = hand & self.playable
        if legal == 0 or not self._strict:  # FT-5: pass when nothing fits (or FT-8)
            legal |= PASS_BIT
        return legal

    def legal_mask(self) -> Mask:
        """The legal cards now as one mask (no PASS): for bots and search."""
        return self._legal_bits() & cards.FULL_DECK

    def legal_moves(self) -> list[Move]:
        moves = _MOVE_LISTS.get(self._legal)
        if moves is None:
            moves = _remember_moves(self._legal)
        return list(moves)  # a fresh list: callers may sort or trim it

    def apply(self, move: Move) -> None:
        # The usual move comes from legal_moves(): one bit test of the turn's legal mask
        # instead of the full diagnosis. Anything else (an illegal move, or a move of
        # another type) goes through why_illegal, which explains the refusal.
        if type(move) is int and move >= 0 and self._legal >> move & 1:
            self._apply(move)
        else:
            super().apply(move)

    def ended(self) -> str | None:
        if self.blocked:
            return reference(("refusal.fantan.blocked", {"count": self._block_at}))
        return None

    def why_illegal(self, move: Move) -> str | None:
        refused = self.refusal(move)
        return None if refused is None else reference(refused)

    def refusal(self, move: Move) -> Refusal | None:
        if self.is_over:
            if self.blocked:
                return ("refusal.fantan.blocked", {"count": self._block_at})
            return ("refusal.over", {})
        legal_bits = self._legal_bits()
        legal = legal_bits & cards.FULL_DECK
        if move == PASS:
            if legal_bits & PASS_BIT:
                return None
            if self.table == 0 and not self._any_seven:
                return ("refusal.fantan.must_open", {"card": "7D"})
            return ("refusal.fantan.must_play", {"cards": cards.codes(legal)})
        if type(move) is not int or not 0 <= move < 52:
            return ("refusal.fantan.not_a_move", {})
        if not self.hands[self.turn] >> move & 1:
            return ("refusal.not_in_hand", {"card": cards.code(move), "seat": self.turn})
        if legal >> move & 1:
            return None
        if self.table == 0 and not self._any_seven:
            return ("refusal.fantan.opens", {"card": "7D"})
        return ("refusal.fantan.no_fit", {"card": cards.code(move)})

    def _apply(self, move: Move) -> None:
        seat = self.turn
        self.history.append((seat, move))
        if move == PASS:
            self.passes[seat] += 1
            legal = self.legal_mask()
            if legal:  # withholding (FT-8): remember the 7s and who waits for them
                self.withholdings.append(Withholding(seat, self._withheld_sevens(seat, legal)))
            self.streak += 1
            if self.streak >= self._block_at:  # FT-11: nobody will finish this round
                self.blocked = True
                self.is_over = True
                self.turn = -1
                self._legal = 0
                return
        else:
            self.streak = 0
            bit = 1 << move
            hand = self.hands[seat] ^ bit
            self.hands[seat] = hand
            self.table |= bit
            self.playable = (self.playable ^ bit) | self._unlock[move]
            if hand == 0:  # FT-6
                self.winner = seat
                self.is_over = True
                self.turn = -1
                self._legal = 0
                return
        turn = self.turn = (seat + 1) % self.players
        # The next turn's legal moves: _legal_bits() past the opening (after the first
        # move FT-4 no longer applies), written out as it runs every move.
        legal = self.hands[turn] & self.playable
        if legal == 0 or not self._strict:
            legal |= PASS_BIT
        self._legal = legal

    advance = _apply

    def _withheld_sevens(self, seat: int, legal: Mask) -> tuple[tuple[Card, int, int], ...]:
        down, up = NEIGHBOURS[self.rules["ace"] == "high"]
        out = []
        for c in cards.iter_cards(legal & SEVENS):
            holders = []
            for n in (down[c], up[c]):
                holders.append(next(s for s in range(self.players) if self.hands[s] >> n & 1))
            out.append((c, holders[0], holders[1]))
        return tuple(out)

    def score(self) -> list[int] | None:
        """FT-7 and FT-8: penalty points, or net chips (FT-11 for a blocked round)."""
        if self.winner < 0 and not self.blocked:
            return None
        n, w = self.players, self.winner
        left = [h.bit_count() for h in self.hands]
        fines = [0] * n
        for wh in self.withholdings:
            fines[wh.seat] += 1
        if self.blocked:
            return self._blocked_score(left, fines)
        if not self._chips:
            return [0 if s == w else self.passes[s] + left[s] + 3 * fines[s] for s in range(n)]
        dealt = self.dealt_counts()
        most = max(dealt)
        delta = [0] * n
        pot = 0
        for s in range(n):
            paid = 1 + (dealt[s] < most) + self.passes[s] + 3 * fines[s]
            delta[s] -= paid
            pot += paid
            if s != w:
                delta[s] -= left[s]
                delta[w] += left[s]
        delta[w] += pot
        for wh in self.withholdings:
            for _seven, h6, h8 in wh.sevens:
                for holder in (h6, h8):
                    if holder != wh.seat:
                        delta[wh.seat] -= 5
                        delta[holder] += 5
        return delta

    def _blocked_score(self, left: list[int], fines: list[int]) -> list[int]:
        """FT-11: nobody went out, so everybody scores as a loser does, but no cards are
        paid for (there is no winner to pay): points, passes + cards left + 3 a fine;
        chips, antes, passes and fines into the pot and the 7s' 5-chip payments, then the
        pot shared as :func:`pot_shares` says."""
        n = self.players
        if not self._chips:
            return [self.passes[s] + left[s] + 3 * fines[s] for s in range(n)]
        dealt = self.dealt_counts()
        paid = [1 + (dealt[s] < max(dealt)) + self.passes[s] + 3 * fines[s] for s in range(n)]
        shares = pot_shares(sum(paid), fines, self.dealer)
        delta = [shares[s] - paid[s] for s in range(n)]
        for wh in self.withholdings:
            for _seven, h6, h8 in wh.sevens:
                for holder in (h6, h8):
                    if holder != wh.seat:
                        delta[wh.seat] -= 5
                        delta[holder] += 5
        return delta

    def dealt_counts(self) -> list[int]:
        """How many cards each seat was dealt (FT-1)."""
        return dealt_counts(self.players, self.dealer, self._size)

    def score_detail(self) -> dict[str, Any] | None:
        """FT-7 and FT-8 item by item (see :meth:`parlour.game.Round.score_detail`).

        Points: cards left, passes and withholding fines per seat, the winner writing 0.
        Chips: each seat's ante, passes and fines into the pot, cards left paid to the
        winner, the pot taken by the winner, and the 5-chip payments for withheld 7s;
        ``chips`` lists the ante, the pot and every payment. A seat entry also holds
        ``hand``: the codes of the cards it still held. A blocked round (FT-11) has no
        winner: every seat's items are a loser's, the pot is shared, and a note says why.
        """
        if self.winner < 0 and not self.blocked:
            return None
        n, w = self.players, self.winner
        left = [h.bit_count() for h in self.hands]
        fines = [0] * n
        for wh in self.withholdings:
            fines[wh.seat] += 1
        seats: list[dict[str, Any]] = [
            {"seat": s, "items": [], "total": 0, "hand": cards.codes(self.hands[s])}
            for s in range(n)]

        def item(seat: int, key: str, points: int, rule: str, **params: Any) -> None:
            seats[seat]["items"].append(
                {"key": key, "params": params, "points": points, "rule": rule})

        chips = None
        notes: list[dict[str, Any]] = []
        if self.blocked:
            notes.append({"key": "fantan.note.blocked", "params": {"count": self._block_at},
                          "rule": "FT-11", "seats": []})
        if not self._chips:
            for s in range(n):
                if s == w:
                    item(s, "fantan.score.won", 0, "FT-7")
                    continue
                item(s, "fantan.score.cards_left", left[s], "FT-7", count=left[s])
                item(s, "fantan.score.passes", self.passes[s], "FT-7", count=self.passes[s])
                if fines[s]:
                    item(s, "fantan.score.fines", 3 * fines[s], "FT-8", count=fines[s])
        else:
            dealt = self.dealt_counts()
            payments: list[dict[str, Any]] = []
            pot = 0
            shares = None
            if self.blocked:
                pot = sum(1 + (dealt[s] < max(dealt)) + self.passes[s] + 3 * fines[s]
                          for s in range(n))
                shares = pot_shares(pot, fines, self.dealer)
                pot = 0  # counted again below, seat by seat
            for s in range(n):
                ante = 1 + (dealt[s] < max(dealt))
                pot += ante + self.passes[s] + 3 * fines[s]
                item(s, "fantan.chips.ante" + (".short" if ante > 1 else ""), -ante, "FT-7",
                     count=ante)
                item(s, "fantan.chips.passes", -self.passes[s], "FT-7", count=self.passes[s])
                if fines[s]:
                    item(s, "fantan.chips.fines", -3 * fines[s], "FT-8", count=fines[s])
                if shares is not None:
                    if shares[s]:
                        item(s, "fantan.chips.share." + ("clean" if any(fines) else "all"),
                             shares[s], "FT-11")
                elif s != w:
                    item(s, "fantan.chips.cards_left", -left[s], "FT-7", count=left[s])
                    if left[s]:
                        payments.append({"from": s, "to": w, "chips": left[s],
                                         "key": "fantan.pay.cards_left", "params": {}})
            if shares is None:
                others = sum(left) - left[w]
                item(w, "fantan.chips.others_left", others, "FT-7", count=others)
                item(w, "fantan.chips.pot", pot, "FT-7")
            self._detail_sevens(item, payments)
            chips = {"ante": 1, "antes": [1 + (d < max(dealt)) for d in dealt], "pot": pot,
                     "payments": payments}
        for entry in seats:
            entry["total"] = sum(i["points"] for i in entry["items"])
        return {"seats": seats, "notes": notes, "chips": chips}

    def _detail_sevens(self, item: Any, payments: list[dict[str, Any]]) -> None:
        """The 5-chip payments for withheld 7s (FT-8), one item and payment per
        offender, 7 and holder, however often it was withheld."""
        times: dict[tuple[int, Card, int, Card], int] = {}
        down, up = NEIGHBOURS[self.rules["ace"] == "high"]
        for wh in self.withholdings:
            for seven, h6, h8 in wh.sevens:
                for holder, waits in ((h6, down[seven]), (h8, up[seven])):
                    if holder != wh.seat:
                        key = (wh.seat, seven, holder, waits)
                        times[key] = times.get(key, 0) + 1
        for (offender, seven, holder, waits), k in times.items():
            codes = {"seven_card": cards.code(seven), "waits_card": cards.code(waits)}
            chips = 5 * k
            item(offender, "fantan.chips.held_back", -chips, "FT-8", count=k, **codes)
            item(holder, "fantan.chips.held_back.holder", chips, "FT-8", count=k, **codes)
            payments.append({"from": offender, "to": holder, "chips": chips,
                             "key": "fantan.pay.held_back",
                             "params": {"seven_card": codes["seven_card"]}})

    def pot(self) -> int:
        """Chips in the pot now (FT-7): the antes and one per pass; fines come at the end."""
        return pot_in_play(self.players, self.dealer, self.passes, self._size)

    def hand(self, seat: int) -> Mask:
        return self.hands[seat]

    def locations(self) -> list[Mask]:
        return [*self.hands, self.table]

    def view(self, seat: int) -> FanTanView:
        score = self.score()
        return FanTanView(
            seat=seat,
            players=self.players,
            dealer=self.dealer,
            rules=dict(self.rules),
            hand=self.hands[seat],
            table=self.table,
            hand_counts=tuple(h.bit_count() for h in self.hands),
            passes=tuple(self.passes),
            history=tuple(self.history),
            current_player=self.turn,
            legal=tuple(self.legal_moves()) if seat == self.turn else (),
            score=tuple(score) if score is not None else None,
            winner=self.winner,
        )

    def copy(self) -> FanTanRound:
        new = FanTanRound.__new__(FanTanRound)
        new.players = self.players
        new.dealer = self.dealer
        new.rules = self.rules
        new.deck = self.deck
        new.history = self.history.copy()
        new.hands = self.hands.copy()
        new.table = self.table
        new.playable = self.playable
        new.turn = self.turn
        new.passes = self.passes.copy()
        new.withholdings = self.withholdings.copy()
        new.winner = self.winner
        new.is_over = self.is_over
        new.streak = self.streak
        new.blocked = self.blocked
        new._block_at = self._block_at
        new._legal = self._legal
        new._unlock = self._unlock
        new._strict = self._strict
        new._any_seven = self._any_seven
        new._chips = self._chips
        new._size = self._size
        return new


def dealt_counts(players: int, dealer: int, size: int = 52) -> list[int]:
    """How many cards each seat is dealt from ``size`` cards (FT-1: the seats dealt first
    hold one more; FT-12: 6 for the small pack)."""
    return [len(range((s - dealer - 1) % players, size, players)) for s in range(players)]


def pot_shares(pot: int, fines: Sequence[int], dealer: int) -> list[int]:
    """FT-11, chips: a blocked round's pot, shared equally by the seats that held nothing
    back all round (by every seat if all did); the chips that do not divide go one each
    to the sharers first after the dealer, clockwise, as the deal hands out cards (FT-1)."""
    n = len(fines)
    sharers = [s for s in range(n) if not fines[s]] or list(range(n))
    each, odd = divmod(pot, len(sharers))
    out = [0] * n
    for s in sharers:
        out[s] = each
    for s in sorted(sharers, key=lambda s: (s - dealer - 1) % n)[:odd]:
        out[s] += 1
    return out


def pot_in_play(players: int, dealer: int, passes: Sequence[int], size: int = 52) -> int:
    """Chips in the pot during a round (FT-7): every ante (1, and 1 more for a seat dealt a
    card fewer) and one chip per pass; withholding fines join it at the end (FT-8)."""
    dealt = dealt_counts(players, dealer, size)
    return sum(1 + (d < max(dealt)) for d in dealt) + sum(passes)



class FanTan(Game):
    """Fan Tan: 3 to 8 players shed cards onto four rows that grow from the 7s."""

    name = "fantan"
    title = "Fan Tan"
    min_players = 3
    max_players = 8
    default_players = 4  # best with four to six
    rating_sizes = ((3, 4), (5, 8))  # 13+ cards a hand, or a short hand among many
    options = OptionSet(
        Option("rounds", int, lambda players: players, minimum=1,
               help="rounds in a game; default: the number of players (FT-9)"),
        Option("opening", str, "seven-of-diamonds", ("seven-of-diamonds", "any-seven"),
               help="who opens the round (FT-4)"),
        Option("ace", str, "low", ("low", "high"), help="ace below the 2 or above the K (FT-2)"),
        Option("stakes", str, "points", ("points", "chips"), help="penalty points or chips (FT-7)"),
        Option("strict", bool, True, (True, False),
               help="pass only when nothing fits; false allows fined withholding (FT-5, FT-8)"),
        Option("pack", str, "full", ("full", "small"), optional=True, compiled=False,
               research=True,
               help="the whole deck, or the small pack of 6 cards for research (FT-12)"),
    )

    def pack(self, rules: dict[str, Any]) -> Mask:
        return pack_mask(rules)  # FT-12

    def deal_groups(self, rules: dict[str, Any], players: int, dealer: int) -> list[int]:
        """FT-1: a card's group is the seat it goes to (a hand's order changes nothing)."""
        return [deal_seat(players, dealer, i) for i in range(pack_mask(rules).bit_count())]

    def new_round(self, rules: dict[str, Any], players: int, dealer: int,
                  deck: Sequence[Card]) -> FanTanRound:
        self.check_deal(players, dealer)
        return FanTanRound(rules, players, dealer, deck)

    def lower_wins(self, rules: dict[str, Any]) -> bool:
        return rules["stakes"] == "points"

    def public_passes(self, rules: dict[str, Any]) -> bool:
        return rules["strict"]  # FT-5: under strict: false a pass may withhold a card

    def max_round_moves(self, players: int) -> int:
        return max_round_moves(players)  # FT-11

    def game_winners(self, rules: dict[str, Any], rounds: Sequence[Round],
                     totals: Sequence[int]) -> list[int]:
        """FT-9: best totals; with ``rounds: 1`` the round's winner, whatever the chips say.

        (Under chips with withholding fines a round's winner can end below a player
        who was paid the 5-chip fines; the ruling still gives the game to the winner.)
        """
        if (rules["rounds"] == 1 and len(rounds) == 1 and isinstance(rounds[0], FanTanRound)
                and rounds[0].winner >= 0):  # a blocked round (FT-11): the totals decide
            return [rounds[0].winner]
        return self.winners(rules, totals)

    def move_to_json(self, move: Move) -> dict[str, Any]:
        return {"pass": True} if move == PASS else {"play": cards.code(move)}

    def move_from_json(self, data: dict[str, Any]) -> Move:
        keys = set(data)
        if keys == {"pass"}:
            if data["pass"] is not True:
                raise ValueError('"pass" must be true')
            return PASS
        if keys == {"play"}:
            return cards.from_code(data["play"])
        raise ValueError(f'a Fan Tan move is {{"play": CARD}} or {{"pass": true}}, '
                         f"not keys {sorted(keys)}")

    def format_move(self, move: Move) -> str:
        return "pass" if move == PASS else f"play {cards.code(move)}"


FANTAN = FanTan()
GAME = FANTAN
FanTanRound.game = FANTAN

