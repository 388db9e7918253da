"""The shipped bots choose exactly as they did: fixed positions, recorded moves.

``fixed_moves.json`` holds, for seeded positions of both games in several rule variants,
the moves of the Python bots (``greedy``, ``heuristic``), the learned bots (the shipped
weights), the compiled search (``hard`` at a fixed iteration budget), the opponent
reader's posteriors, and whole runs of the compiled vector environments (their
``random``/``greedy``/``heuristic`` opponents, and an illegal action's restart). It was
written on the code before the kernels' transitions were gathered into one place
(issue #34); a refactor that changes any rule path changes a move here.

Regenerate only for a deliberate change of play: ``python tests/bots/test_bots_fixed_moves.py``.
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from parlour.bots import make_bot
from parlour.bots.budget import Budget
from parlour.envs.learned import shipped
from parlour.games import get_game

HERE = Path(__file__).with_name("fixed_moves.json")
CASES: list[tuple[str, int, dict[str, Any]]] = [
    ("fantan", 4, {}),
    ("fantan", 4, {"strict": False, "stakes": "chips"}),
    ("fantan", 3, {"opening": "any-seven", "ace": "high", "strict": False}),
    ("fanti", 2, {}),
    ("fanti", 3, {"ties": "shared", "guardian_takes_guardians": False}),
]
SEEDS = (0, 1, 2)
AT = (0, 7, 19, 31)  # moves into the round where the bots are asked


def _key(case: tuple[str, int, dict[str, Any]]) -> str:
    game, players, rules = case
    return f"{game} {players}p {json.dumps(rules, sort_keys=True)}"


def _positions(game: str, players: int, rules: dict[str, Any]):
    """Rounds part-played by seeded random bots, at each move count of AT."""
    g = get_game(game)
    full = g.rules(players, {**rules, "rounds": 1})
    for seed in SEEDS:
        deck = list(range(52))
        random.Random(seed).shuffle(deck)
        r = g.new_round(full, players, seed % players, deck)
        walker = make_bot("random", game, seed)
        for stop in AT:
            while not r.is_over and len(r.history) < stop:
                r.apply(walker.choose(r.view(r.current_player)))
            if r.is_over:
                break
            yield seed, stop, r


def _read(game: str, view: Any) -> list[list[float]]:
    rng = random.Random(5)
    if game == "fantan":
        from parlour.games.fantan.opponents import read_seats
        from parlour.games.fantan.search import FastFanTan, _setup

        worlds = FastFanTan(Budget(1))._pool(_setup(view, "constraints"), None, rng, count=12)
        post = read_seats(view, worlds)
    else:
        from parlour.games.fanti.opponents import read_seats
        from parlour.games.fanti.search import deal_hands

        post = read_seats(view, [deal_hands(view, rng) for _ in range(6)])
    return [[round(w, 9) for w in post.weights(s)] for s in range(view.players)
            if s != view.seat]


def bot_moves(case: tuple[str, int, dict[str, Any]]) -> dict[str, Any]:
    game, players, rules = case
    names = ["greedy", "heuristic", "hard:40"]
    if players in shipped(game):
        names.append("learned")
    out: dict[str, Any] = {}
    for seed, stop, r in _positions(game, players, rules):
        view = r.view(r.current_player)
        row = {name: str(make_bot(name, game, seed).choose(view)) for name in names}
        if stop >= 7:
            row["reading"] = _read(game, view)
        out[f"{seed}/{stop}"] = row
    return out


def vector_runs(case: tuple[str, int, dict[str, Any]]) -> dict[str, str]:
    """Digests of compiled vector-env runs: every observation, mask, reward and the
    compiled bots' own choices, step by step."""
    from parlour.envs.vector import ParlourVectorEnv

    game, players, rules = case
    out = {}
    lineups = {"mixed": (["greedy", "heuristic", "random"] * 3)[:players - 1],
               "self": "self"}
    for label, opponents in lineups.items():
        venv = ParlourVectorEnv(game, 3, players, opponents=opponents, rounds=2,
                                illegal_action="terminate", **rules)
        obs, info = venv.reset(seed=77)
        h = hashlib.sha256()
        rng = np.random.default_rng(3)
        for t in range(160):
            mask = info["action_mask"]
            for name in ("random", "greedy", "heuristic"):
                h.update(venv.bot_actions(name).tobytes())
            acts = (rng.random(mask.shape) * mask).argmax(axis=1)
            if t % 41 == 40:  # an illegal action: that env's game restarts
                acts[0] = int(np.flatnonzero(~mask[0])[0])
            obs, reward, term, trunc, info = venv.step(acts)
            for a in (obs, reward, term, trunc, info["action_mask"], info["rewards"]):
                h.update(np.ascontiguousarray(a).tobytes())
        out[label] = h.hexdigest()
    return out


def lockstep_run() -> str:
    """The Fan Tan lock-step batch, stream moves, in three variants."""
    from parlour.batch import FanTanBatch

    h = hashlib.sha256()
    for rules in ({}, {"strict": False, "stakes": "chips"}, {"opening": "any-seven"}):
        fb = FanTanBatch(4, rules, batch=64).reset(9)
        while not fb.done.all():
            h.update(fb.legal_mask().tobytes())
            fb.step(fb.stream_moves())
        h.update(fb.scores().tobytes())
    return h.hexdigest()


def everything() -> dict[str, Any]:
    return {"bots": {_key(c): bot_moves(c) for c in CASES},
            "vector": {_key(c): vector_runs(c) for c in CASES},
            "lockstep": lockstep_run()}


@pytest.fixture(scope="module")
def expected() -> dict[str, Any]:
    return json.loads(HERE.read_text())


@pytest.mark.parametrize("case", CASES, ids=_key)
def test_bots_choose_as_recorded(case, expected):
    assert bot_moves(case) == expected["bots"][_key(case)]


@pytest.mark.parametrize("case", CASES, ids=_key)
def test_compiled_opponents_and_vector_envs_play_as_recorded(case, expected):
    assert vector_runs(case) == expected["vector"][_key(case)]


def test_lockstep_plays_as_recorded(expected):
    assert lockstep_run() == expected["lockstep"]


if __name__ == "__main__":  # regenerate (a deliberate change of play only)
    HERE.write_text(json.dumps(everything(), indent=1, sort_keys=True) + "\n")
    print(f"wrote {HERE}", file=sys.stderr)
