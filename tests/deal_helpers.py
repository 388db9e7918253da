"""Build deck orders that deal chosen cards to chosen seats (RULINGS C-2, FA-3, FT-1).

A test names the cards it cares about; every other card fills the remaining places in
card order, so a deck is fully determined by what the test writes.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from parlour import cards


def _cards(codes: Sequence[str]) -> list[int]:
    return [cards.from_code(c) for c in codes]


def _fill(deck: list[int | None], used: set[int]) -> list[int]:
    rest = iter(c for c in range(52) if c not in used)
    out = [c if c is not None else next(rest) for c in deck]
    assert sorted(out) == list(range(52)), "a card was placed twice"
    return out


def fantan_deck(players: int, dealer: int, hands: Mapping[int, Sequence[str]]) -> list[int]:
    """A deck where seat ``s`` is dealt ``hands[s]`` under FT-1.

    FT-1: deck card ``i`` goes to seat ``(dealer + 1 + i) % players``. Cards not named
    fill the remaining places in card order.
    """
    deck: list[int | None] = [None] * 52
    used: set[int] = set()
    for seat, codes in hands.items():
        places = [i for i in range(52) if (dealer + 1 + i) % players == seat]
        chosen = _cards(codes)
        if len(chosen) > len(places):
            raise ValueError(f"seat {seat} is dealt only {len(places)} cards")
        for i, c in zip(places, chosen, strict=False):
            if c in used:
                raise ValueError(f"{cards.code(c)} named twice")
            deck[i] = c
            used.add(c)
    return _fill(deck, used)


def fanti_deck(players: int, dealer: int, table: Sequence[str] = (),
               deals: Sequence[Mapping[int, Sequence[str]]] = ()) -> list[int]:
    """A deck with ``table`` face up (FA-3) and ``deals[k][s]`` in seat ``s``'s k-th hand.

    FA-3: the first 4 cards go to the table; then each deal gives 4 cards to every seat,
    one at a time from the seat after the dealer. Unnamed places fill in card order.
    """
    deck: list[int | None] = [None] * 52
    used: set[int] = set()

    def put(i: int, c: int) -> None:
        if c in used:
            raise ValueError(f"{cards.code(c)} named twice")
        deck[i] = c
        used.add(c)

    for i, c in enumerate(_cards(table)):
        put(i, c)
    for k, deal in enumerate(deals):
        start = 4 + 4 * players * k
        for seat, codes in deal.items():
            offset = (seat - dealer - 1) % players
            for j, c in enumerate(_cards(codes)):
                put(start + j * players + offset, c)
    return _fill(deck, used)


def masks(*codes: str) -> int:
    """The mask of some card codes."""
    return cards.mask_from_codes(codes)


def worded(r: Any) -> dict[str, Any] | None:
    """A finished round's ``score_detail()`` with its English words (the presenter's,
    from the ``game`` catalogs), as the terminal and the page read it."""
    from parlour.present import presenter

    return presenter(r.game).worded(r.score_detail())
