"""Fanti's search chooses and values exactly as recorded on fixed seeded positions.

``search_fixed.json`` holds, for seeded positions of 2, 3 and 4 players (every deal,
the last one included, where the search runs to FA-8's leftovers and the true score):
the moves of ``hard``, ``expert`` and ``deep`` at a fixed iteration budget, and the
exact values of every root move from the three solvers -- :func:`.search.solve_moves`
(plain, ``respond``, ``fitted``; a two-deal world for 2 players), the joint
:class:`.infoset.InfoSolver` -- on seeded worlds, and the opponent reader's
posteriors (:func:`.opponents.read_seats`) with who had collected last before each
play it reads (:func:`.opponents.round_plays`). It was written on the code before the
search's FA-8 bookkeeping moved to :func:`.rules.last_collector_after` (issue #34); a
refactor that changes any search path changes a value here.

Regenerate only for a deliberate change of play:
``PYTHONPATH=src:tests python tests/games/fanti/test_fanti_search_fixed.py``.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from typing import Any

import pytest

from parlour.bots import make_bot
from parlour.games import get_game

HERE = Path(__file__).with_name("search_fixed.json")
CASES: list[tuple[int, dict[str, Any]]] = [
    (2, {}),
    (3, {"ties": "shared", "guardian_takes_guardians": False}),
    (4, {}),
]
SEEDS = (11, 12, 13)
AT = {2: (1, 14, 27, 40, 42, 44, 46), 3: (2, 17, 36, 38, 41, 44), 4: (3, 21, 32, 35, 39, 43)}
"""Moves into the round where the search is asked: an early deal, middle ones, and the
last deal (2p from move 40, 3p from 36, 4p from 32)."""
WORLDS = 3


def _key(case: tuple[int, dict[str, Any]]) -> str:
    return f"{case[0]}p {json.dumps(case[1], sort_keys=True)}"


def _views(players: int, rules: dict[str, Any], seed: int):
    g = get_game("fanti")
    deck = list(range(52))
    random.Random(seed + players).shuffle(deck)
    r = g.new_round(g.rules(players, {**rules, "rounds": 1}), players, seed % players, deck)
    walker = make_bot("heuristic", "fanti", seed)
    for stop in AT[players]:
        while not r.is_over and len(r.history) < stop:
            r.apply(walker.choose(r.view(r.current_player)))
        if r.is_over:
            break
        yield stop, r.view(r.current_player)


def _values(view: Any, seed: int) -> dict[str, Any]:
    from parlour.games.fanti.opponents import read_seats, round_plays
    from parlour.games.fanti.search import NowWorlds, deal_hands, next_deal, solve_moves

    rng = random.Random(seed)
    legal = list(view.legal)
    worlds = [deal_hands(view, rng) for _ in range(WORLDS)]
    out: dict[str, Any] = {}
    for i, world in enumerate(worlds):
        out[f"plain {i}"] = solve_moves(view, world, legal)
        out[f"respond {i}"] = solve_moves(view, world, legal, respond=True)
        if view.players == 2 and view.deck_left:
            out[f"fitted {i}"] = solve_moves(view, world, legal, respond=True, fitted=True)
            out[f"two deals {i}"] = solve_moves(view, world + next_deal(view, world, rng),
                                                legal, respond=True)
    weighted = [(w, 1.0 + k) for k, w in enumerate(worlds)]
    out["joint"] = NowWorlds(joint=True).solve_all(view, weighted, legal)
    if view.players == 2:
        out["joint fitted"] = NowWorlds(fitted=True, joint=True).solve_all(view, weighted, legal)
    if view.history:
        post = read_seats(view, worlds)
        out["reading"] = {str(s): post.weights(s) for s in sorted(post.log)}
        out["collectors"] = [p.last_collector for p in round_plays(view)]
    return json.loads(json.dumps(out))  # tuples as lists, as read back from the file


def recorded(case: tuple[int, dict[str, Any]]) -> dict[str, Any]:
    players, rules = case
    names = ["hard:30", "expert:30"] + (["deep:30"] if players == 2 else [])
    out: dict[str, Any] = {}
    for seed in SEEDS:
        for stop, view in _views(players, rules, seed):
            moves = {name: str(make_bot(name, "fanti", seed).choose(view)) for name in names}
            out[f"{seed}/{stop}"] = {"moves": moves, "values": _values(view, seed)}
    return out


@pytest.fixture(scope="module")
def expected() -> dict[str, Any]:
    return json.loads(HERE.read_text())


@pytest.mark.parametrize("case", CASES, ids=_key)
def test_search_chooses_and_values_as_recorded(case, expected):
    got = recorded(case)
    assert list(got) == list(expected[_key(case)])  # every position reached
    for at, row in got.items():
        assert row == expected[_key(case)][at], f"seed/move {at}"


if __name__ == "__main__":  # regenerate (a deliberate change of play only)
    # one line a position: the file stays readable in a diff
    lines = []
    for c in CASES:
        rows = [f"  {json.dumps(at)}: {json.dumps(row)}" for at, row in recorded(c).items()]
        lines.append(f" {json.dumps(_key(c))}: {{\n" + ",\n".join(rows) + "\n }")
    HERE.write_text("{\n" + ",\n".join(lines) + "\n}\n")
    print(f"wrote {HERE}", file=sys.stderr)
