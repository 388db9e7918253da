"""How far a trained card policy gets in Fan Tan: CMA-ES on a linear policy.

    NUMBA_NUM_THREADS=1 nice -n 19 .venv/bin/python benchmarks/fantan_policy_es.py \\
        --opponents heuristic --generations 150 --deals 3000 --seed 1

One seat chooses its card by a weighted sum of features of each playable card; the
other seats are the ``heuristic`` (or ``random``) bot of the compiled kernel. The
features are the heuristic's own end-case arithmetic (need, own, release, exposed, by
class: :func:`parlour.games.fantan.lanes.lane_features`), the own cards a play
unlocks, sevens, the hand size, how close an opponent is to going out, and what the
public passes say (FT-5: a seat that passed holds none of the cards it could have
played) about who can use a released card. The starting weights order the cards
exactly as the heuristic does (the first line printed checks it: the learner then
wins exactly 25.0% of 4-player rounds, the same seat winning in every rotation).

CMA-ES (the ``cma`` package) trains the weights on fresh duplicate deals each
generation (the learner in every seat of each deal, 4 players, strict rules, one
round); the mean is tested every tenth generation on a fixed set of ``--test``
deals. Every round is played by the kernel's rules (:mod:`parlour.games.fantan.kernel`:
the deal, the legal cards, the unlocks), so there is no second copy of a rule here.
Prints the progress, the final weights and the learner's test win rate next to the
heuristic's (the baseline of the same run).
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import bench_args
import numpy as np
from numba import njit
from rich.progress import Progress

from parlour.batch.bitops import U0, U1, bit, count, kth_card, lowest
from parlour.game import PASS
from parlour.games.fantan.kernel import B7D, SEVENS_U, UNLOCKS_U, deal, legal_options
from parlour.games.fantan.search_kernel import (
    LANE_CARDS,
    LANE_LEN,
    LANE_MASK,
    LANE_PREFIX,
    policy,
)

FEATURES = ("needy", "safe", "need", "release (needy)", "own (needy)", "own (safe)",
            "release (releasing)", "exposed (releasing)", "own cards unlocked", "seven",
            "need x hand", "release x hand", "exposed x hand", "release, someone near out",
            "exposed, someone near out", "own x hand", "released to the next seat",
            "released to opponents", "released to short hands", "next seat, near out")
K = len(FEATURES)

HEURISTIC = np.zeros(K)
"""Weights that order the cards as :func:`parlour.games.fantan.heuristic.card_key`
(lexicographic classes, then need, release, own; safe runs shortest first; releasing
cards fewest released, then least exposed), scaled by 1/100."""
HEURISTIC[:8] = (10.0, 5.0, 0.2, -0.05, 0.002, -0.01, -0.1, -0.005)


@njit(cache=True)
def features(c, hand, me, n, sizes, voids, unlock, f):
    """The features of playing ``c`` from ``hand`` (``sizes``: every hand's size,
    ``voids``: what each seat's passes showed it lacks)."""
    need = own = release = exposed = 0
    to_next = to_opps = to_short = 0
    nxt = me + 1 if me + 1 < n else 0
    near = 0.0
    for s in range(n):
        if s != me and sizes[s] <= 2:
            near = 1.0
    for li in range(2):
        length = LANE_LEN[0, c, li]
        if length == 0:
            continue
        mask = LANE_MASK[0, c, li]
        if hand & mask:
            far = length - 1
            while not hand & bit(LANE_CARDS[0, c, li, far]):
                far -= 1
            o = count(LANE_PREFIX[0, c, li, far] & hand)
            own += o
            need += far + 1 - o
        first = bit(LANE_CARDS[0, c, li, 0])
        if not hand & first:
            release += 1
            exposed += count(mask & ~hand)
            if not voids[nxt] & first:
                to_next += 1
            for s in range(n):
                if s != me and not voids[s] & first:
                    to_opps += 1
                    if sizes[s] <= 3:
                        to_short += 1
    h = count(hand) / 13.0
    needy = 1.0 if need > 0 else 0.0
    safe = 1.0 if need == 0 and release == 0 else 0.0
    releasing = 1.0 - needy - safe
    f[0], f[1], f[2], f[3] = needy, safe, need * needy, release * needy
    f[4], f[5], f[6], f[7] = own * needy, own * safe, release * releasing, exposed * releasing
    f[8] = count(hand & unlock[c])
    f[9] = 1.0 if SEVENS_U & bit(c) else 0.0
    f[10], f[11], f[12] = need * h, release * h, exposed * h
    f[13], f[14], f[15] = release * near, exposed * near, own * h
    f[16], f[17], f[18], f[19] = to_next, to_opps, to_short, to_next * near


@njit(cache=True)
def learner_choice(hand, legal, me, n, sizes, voids, w, unlock, f):
    best, best_v = -1, -1e300
    m = legal
    while m:
        c = lowest(m)
        m &= m - U1
        features(c, hand, me, n, sizes, voids, unlock, f)
        v = 0.0
        for i in range(f.shape[0]):
            v += w[i] * f[i]
        if v > best_v:
            best, best_v = c, v
    return best


@njit(cache=True)
def wins(decks, n, weights, random_opponents, seed, unlock, out):
    """``out[p, d]``: the rounds of deal ``d`` the learner with ``weights[p]`` wins,
    sitting in each of the ``n`` seats in turn (the dealer fixed: seat ``n - 1``)."""
    f = np.empty(weights.shape[1])
    hands = np.empty(n, np.uint64)
    sizes = np.empty(n, np.int64)
    voids = np.empty(n, np.uint64)
    for p in range(weights.shape[0]):
        np.random.seed(seed)  # the same random opponents for every candidate
        for d in range(decks.shape[0]):
            won = 0
            for me in range(n):
                turn = deal(decks[d], hands, n, n - 1, False)
                table, playable = U0, SEVENS_U
                for s in range(n):
                    voids[s] = U0
                while True:
                    hand = hands[turn]
                    legal, _may_pass = legal_options(hand, table, playable, False, True)
                    if legal == U0:
                        move = PASS
                        voids[turn] |= playable if table != U0 else B7D  # FT-5
                    elif not legal & (legal - U1):
                        move = lowest(legal)
                    elif turn == me:
                        for s in range(n):
                            sizes[s] = count(hands[s])
                        move = learner_choice(hand, legal, me, n, sizes, voids, weights[p],
                                              unlock, f)
                    elif random_opponents:
                        move = kth_card(legal, np.random.randint(count(legal)))
                    else:
                        move = policy(hand, legal, 0, LANE_CARDS, LANE_PREFIX, LANE_LEN,
                                      LANE_MASK)
                    if move != PASS:
                        b = bit(move)
                        hands[turn] ^= b
                        table |= b
                        playable = (playable ^ b) | unlock[move]
                        if hands[turn] == U0:
                            if turn == me:
                                won += 1
                            break
                    turn = turn + 1 if turn + 1 < n else 0
            out[p, d] = won


def deals(rng: np.random.Generator, k: int) -> np.ndarray:
    return np.array([rng.permutation(52) for _ in range(k)], dtype=np.int64)


def per_deal(weights: np.ndarray, decks: np.ndarray, players: int, random_opp: bool,
             seed: int) -> np.ndarray:
    """Each weight vector's win rate on each deal (over its seats), ``[vector, deal]``."""
    out = np.zeros((weights.shape[0], decks.shape[0]), np.int64)
    wins(decks, players, weights, random_opp, seed, UNLOCKS_U[False], out)
    return out / players


def win_rate(weights: np.ndarray, decks: np.ndarray, players: int, random_opp: bool,
             seed: int) -> np.ndarray:
    """Each weight vector's win rate over ``decks`` (every seat of every deal)."""
    return per_deal(weights, decks, players, random_opp, seed).mean(axis=1)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--opponents", choices=("heuristic", "random"), default="heuristic")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--generations", type=bench_args.positive, default=150)
    ap.add_argument("--deals", type=bench_args.positive, default=3000,
                    help="training deals a generation")
    ap.add_argument("--test", type=bench_args.positive, default=20000, help="fixed test deals")
    ap.add_argument("--population", type=bench_args.positive, default=24)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", type=Path, default=None, help="write the result as JSON")
    a = ap.parse_args()
    if not 3 <= a.players <= 8:
        ap.error(f"--players must be 3 to 8 (Fan Tan), not {a.players}")
    if a.out is not None and (a.out.is_dir() or not a.out.parent.is_dir()):
        ap.error(f"--out {a.out}: not a file in an existing folder")
    import cma

    rng = np.random.default_rng(a.seed)
    test = deals(np.random.default_rng(a.seed + 10_000), a.test)
    random_opp = a.opponents == "random"
    started = time.perf_counter()
    base_per = per_deal(HEURISTIC[None, :], test, a.players, random_opp, a.seed)[0]
    base = float(base_per.mean())
    print(f"heuristic's weights on {a.test} test deals: {100 * base:.2f}%")
    es = cma.CMAEvolutionStrategy(HEURISTIC, 0.05, {"seed": a.seed, "popsize": a.population,
                                                     "verbose": -9})
    history = []
    with Progress() as bar:
        task = bar.add_task("training", total=a.generations)
        for g in range(a.generations):
            xs = np.array(es.ask())
            es.tell(list(xs), list(-win_rate(xs, deals(rng, a.deals), a.players, random_opp,
                                             a.seed + g)))
            if g % 10 == 9 or g == a.generations - 1:
                rate = float(win_rate(es.mean[None, :], test, a.players, random_opp,
                                      a.seed)[0])
                history.append((g + 1, rate))
                bar.console.print(f"generation {g + 1}: test {100 * rate:.2f}%")
            bar.advance(task)
    final = history[-1][1]
    per = per_deal(es.mean[None, :], test, a.players, random_opp, a.seed)[0] - base_per
    half = 1.96 * float(per.std(ddof=1)) / len(per) ** 0.5  # paired by deal
    gain = [round(100 * (float(per.mean()) + d), 2) for d in (0.0, -half, half)]
    rounds = a.generations * a.population * a.deals * a.players
    result = {"opponents": a.opponents, "players": a.players, "seed": a.seed,
              "training_rounds": rounds, "test_deals": a.test,
              "heuristic": round(base, 4), "trained": round(final, 4),
              "ratio": round(final / base, 4), "gain_points_ci95": gain, "history": history,
              "weights": dict(zip(FEATURES, (round(float(x), 4) for x in es.mean), strict=True)),
              "seconds": round(time.perf_counter() - started)}
    print(json.dumps(result, indent=1))
    print(f"trained {100 * final:.2f}% vs the heuristic's {100 * base:.2f}% "
          f"(ratio {final / base:.3f}; paired {gain[0]:+.2f} [{gain[1]:+.2f}, {gain[2]:+.2f}] "
          f"points) after {rounds:,} training rounds")
    if a.out:
        a.out.write_text(json.dumps(result, indent=1) + "\n")


if __name__ == "__main__":
    main()
