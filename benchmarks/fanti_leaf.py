"""Could a fitted leaf value do better than ``leaf_2p``? (Fanti, 2 players; a diagnostic.)

    nice -n 19 .venv/bin/python benchmarks/fanti_leaf.py --rounds 200000 \\
        --out src/parlour/games/fanti/leaf.json

``hard`` judges the end of a deal that is not the last by
:func:`parlour.games.fanti.search.leaf_2p`: the chance of winning the round from the
two piles, with every card still to come shared out at random. It ignores the cards
left on the table (the next deal's first player may take them, FA-5; the last
collector gets them at the end, FA-8) and who leads the next deal. This script plays
``--rounds`` rounds of ``heuristic`` against itself (a random move with a small
chance, so the states vary), keeps every deal end with the round's result, fits a
logistic model on ``leaf_2p``'s log-odds and table terms (both seatings of each
sample), and prints both log losses on a held-out fifth. The weights go to ``--out``;
``expert`` reads them from ``src/parlour/games/fanti/leaf.json``
(:func:`parlour.games.fanti.search.fitted_leaf`), which this command with the
arguments above wrote. ``fanti_paired.py``'s ``@leaf=1`` plays any search bot with
that leaf.
"""

from __future__ import annotations

import argparse
import json
import random
from pathlib import Path

import numpy as np
from rich.progress import Progress
from scipy.optimize import minimize

from parlour.games.fanti.heuristic import round_policy
from parlour.games.fanti.rules import FANTI
from parlour.games.fanti.search import FITTED_LEAF, leaf_features

NAMES = ("bias", "leaf_2p log-odds", "I lead", "I collected last", "lead x table cards",
         "lead x table Leaves", "lead x 2C/10D on table", "lead x table value",
         "last x table cards x progress", "lead x progress", "lead x value x progress",
         "lead x cards x progress")
"""The terms of :func:`parlour.games.fanti.search.leaf_features`, in order."""


def samples(rounds: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Features and seat 0's win share at every deal end of ``rounds`` self-play rounds,
    each sample twice (as seat 0 and, mirrored, as seat 1)."""
    rng = random.Random(seed)
    rules = FANTI.rules(2, {})
    xs: list[list[float]] = []
    ys: list[float] = []
    with Progress(transient=True) as bar:
        task = bar.add_task("self-play rounds", total=rounds)
        for _ in range(rounds):
            deck = list(range(52))
            rng.shuffle(deck)
            r = FANTI.new_round(rules, 2, rng.randrange(2), deck)
            eps = rng.choice((0.0, 0.0, 0.05, 0.15))
            ends = []
            while not r.is_over:
                legal = r.legal_moves()
                before = r.dealt
                r.apply(rng.choice(legal) if rng.random() < eps else round_policy(r))
                if not r.is_over and r.dealt != before:  # a new deal: the old one's end
                    ends.append((r.piles[0], r.piles[1], r.table, r.last_collector,
                                 r.turn, before))
            score = r.score()
            assert score is not None
            top = [s for s, x in enumerate(score) if x == max(score)]
            y = 1.0 / len(top) if 0 in top else 0.0
            for p0, p1, t, last, lead, dealt in ends:
                xs.append(leaf_features(p0, p1, t, last, lead == 0, dealt))
                ys.append(y)
                xs.append(leaf_features(p1, p0, t, 1 - last, lead == 1, dealt))
                ys.append(1.0 - y)
            bar.advance(task)
    return np.array(xs), np.array(ys)


def log_loss(w: np.ndarray, x: np.ndarray, y: np.ndarray) -> tuple[float, np.ndarray]:
    p = np.clip(1.0 / (1.0 + np.exp(-(x @ w))), 1e-9, 1 - 1e-9)
    return float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p))), x.T @ (p - y) / len(y)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=20000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", type=Path, default=None,
                    help=f"write the weights here (JSON; expert reads {FITTED_LEAF.name} "
                         "in parlour/games/fanti)")
    a = ap.parse_args()
    if a.rounds < 10:
        ap.error(f"--rounds must be at least 10, not {a.rounds}")
    if a.out is not None and (a.out.is_dir() or not a.out.parent.is_dir()):
        ap.error(f"--out {a.out}: not a file in an existing folder")
    x, y = samples(a.rounds, a.seed)
    pairs = len(y) // 2
    order = np.random.default_rng(a.seed).permutation(pairs)
    cut = int(0.8 * pairs)
    train = np.concatenate([2 * order[:cut], 2 * order[:cut] + 1])
    test = 2 * order[cut:]
    start = np.zeros(x.shape[1])
    start[1] = 1.0  # leaf_2p itself
    w = minimize(log_loss, start, args=(x[train], y[train]), jac=True,
                 method="L-BFGS-B").x
    base, fit = log_loss(start, x[test], y[test])[0], log_loss(w, x[test], y[test])[0]
    print(f"{pairs} deal ends from {a.rounds} rounds; held-out log loss: "
          f"leaf_2p {base:.4f}, fitted {fit:.4f}")
    for name, v in zip(NAMES, w, strict=True):
        print(f"  {name:32s} {v:+.3f}")
    if a.out is not None:
        a.out.write_text(json.dumps({"rounds": a.rounds, "seed": a.seed,
                                     "log_loss": {"leaf_2p": round(base, 4),
                                                  "fitted": round(fit, 4)},
                                     "names": NAMES, "weights": w.tolist()}, indent=1))


if __name__ == "__main__":
    main()
