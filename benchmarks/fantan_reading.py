"""How sharply Fan Tan ``hard`` reads its opponents: the mean posterior over the player
models (:mod:`parlour.bots.opponents`) of every other seat, at a fixed move of rounds
played by one kind of bot.

    nice -n 19 .venv/bin/python benchmarks/fantan_reading.py --opponents random \\
        --positions 30 --at 32 --worlds 24

Each position is a 4-player round played by ``--opponents`` bots up to move ``--at``;
the seat to move reads the others on ``--worlds`` worlds within the hard constraints
(:func:`parlour.games.fantan.opponents.read_seats`, as ``hard`` does with
:data:`parlour.games.fantan.search.READ_WORLDS`).
"""

from __future__ import annotations

import argparse
import random

import numpy as np

from parlour.bots import make_bot
from parlour.bots.budget import Budget
from parlour.bots.opponents import FAMILY
from parlour.games.fantan.opponents import read_seats
from parlour.games.fantan.rules import FANTAN
from parlour.games.fantan.search import MODEL_EPSILON, FastFanTan, _setup


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--opponents", default="random")
    ap.add_argument("--positions", type=int, default=30)
    ap.add_argument("--at", type=int, default=32)
    ap.add_argument("--worlds", type=int, default=24)
    a = ap.parse_args()
    rules = FANTAN.rules(4, {})
    weights = []
    for g in range(a.positions):
        rng = random.Random(g)
        deck = list(range(52))
        rng.shuffle(deck)
        r = FANTAN.new_round(rules, 4, 0, deck)
        bots = [make_bot(a.opponents, "fantan", g * 4 + s) for s in range(4)]
        while len(r.history) < a.at and not r.is_over:
            s = r.current_player
            r.apply(bots[s].choose(r.view(s)))
        if r.is_over:
            continue
        view = r.view(r.current_player)
        engine = FastFanTan(Budget(iterations=1))
        worlds = engine._pool(_setup(view, "full"), None, random.Random(g), count=a.worlds)
        post = read_seats(view, worlds, MODEL_EPSILON)
        weights += [post.weights(s) for s in range(4) if s != view.seat]
    w = np.array(weights)
    print(f"{a.opponents} seats, move {a.at}, {a.worlds} worlds, {len(w)} readings:")
    for i, name in enumerate(FAMILY):
        print(f"  {name}: mean {w[:, i].mean():.3f}, median {np.median(w[:, i]):.3f}")


if __name__ == "__main__":
    main()
