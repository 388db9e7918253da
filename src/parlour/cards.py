"""Playing cards: integer codes, bit masks, parsing and formatting (RULINGS C-1).

A card is an ``int`` from 0 to 51: ``suit * 13 + rank``, where ``rank`` is 0 for the
Ace up to 12 for the King and suits run clubs, diamonds, hearts, spades (C, D, H, S).
A set of cards is an ``int`` bit mask with bit ``card`` set for every card in it, so
hands, tables and piles are single integers and set operations are one instruction.

>>> from parlour import cards
>>> cards.parse("7D")
19
>>> cards.code(cards.parse("t♥"))
'10H'
>>> cards.codes(cards.mask_of([cards.parse("AS"), cards.parse("2C")]))
['2C', 'AS']
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

Card = int
"""A card, 0..51 (``suit * 13 + rank``)."""

Mask = int
"""A set of cards as a 52-bit integer."""

RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITS = ("C", "D", "H", "S")
SUIT_SYMBOLS = ("♣", "♦", "♥", "♠")
SUIT_NAMES = ("clubs", "diamonds", "hearts", "spades")
RANK_NAMES = (
    "Ace", "2", "3", "4", "5", "6", "7", "8", "9", "10", "Jack", "Queen", "King",
)

CLUBS, DIAMONDS, HEARTS, SPADES = range(4)
ACE, JACK, QUEEN, KING = 0, 10, 11, 12

DECK_SIZE = 52
FULL_DECK: Mask = (1 << DECK_SIZE) - 1
SUIT_MASKS: tuple[Mask, ...] = tuple(((1 << 13) - 1) << (13 * s) for s in range(4))

ALL_CODES: tuple[str, ...] = tuple(r + s for s in SUITS for r in RANKS)
"""Canonical codes of cards 0..51, in card order."""

_CODE_TO_CARD = {c: i for i, c in enumerate(ALL_CODES)}
_SYMBOL_TO_SUIT = {"♣": "C", "♦": "D", "♥": "H", "♠": "S"}


def card(rank: int, suit: int) -> Card:
    """The card of ``rank`` (0 = Ace .. 12 = King) and ``suit`` (0..3)."""
    return suit * 13 + rank


def rank_of(c: Card) -> int:
    return c % 13


def suit_of(c: Card) -> int:
    return c // 13


def code(c: Card) -> str:
    """Canonical code of a card: rank then suit, e.g. ``"10D"``."""
    return ALL_CODES[c]


def from_code(text: str) -> Card:
    """Card of a canonical code, exactly as records hold it (``"10H"``, not ``"TH"``).

    Raises ``ValueError`` for anything else.
    """
    try:
        return _CODE_TO_CARD[text]
    except (KeyError, TypeError):
        raise ValueError(f"not a card code: {text!r}") from None


def parse(text: str) -> Card:
    """Card from what a person types: ``10h``, ``Th``, ``t♥``, ``7D``, ``q♠``.

    Raises ``ValueError`` with the reason when the text is not a card.
    """
    s = text.strip()
    for sym, letter in _SYMBOL_TO_SUIT.items():
        s = s.replace(sym, letter)
    s = s.replace("\ufe0f", "").upper()  # emoji variation selector, as in "♠️"
    if s.startswith("T"):
        s = "10" + s[1:]
    if s in _CODE_TO_CARD:
        return _CODE_TO_CARD[s]
    raise ValueError(
        f"not a card: {text!r} (write rank then suit, e.g. 7D, 10H, TH, q♠)"
    )


def bit(c: Card) -> Mask:
    return 1 << c


def mask_of(cs: Iterable[Card]) -> Mask:
    m = 0
    for c in cs:
        m |= 1 << c
    return m


def _suit_table(suit: int) -> tuple[tuple[Card, ...], ...]:
    """For every 13-bit rank mask, the cards it stands for in ``suit``, ascending.

    Built from the entry without the lowest bit: ``table[m] = (lowest,) + table[m & (m - 1)]``.
    """
    table: list[tuple[Card, ...]] = [()] * 8192
    for m in range(1, 8192):
        lowest = (m & -m).bit_length() - 1
        table[m] = (suit * 13 + lowest,) + table[m & (m - 1)]
    return tuple(table)


# Turning a mask into its cards is on every engine's hot path (legal moves, hands), so
# it is four table look-ups, one per suit, rather than a loop over the bits: 4 x 8,192
# precomputed tuples (about 3 MB, built in ~20 ms at import).
_CLUB_CARDS, _DIAMOND_CARDS, _HEART_CARDS, _SPADE_CARDS = (_suit_table(s) for s in range(4))


def _bits_of(m: int) -> list[int]:
    """The set bits of any non-negative int, ascending (the slow, general way)."""
    out = []
    while m:
        low = m & -m
        out.append(low.bit_length() - 1)
        m ^= low
    return out


def cards_of(m: Mask) -> list[Card]:
    """The cards of a mask in ascending card order, as a new list.

    Bits above the deck (52 and up) come last, as their bit numbers: the Fan Tan
    engine keeps PASS (52) in its legal-move mask and gets its move list in one call.
    """
    out = [*_CLUB_CARDS[m & 8191], *_DIAMOND_CARDS[m >> 13 & 8191],
           *_HEART_CARDS[m >> 26 & 8191], *_SPADE_CARDS[m >> 39 & 8191]]
    if m >> DECK_SIZE:
        out += [DECK_SIZE + b for b in _bits_of(m >> DECK_SIZE)]
    return out


def iter_cards(m: Mask) -> Iterator[Card]:
    """The cards of a mask in ascending card order."""
    return iter(cards_of(m))


def count(m: Mask) -> int:
    return m.bit_count()


def codes(m: Mask) -> list[str]:
    """Canonical codes of a mask's cards, in card order."""
    return [ALL_CODES[c] for c in cards_of(m)]


def mask_from_codes(cs: Iterable[str]) -> Mask:
    return mask_of(from_code(c) for c in cs)


def sort_key_by_suit(c: Card) -> tuple[int, int]:
    """Sort a hand by suit, then rank (the order people hold cards in)."""
    return (suit_of(c), rank_of(c))


def symbol(c: Card) -> str:
    """Short label with the suit symbol, e.g. ``10♦``."""
    return RANKS[rank_of(c)] + SUIT_SYMBOLS[suit_of(c)]
