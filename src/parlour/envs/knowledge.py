"""What the public record proves about hidden cards.

Only one thing, and only in Fan Tan under ``strict: true`` (FT-5): a seat passes
exactly when no card in its hand fits, so every card that fitted the table at one of
its passes is known not to be in its hand from then on (cards never return to a hand).
Fanti has no such inference: a discard only says the discarded card collected
nothing (FA-6), and the player chose which card to play.

Both the OpenSpiel information-state tensor and the ISMCTS resampler use this, so
search never imagines a deal the table has already ruled out.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from parlour.game import PASS, Move
from parlour.games.fantan.rules import SEVEN, SEVEN_OF_DIAMONDS, SEVENS, UNLOCKS


def fantan_voids(players: int, rules: dict[str, Any],
                 history: Sequence[tuple[int, Move]]) -> list[int]:
    """Per seat, the mask of cards the seat is known not to hold (FT-5, strict only)."""
    voids = [0] * players
    if not rules["strict"]:
        return voids
    unlock = UNLOCKS[rules["ace"] == "high"]
    any_seven = rules["opening"] == "any-seven"
    table = 0
    playable = SEVENS
    for seat, move in history:
        if move == PASS:
            fits = playable if table or any_seven else 1 << SEVEN_OF_DIAMONDS
            voids[seat] |= fits
            continue
        bit = 1 << move
        table |= bit
        playable = (playable ^ bit) | unlock[move]
    return voids


def fantan_playable(table: int, rules: dict[str, Any]) -> int:
    """The cards that fit the table now (FT-3, FT-4), whoever holds them."""
    return _playable(table, rules["ace"] == "high", rules["opening"] == "any-seven")


@lru_cache(maxsize=1 << 14)
def _playable(table: int, ace_high: bool, any_seven: bool) -> int:
    if table == 0:
        return SEVENS if any_seven else 1 << SEVEN_OF_DIAMONDS
    fits = 0
    for suit in range(4):
        row = table >> (13 * suit) & 0x1FFF
        if ace_high:  # rank order 2..K, A: rotate the Ace above the King
            row = (row >> 1) | ((row & 1) << 12)
        if row == 0:
            ends = 1 << (SEVEN - 1 if ace_high else SEVEN)
        else:
            low = (row & -row).bit_length() - 1
            high = row.bit_length() - 1
            ends = (1 << (low - 1) if low > 0 else 0) | (1 << (high + 1) if high < 12 else 0)
        if ace_high:
            ends = ((ends << 1) | (ends >> 12)) & 0x1FFF
        fits |= ends << (13 * suit)
    return fits
