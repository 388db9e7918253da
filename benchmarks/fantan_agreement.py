"""How often a Fan Tan bot plays what each player model of the reading family says.

    nice -n 19 .venv/bin/python benchmarks/fantan_agreement.py --bot hard --deals 20

Plays ``--deals`` 4-player rounds with every seat the bot, and at each of its decisions
with two or more playable cards asks each deterministic model of
:data:`parlour.bots.opponents.FAMILY` what it would play from the same position: the
``greedy`` and ``heuristic`` bots and the ``learned`` policy on the seat's own view, the
``search`` model (:mod:`parlour.games.fantan.opponents`) with every hand known (the
test reads the real round; a model, not a bot). A model that agrees with a bot more
often reads it better: ``hard`` read as ``heuristic`` is right that often.
"""

from __future__ import annotations

import argparse
import random

import bench_args
import numpy as np

from parlour.bots import make_bot
from parlour.bots.opponents import FAMILY
from parlour.games.fantan.env import playable
from parlour.games.fantan.opponents import _Moment, _Searcher
from parlour.games.fantan.rules import FANTAN


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bot", default="hard")
    ap.add_argument("--deals", type=bench_args.positive, default=20)
    ap.add_argument("--seed", type=int, default=5)
    a = ap.parse_args()
    bench_args.check_bots(ap, "fantan", [a.bot], "--bot")
    rules = FANTAN.rules(4, {})
    models = [m for m in FAMILY if m != "random"]
    hits = dict.fromkeys(models, 0)
    decisions = 0
    for g in range(a.deals):
        rng = random.Random(a.seed * 1000 + g)
        deck = list(range(52))
        rng.shuffle(deck)
        r = FANTAN.new_round(rules, 4, g % 4, deck)
        bots = [make_bot(a.bot, "fantan", a.seed * 100 + g * 4 + s) for s in range(4)]
        others = {m: make_bot(m, "fantan", 0)
                  for m in ("greedy", "heuristic", "learned")}
        while not r.is_over:
            s = r.current_player
            view = r.view(s)
            move = bots[s].choose(view)
            legal = [c for c in view.legal if c >= 0 and c < 52]
            if len(legal) >= 2 and len(legal) == len(view.legal):
                decisions += 1
                for m, bot in others.items():
                    hits[m] += bot.choose(view) == move
                now = _Moment(view.table, view.passes, view.hand_counts, (0,) * 4)
                hands = np.array([[r.hand(q) for q in range(4)]], np.uint64)
                seen = _Searcher(view).choices(hands, s, now, playable(view.table, view.rules),
                                               [sum(1 << c for c in legal)])[0]
                hits["search"] += seen == move
            r.apply(move)
    print(f"{a.bot}, Fan Tan 4p, {a.deals} rounds, {decisions} decisions with a choice:")
    for m in models:
        print(f"  plays the {m} move {100 * hits[m] / decisions:.1f}% of the time")


if __name__ == "__main__":
    main()
