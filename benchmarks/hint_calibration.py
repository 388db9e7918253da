"""Are hints' win chances calibrated? Predicted value of the best move against the outcome.

    nice .venv/bin/python benchmarks/hint_calibration.py --game fantan --players 4 \\
        --rounds 150 --modes fixed,full,blend --png docs/img/hint-calibration-fantan.png

Seat 0 plays every move a hint would suggest (the ``hard`` engine at its level's
iterations, no time cut, so the run repeats from its seed) against ``--opponents``
bots; at each of its decisions with a choice, the best move's estimated win chance
(what a player reads in a hint) is recorded, and at the end of the round the seat's
win share (1, 1/k for a k-way tie, or 0). Printed per inference mode: the Brier score
(lower is better), the mean prediction against the mean outcome, and the outcome in
five bins of prediction; ``--png`` draws the reliability curves.
"""

from __future__ import annotations

import argparse
import random
from pathlib import Path

import bench_args
import numpy as np

from parlour.bots import make_bot
from parlour.bots.budget import Budget
from parlour.bots.determinize import INFERENCE
from parlour.bots.levels import iterations, search_bot
from parlour.games import get_game

BINS = np.linspace(0.0, 1.0, 6)


def run(game_name: str, players: int, rounds: int, mode: str, opponents: str,
        seed: int) -> tuple[np.ndarray, np.ndarray]:
    game = get_game(game_name)
    rules = game.rules(players, {"rounds": 1})
    budget = Budget(iterations(game.name, "hard"))
    predicted: list[float] = []
    outcome: list[float] = []
    for k in range(rounds):
        rng = random.Random(seed * 100_000 + k)
        deck = list(range(52))
        rng.shuffle(deck)
        r = game.new_round(rules, players, k % players, deck)
        engine = search_bot("hard", game.name, seed + k, budget, inference=mode).engine
        bots = {s: make_bot(opponents, game.name, k * 10 + s) for s in range(1, players)}
        mine: list[float] = []
        while not r.is_over:
            p = r.current_player
            if p != 0:
                r.apply(bots[p].choose(r.view(p)))
                continue
            view = r.view(0)
            if len(view.legal) < 2:
                r.apply(view.legal[0])
                continue
            ranked = engine.estimates(view, random.Random(rng.random()))
            mine.append(ranked[0].value)
            r.apply(ranked[0].move)
        won = game.winners(rules, r.score())
        share = 1.0 / len(won) if 0 in won else 0.0
        predicted += mine
        outcome += [share] * len(mine)
    return np.array(predicted), np.array(outcome)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", default="fantan")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--rounds", type=bench_args.positive, default=150)
    ap.add_argument("--modes", default="fixed,full,blend",
                    help="inference modes of the hard engine (docs/bots.md)")
    ap.add_argument("--opponents", default="heuristic")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--png", default=None, help="write the reliability curves here")
    a = ap.parse_args()
    bench_args.check_players(ap, a.game, a.players)  # the game's name too
    for mode in a.modes.split(","):
        if mode not in INFERENCE:
            ap.error(f"argument --modes: inference must be one of {', '.join(INFERENCE)}, "
                     f"not {mode!r}")
    bench_args.check_bots(ap, a.game, [a.opponents], "--opponents")
    if a.png and (Path(a.png).is_dir() or not Path(a.png).parent.is_dir()):
        ap.error(f"--png {a.png}: not a file in an existing folder")
    curves = {}
    print(f"{a.game} {a.players}p, seat 0 follows hints against {a.opponents}, "
          f"{a.rounds} rounds, seed {a.seed}")
    for mode in a.modes.split(","):
        pred, out = run(a.game, a.players, a.rounds, mode, a.opponents, a.seed)
        brier = float(((pred - out) ** 2).mean())
        idx = np.clip(np.digitize(pred, BINS) - 1, 0, len(BINS) - 2)
        rows = [(float(pred[idx == b].mean()), float(out[idx == b].mean()), int((idx == b).sum()))
                for b in range(len(BINS) - 1) if (idx == b).any()]
        curves[mode] = rows
        print(f"  {mode:8s} {len(pred)} hints: Brier {brier:.4f}; mean predicted "
              f"{pred.mean():.3f}, mean outcome {out.mean():.3f}")
        for p, o, n in rows:
            print(f"      predicted {p:.2f} -> won {o:.2f} ({n} hints)")
    if a.png:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        fig, ax = plt.subplots(figsize=(5, 5))
        ax.plot([0, 1], [0, 1], color="grey", lw=1, ls="--", label="perfectly calibrated")
        for mode, rows in curves.items():
            ax.plot([r[0] for r in rows], [r[1] for r in rows], marker="o", label=mode)
        ax.set(xlabel="hint's win chance for the best move", ylabel="share of rounds won",
               title=f"Hint calibration, {a.game} {a.players}p vs {a.opponents}",
               xlim=(0, 1), ylim=(0, 1))
        ax.legend()
        fig.tight_layout()
        fig.savefig(a.png)
        print(f"  curves: {a.png}")


if __name__ == "__main__":
    main()
