"""How sharply ``hard`` reads its opponents: the mean posterior over the player models
(:mod:`parlour.bots.opponents`) of each other seat, at a fixed move of rounds played
by a line-up of bots.

    nice -n 19 .venv/bin/python benchmarks/reading.py --game fanti \\
        --lineup heuristic,random,heuristic,greedy --positions 20 --at 40

Each position is a round of the line-up (seat by seat; seat 0 reads) up to move
``--at``, then to seat 0's next turn; seat 0 reads the others on ``--worlds`` worlds as
``hard`` does (Fan Tan: within the hard constraints,
:data:`parlour.games.fantan.search.READ_WORLDS`; Fanti: uniform deals of the current
deal, :data:`parlour.games.fanti.search.READ_WORLDS`). One row per kind of seat.

``--earlier K`` plays K whole rounds of the line-up first (the same seats, the next
dealers, fresh decks) and starts the reading from seat 0's views of them
(:func:`parlour.bots.opponents.read_earlier`), as ``hard`` does in the later rounds of
a game:

    nice -n 19 .venv/bin/python benchmarks/reading.py --game fantan --at 4 --earlier 1
"""

from __future__ import annotations

import argparse
import random
from collections import defaultdict

import bench_args
import numpy as np

from parlour.bots import make_bot
from parlour.bots.budget import Budget
from parlour.bots.opponents import FAMILY, Posterior, read_earlier
from parlour.games import get_game


def read(game: str, view, worlds: int, rng: random.Random,  # type: ignore[no-untyped-def]
         start: Posterior | None = None) -> Posterior:
    if game == "fantan":
        from parlour.games.fantan.opponents import read_seats
        from parlour.games.fantan.search import MODEL_EPSILON, FastFanTan, _setup

        pool = FastFanTan(Budget(iterations=1))._pool(_setup(view, "full"), None, rng,
                                                      count=worlds)
        return read_seats(view, pool, MODEL_EPSILON, start=start)
    from parlour.games.fanti.opponents import read_seats as read_fanti
    from parlour.games.fanti.search import deal_hands

    return read_fanti(view, [deal_hands(view, rng) for _ in range(worlds)], start=start)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", choices=("fantan", "fanti"), default="fantan")
    ap.add_argument("--lineup", default="heuristic,random,heuristic,greedy",
                    help="the bot of each seat; seat 0 reads the others")
    ap.add_argument("--positions", type=bench_args.positive, default=20)
    ap.add_argument("--at", type=bench_args.nonnegative, default=32)
    ap.add_argument("--earlier", type=bench_args.nonnegative, default=0,
                    help="whole rounds of the same game read first (default 0)")
    ap.add_argument("--worlds", type=bench_args.positive, default=None,
                    help="worlds read on (default: as hard, 24 Fan Tan, 8 Fanti)")
    a = ap.parse_args()
    lineup = a.lineup.split(",")
    bench_args.check_bots(ap, a.game, lineup, "--lineup")
    if len(lineup) < 2:
        ap.error("--lineup needs two seats or more")
    bench_args.check_players(ap, a.game, len(lineup), "--lineup")  # a bot a seat
    worlds = a.worlds or (24 if a.game == "fantan" else 8)
    game = get_game(a.game)
    n = len(lineup)
    rules = game.rules(n, {"rounds": 1})
    rows: dict[str, list[list[float]]] = defaultdict(list)
    for g in range(a.positions):
        rng = random.Random(g)
        bots = [make_bot(b, a.game, g * n + s) for s, b in enumerate(lineup)]
        seen = []  # seat 0's views of the earlier rounds
        for k in range(a.earlier + 1):
            deck = list(range(52))
            rng.shuffle(deck)
            r = game.new_round(rules, n, (g + k) % n, deck)
            last = k == a.earlier
            while not r.is_over and (not last or len(r.history) < a.at
                                     or r.current_player != 0):
                s = r.current_player
                r.apply(bots[s].choose(r.view(s)))
            if not last:
                seen.append(r.view(0))
        if r.is_over:
            continue
        post = read(a.game, r.view(0), worlds, random.Random(g), read_earlier(a.game, seen))
        for s in range(1, n):
            rows[lineup[s]].append(post.weights(s))
    print(f"{a.game} {n}p, move {a.at}+ of round {a.earlier + 1}, {worlds} worlds; "
          "mean weight of each model:")
    print("  seat played by  " + "  ".join(f"{m:>9s}" for m in FAMILY))
    for kind, ws in rows.items():
        w = np.array(ws).mean(axis=0)
        print(f"  {kind:14s}  " + "  ".join(f"{x:9.2f}" for x in w)
              + f"   ({len(ws)} readings)")


if __name__ == "__main__":
    main()
