"""Fanti's card names (RULINGS FA-1), and how a player may type them (the presenter)."""

from __future__ import annotations

import pytest

from parlour import cards
from parlour.games import get_game
from parlour.games.fanti import names
from parlour.present import presenter


@pytest.mark.parametrize(("code", "name", "short"), [
    ("2C", "Leaf 2", "2🍃"), ("10D", "Star 10", "10★"), ("JH", "Hearts Guardian", "G♥"),
    ("QS", "Spades Mystic", "M♠"), ("KD", "Star Scout", "S★"), ("AC", "Leaf Ace", "A🍃"),
    ("5S", "Spades 5", "5♠"),
])
def test_fa1_fanti_names(code, name, short):
    """FA-1: Guardian = J, Mystic = Q, Scout = K, Leaf = clubs, Star = diamonds."""
    c = cards.from_code(code)
    assert names.name(c) == name
    assert names.short(c) == short
    assert get_game("fanti").card_name(c) == name


@pytest.mark.parametrize(("typed", "code"), [
    ("G★", "JD"), ("m♠", "QS"), ("s🍃", "KC"), ("10★", "10D"), ("a🍃", "AC"), ("T♥", "10H"),
])
def test_fa1_marks_and_letters_are_read_as_typed(typed, code):
    """FA-1: the Fanti marks (Leaf, Star) and rank letters (G, M, S) are read as cards."""
    assert presenter("fanti").parse_card(typed) == cards.from_code(code)
