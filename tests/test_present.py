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
