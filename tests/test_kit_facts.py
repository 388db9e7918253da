"""What the generic layers ask a game instead of naming its options or attributes:
whether passes are public, the leftovers and who takes them, the undealt stock (the
``Round``/``Game`` interface), the pot and signed scores (the presenter), and each
game's usual table size (CLI help, quick play)."""

from __future__ import annotations

import random

import pytest

from parlour.cli.common import players_help
from parlour.game import PASS, Round
from parlour.games import GAMES, get_game
from parlour.present import Presenter, presenter


def played(game: str, players: int, rules: dict, seed: int, moves: int | None = None) -> Round:
    """A round of random legal moves (all of it, or ``moves`` of them)."""
    g = get_game(game)
    rng = random.Random(seed)
    deck = list(range(52))
    rng.shuffle(deck)
    r = g.new_round(g.rules(players, rules), players, 0, deck)
    while not r.is_over and (moves is None or len(r.history) < moves):
        r.apply(rng.choice(r.legal_moves()))
    return r


@pytest.mark.parametrize(("strict", "public"), [(True, True), (False, False)])
def test_fantan_passes_are_public_only_when_strict(strict, public):
    """FT-5: under strict: false a pass may withhold a playable card, so it proves
    nothing (the server then never announces a forced pass)."""
    g = get_game("fantan")
    assert g.public_passes(g.rules(4, {"strict": strict})) is public


def test_a_game_without_withholding_has_public_passes():
    g = get_game("fanti")
    assert g.public_passes(g.rules(2)) is True


@pytest.mark.parametrize("seed", range(8))
def test_fanti_leftovers_go_to_the_last_collector(seed):
    """FA-8: the cards left on the table at the end go to whoever collected last."""
    r = played("fanti", 2, {}, seed)
    last = next((s for s, m in reversed(r.history) if m >> 6), None)
    assert r.leftovers_to() == last
    if last is not None:
        assert r.leftovers() & r.piles[last] == r.leftovers()


def test_fantan_has_no_leftovers_and_no_stock():
    r = played("fantan", 4, {}, 3)
    assert r.leftovers() == 0 and r.leftovers_to() is None and r.stock() == 0


@pytest.mark.parametrize("moves", [0, 5, 20])
def test_fanti_stock_is_the_undealt_deck(moves):
    """FA-3: 4 cards each and 4 to the table at the start, 4 each again as hands run
    out; the rest stays face down."""
    r = played("fanti", 2, {}, 1, moves)
    stock = r.stock()
    assert stock.bit_count() == 52 - r.dealt
    shown = r.table | r.hands[0] | r.hands[1] | r.piles[0] | r.piles[1]
    assert stock & shown == 0 and (stock | shown).bit_count() == 52


@pytest.mark.parametrize("seed", range(5))
def test_the_fantan_pot_is_shown_under_chips_only(seed):
    """FT-7: antes and one chip per pass while the round is played; 0 once the winner
    took it; no pot at all under penalty points."""
    chips = played("fantan", 4, {"stakes": "chips", "strict": False}, seed, 6)  # in play
    pres = presenter("fantan")
    assert pres.pot(chips.view(1)) == chips.pot() > 0
    assert pres.pot(played("fantan", 4, {"stakes": "chips"}, seed).view(0)) == 0
    assert pres.pot(played("fantan", 4, {}, seed, 30).view(1)) is None
    assert pres.signed_scores(chips.rules) and not pres.signed_scores({"stakes": "points"})


def test_a_game_without_a_pot_says_none():
    r = played("fanti", 2, {}, 0, 4)
    assert presenter("fanti").pot(r.view(0)) is None
    assert Presenter(get_game("fanti")).signed_scores(r.rules) is False
    assert PASS not in r.legal_moves()


def test_help_says_each_game_usual_table_size():
    """The command line's --players help comes from the games (usual_players, range)."""
    text = players_help("Seats", ranges=True)
    for g in GAMES.values():
        assert f"{g.title} {g.min_players}-{g.max_players}, default {g.usual_players}" in text
        assert f"{g.usual_players} for {g.title}" in players_help("Seats")
