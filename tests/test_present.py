"""The presentation layer asks the game's kit (issue 11): presenters by registry, views
rebuilt from their JSON exactly (the remote client draws them like local play), and no
generic module of the layer compares anything with a game's name."""

from __future__ import annotations

import ast
import random
from pathlib import Path

import pytest

import parlour
from parlour.games import GAMES, get_kit
from parlour.present import Presenter, presenter

SRC = Path(parlour.__file__).parent
LAYER = [SRC / "render.py", SRC / "present.py", SRC / "netclient.py", SRC / "bench.py",
         SRC / "measures.py", *sorted((SRC / "cli").rglob("*.py")),
         *sorted((SRC / "arena").glob("*.py"))]


@pytest.mark.parametrize("path", LAYER, ids=lambda p: str(p.relative_to(SRC)))
def test_generic_modules_never_compare_with_a_game_name(path):
    """A third game must not silently get another game's behaviour (issue 11)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare):
            for part in [node.left, *node.comparators]:
                assert not (isinstance(part, ast.Constant) and part.value in GAMES), \
                    f"{path.name}:{node.lineno} compares with the game name {part.value!r}"
        if isinstance(node, ast.Dict):  # e.g. {"fanti": 2, "fantan": 4}
            names = {k.value for k in node.keys if isinstance(k, ast.Constant)}
            assert not names & set(GAMES), f"{path.name}:{node.lineno} keys by game name"


@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_game_has_a_presenter_for_its_own_game(name):
    """The kit's own ``present.PRESENTER``, or the base presenter for a game without that
    part (the part is optional, :mod:`parlour.kit`)."""
    p = presenter(name)
    assert isinstance(p, Presenter) and p.game is GAMES[name]
    own = get_kit(name).attr("present", "PRESENTER")
    assert p is own if own is not None else type(p) is Presenter


@pytest.mark.parametrize("name", sorted(GAMES))
@pytest.mark.parametrize("seed", range(5))
def test_a_view_rebuilt_from_its_json_is_the_same_view(name, seed):
    """The server sends ``view.to_json()``; the terminal client rebuilds the view."""
    game = GAMES[name]
    rng = random.Random(seed)
    players = rng.randint(game.min_players, game.max_players)
    deck = list(range(52))
    rng.shuffle(deck)
    r = game.new_round(game.rules(players), players, 0, deck)
    steps = rng.randrange(40)
    while not r.is_over and steps:
        r.apply(rng.choice(r.legal_moves()))
        steps -= 1
    own = get_kit(name).attr("present", "PRESENTER") is not None
    for seat in range(players):
        view = r.view(seat)
        rebuilt = presenter(name).view_from_json(view.to_json())
        # a game without a presenter is shown from its JSON fields (None: no rebuild)
        assert rebuilt == view if own else rebuilt is None


def _pass_view(stakes: str, withholding: bool):
    """A Fan Tan seat view on its turn with a pass legal (and a card too, when
    ``withholding``)."""
    from parlour.game import PASS
    from parlour.games.fantan.rules import FanTanView

    legal = (25, PASS) if withholding else (PASS,)
    return FanTanView(seat=0, players=3, dealer=2, rules={"stakes": stakes, "ace": "low"},
                      hand=0, table=0, hand_counts=(17, 17, 17), passes=(0, 0, 0),
                      history=(), current_player=0, legal=legal, score=None, winner=-1)


@pytest.mark.parametrize(("stakes", "withholding", "words"), [
    ("points", False, "Pass: costs 1 penalty point (FT-7)"),
    ("points", True, "Pass: costs 1 penalty point (FT-7); you hold a playable card, so it is "
                     "fined 3 penalty points at the end of the round (FT-8)"),
    ("chips", False, "Pass: costs 1 chip into the pot (FT-7)"),
    ("chips", True, "Pass: costs 1 chip into the pot (FT-7); you hold a playable card, so it "
                    "is fined 3 chips into the pot, and 5 chips to each holder of the 6 and 8 "
                    "for a withheld 7 at the end of the round (FT-8)"),
])
def test_the_pass_button_words_come_from_the_game_presenter(stakes, withholding, words):
    """FT-5, FT-7, FT-8: the web table's pass sentence is the Fan Tan presenter's (the
    server asks it, :func:`parlour.server.views.pass_info`)."""
    assert presenter("fantan").pass_offer(_pass_view(stakes, withholding)) == words


def test_a_game_without_pass_words_offers_a_plain_pass():
    """The base presenter words a pass from its ``pass_note`` (nothing here: "Pass")."""
    plain = Presenter(get_kit("fanti").game)
    assert plain.pass_offer(_pass_view("points", False)) == "Pass"
