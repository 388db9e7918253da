"""OpenSpiel's Python ISMCTS against parlour's bots in ``python_fantan`` / ``python_fanti``.

    .venv/bin/python examples/openspiel_ismcts.py [--game python_fantan] [--games 6]
        [--opponent hard] [--simulations 200] [--players 3] [--rounds 1]

ISMCTS (``open_spiel.python.algorithms.ismcts``, random-rollout evaluation) samples
deals with parlour's resampler, which keeps everything the seat knows fixed -- its own
cards, every card played, hand sizes and, in strict Fan Tan, the cards a seat cannot
hold because it passed (FT-5). It takes one seat, rotating over the games; the others
are the named parlour bot. OpenSpiel's C++ MCTS/ISMCTS bots crash on Python games, so
the Python ones are used here.
"""

from __future__ import annotations

import argparse
import time

import numpy as np
import pyspiel
from open_spiel.python.algorithms.evaluate_bots import evaluate_bots

import parlour.envs.openspiel  # noqa: F401  (registers the games)
from parlour.bots import bot_names
from parlour.envs.spiel_bots import ParlourBot, ismcts_bot


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", default="python_fantan", choices=["python_fantan", "python_fanti"])
    ap.add_argument("--players", type=int, default=3)
    ap.add_argument("--rounds", type=int, default=1)
    ap.add_argument("--games", type=int, default=6)
    ap.add_argument("--simulations", type=int, default=200)
    ap.add_argument("--opponent", default="hard",
                    help="a parlour bot name (falls back to greedy if unknown)")
    args = ap.parse_args()
    game = pyspiel.load_game(args.game, {"players": args.players, "rounds": args.rounds})
    parlour_game = game.spec.game.name
    opponent = args.opponent if args.opponent in bot_names(parlour_game) else "greedy"
    n = game.num_players()
    returns, wins = [], 0
    start = time.perf_counter()
    for g in range(args.games):
        seat = g % n
        bots = [ParlourBot(game, opponent, s, seed=100 * g + s) for s in range(n)]
        bots[seat] = ismcts_bot(game, seed=g, simulations=args.simulations)
        result = evaluate_bots(game.new_initial_state(), bots, np.random.RandomState(g))
        returns.append(result[seat])
        wins += result[seat] > 0
        print(f"game {g + 1}: ISMCTS in seat {seat}, returns {[round(x, 2) for x in result]}")
    secs = time.perf_counter() - start
    print(f"{args.game}, {n} players, {args.rounds} round(s): ISMCTS ({args.simulations} "
          f"simulations) vs {opponent}: won {wins}/{args.games}, mean return "
          f"{np.mean(returns):+.3f} (a seat's fair share is 0); {secs:.0f} s")


if __name__ == "__main__":
    main()
