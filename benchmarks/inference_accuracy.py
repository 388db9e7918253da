"""How many hidden cards the ``hard`` worlds place in the right hand (Fan Tan).

    nice .venv/bin/python benchmarks/inference_accuracy.py --positions 60
    nice .venv/bin/python benchmarks/inference_accuracy.py --modes fixed \
        --set MODEL_EPSILON=0.01 --set BETA=1.0   # the sharp posterior

Deals ``--positions`` Fan Tan rounds at ``--players`` seats, plays ``--moves`` moves
with a line-up (``--lineup``, seat by seat; seat 0 is the reader), and at seat 0's next
choice draws a pool of ``--worlds`` worlds the way ``hard`` does with each inference
mode (``learned`` and ``blend`` use the learned card-location model, :mod:`.cardnet`,
and the figure of that model alone is printed too). A world's accuracy is the share of the other seats' cards it puts in the right
hand; the figure is the mean over worlds and positions (uniform guessing within the
hand sizes: about one in ``players - 1``).
"""

from __future__ import annotations

import argparse
import random
from pathlib import Path

import bench_args
import numpy as np

from parlour.bots import make_bot
from parlour.bots.budget import Budget
from parlour.games import get_game
from parlour.games.fantan import cardnet, search
from parlour.games.fantan.infer import decision_arrays
from parlour.games.fantan.search import FastFanTan, _Chains, _setup


def accuracy(view, truth, mode: str, worlds: int, rng: random.Random) -> float:
    eng = FastFanTan(Budget(1), inference=mode, worlds=worlds)
    su = _setup(view, mode)
    prior = eng._prior(view, rng)
    d = decision_arrays(view) if eng._likelihood(prior) else None
    hit, miss, _eps = eng._models(view, su, rng)
    pool = eng._pool(su, d, rng, _Chains(su.n), hit=hit, miss=miss, prior=prior)
    right = total = 0
    for s in range(view.players):
        if s == view.seat:
            continue
        true = np.uint64(truth[s])
        for w in range(pool.shape[0]):
            right += int(pool[w, s] & true).bit_count()
        total += int(truth[s]).bit_count() * pool.shape[0]
    return right / total if total else 1.0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--positions", type=bench_args.positive, default=60)
    ap.add_argument("--moves", type=bench_args.nonnegative, default=20)
    ap.add_argument("--worlds", type=bench_args.positive, default=200)
    ap.add_argument("--lineup", default="heuristic,heuristic,heuristic,heuristic")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--modes", default="constraints,fixed,full,learned,blend")
    ap.add_argument("--cardnet", default=None,
                    help="weights file of the learned model (default: the shipped one)")
    ap.add_argument("--prior-weight", type=float, default=None,
                    help="the learned prior's weight (default: search.PRIOR_WEIGHT)")
    ap.add_argument("--set", action="append", default=[], metavar="NAME=VALUE",
                    help="set a constant of the search engine first, e.g. MODEL_EPSILON=0.01")
    a = ap.parse_args()
    bench_args.check_players(ap, "fantan", a.players)
    lineup = a.lineup.split(",")
    bench_args.check_bots(ap, "fantan", lineup, "--lineup")
    modes = tuple(a.modes.split(","))
    for mode in modes:  # the engine's own check of its inference modes
        try:
            FastFanTan(Budget(1), inference=mode)
        except ValueError as e:
            ap.error(f"argument --modes: {e}, not {mode!r}")
    for item in a.set:
        name, _eq, value = item.partition("=")
        if not hasattr(search, name) or not value:
            ap.error(f"--set wants NAME=VALUE with NAME a setting of the search engine, "
                     f"not {item!r}")
        kind = type(getattr(search, name))
        try:
            setattr(search, name, kind(value))
        except ValueError:
            ap.error(f"--set {item}: {name} takes a {kind.__name__}, not {value!r}")
    if a.prior_weight is not None:
        search.PRIOR_WEIGHT = a.prior_weight
    if a.cardnet:
        if not Path(a.cardnet).is_file():
            ap.error(f"--cardnet {a.cardnet}: no such file")
        try:
            with np.load(a.cardnet) as f:
                net = cardnet.CardNet({k: f[k] for k in f.files})
        except Exception as e:  # a file of another kind: any of numpy's or the net's errors
            ap.error(f"--cardnet {a.cardnet}: not a weights file of the learned model ({e})")
        cardnet.load = lambda players: net if players == net.players else None
    game = get_game("fantan")
    sums = dict.fromkeys(modes, 0.0)
    marginal = argmax = 0.0
    count = 0
    for k in range(a.positions):
        rng = random.Random(a.seed * 10_000 + k)
        deck = list(range(52))
        rng.shuffle(deck)
        r = game.new_round(game.rules(a.players, {"rounds": 1}), a.players, k % a.players,
                           deck)
        bots = [make_bot(lineup[s % len(lineup)], "fantan", k * 10 + s)
                for s in range(a.players)]
        while not r.is_over and (len(r.history) < a.moves or r.current_player != 0
                                 or len(r.legal_moves()) < 2):
            p = r.current_player
            r.apply(bots[p].choose(r.view(p)))
        if r.is_over:
            continue
        view = r.view(0)
        truth = [r.hand(s) for s in range(a.players)]
        net = cardnet.load(a.players)
        if net is not None and net.fits(view):
            q = net.probs(view, random.Random(k))
            hidden = [(s, c) for s in range(1, a.players) for c in range(52) if truth[s] >> c & 1]
            marginal += sum(q[s, c] for s, c in hidden) / len(hidden)
            argmax += sum(q[:, c].argmax() == s for s, c in hidden) / len(hidden)
        for mode in modes:
            sums[mode] += accuracy(view, [r.hand(s) for s in range(a.players)], mode,
                                   a.worlds, random.Random(k))
        count += 1
    if not count:
        raise SystemExit(f"no round reached a choice of seat 0 after {a.moves} moves: "
                         "ask for fewer --moves")
    print(f"Fan Tan {a.players}p, line-up {a.lineup}, {count} positions after "
          f"{a.moves}+ moves, {a.worlds} worlds each:")
    for mode in modes:
        print(f"  {mode:12s} {100 * sums[mode] / count:.1f}% of hidden cards in the right hand")
    if marginal:
        print(f"  the learned model alone: {100 * marginal / count:.1f}% (its probability of "
              f"the true holder), {100 * argmax / count:.1f}% (its likeliest holder right)")


if __name__ == "__main__":
    main()
