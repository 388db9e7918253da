"""A game is found by its other spellings too: hyphens, spaces, underscores and case
(``get_kit("fan-tan")``, ``"Fan Tan"``), and an unknown name is refused in words."""

from __future__ import annotations

import pytest

from parlour.games import GAMES, get_game, get_kit


@pytest.mark.parametrize("name", ["fan-tan", "Fan Tan", "FAN_TAN", " fantan "])
def test_fan_tan_aliases(name):
    assert get_kit(name).name == "fantan"
    assert get_game(name) is GAMES["fantan"]


@pytest.mark.parametrize("name", ["Fanti", "fan-ti", "FANTI"])
def test_fanti_aliases(name):
    assert get_kit(name).name == "fanti"


def test_every_game_is_found_by_its_title():
    for name, game in GAMES.items():
        assert get_kit(game.title).name == name


@pytest.mark.parametrize("name", ["fan tan tan", "", 7])
def test_an_unknown_name_is_refused_with_the_choices(name):
    with pytest.raises(ValueError, match="unknown game .*choose one of: .*fantan"):
        get_kit(name)
