"""Train Fanti's card-location network (:mod:`parlour.games.fanti.cardnet`).

    OPENBLAS_NUM_THREADS=1 nice -n 19 .venv/bin/python scripts/train_fanti_cards.py --seed 1

1. Self-play rounds with the Python engine (default rules), 2 players in half of them
   and 3 or 4 in the rest, every seat drawn for each round from a mixed field:
   ``heuristic`` 2/5, ``greedy`` 1/5, ``random`` 1/5 and ``hard:20`` 1/5 (hard's engine
   at a small budget: the plays of a searching player). Seeded throughout.
2. ``--samples`` positions per round at random moments with a choice, read by the seat
   to move through the same feature code as at play (:func:`.cardnet.view_pairs`, with
   the seat reading of :func:`.opponents.read_seats`); the target of each (other
   seat, hidden card) pair is whether that seat holds the card.
3. Two ReLU layers (``--hidden`` units) and one logit, Adam on the binary
   cross-entropy, numpy only.

Writes ``src/parlour/games/fanti/cardnet.npz`` (``--out`` to change) and prints the
held-out log-loss and *cards placed right* (each seat's hand guessed as its most
likely cards) against the share a uniform guess places, with the wall time.
"""

from __future__ import annotations

import argparse
import random
import time
from pathlib import Path

import numpy as np

from parlour.bots import make_bot
from parlour.games import get_game
from parlour.games.fanti import cardnet
from parlour.games.fanti.opponents import read_seats
from parlour.games.fanti.search import deal_hands

FIELD = (("heuristic", 2), ("greedy", 1), ("random", 1), ("hard:20", 1))


def positions(seed: int, rounds: int, samples: int) -> list[tuple]:
    """``(x, y, group)`` per sampled position: pair features, labels, and the
    (position, seat) each pair belongs to (for cards placed right)."""
    game = get_game("fanti")
    rng = random.Random(seed)
    names = [n for n, k in FIELD for _ in range(k)]
    out = []
    for _k in range(rounds):
        players = rng.choice((2, 2, 3, 4))
        rules = game.rules(players, {"rounds": 1})
        deck = list(range(52))
        rng.shuffle(deck)
        r = game.new_round(rules, players, rng.randrange(players), deck)
        bots = [make_bot(rng.choice(names), "fanti", rng.getrandbits(32))
                for _ in range(players)]
        moments = set(rng.sample(range(4, 48), samples))
        t = 0
        while not r.is_over:
            p = r.current_player
            view = r.view(p)
            if t in moments and len(view.legal) > 1:
                wrng = random.Random(rng.getrandbits(32))
                post = read_seats(view, [deal_hands(view, wrng) for _ in range(8)])
                weights = {s: post.weights(s) for s in post.log}
                seats, cs, x = cardnet.view_pairs(view, weights)
                y = np.array([r.hands[s] >> c & 1 for s, c in zip(seats, cs, strict=True)],
                             np.float32)
                group = np.array([len(out) * 8 + s for s in seats], np.int64)
                out.append((x, y, group, [view.hand_counts[s] for s in seats]))
            r.apply(bots[p].choose(view))
            t += 1
    return out


class Net:
    def __init__(self, size: int, hidden: int, rng: np.random.Generator) -> None:
        def he(a: int, b: int) -> np.ndarray:
            return (rng.standard_normal((a, b)) * np.sqrt(2.0 / a)).astype(np.float64)

        self.p = {"w1": he(size, hidden), "b1": np.zeros(hidden),
                  "w2": he(hidden, hidden), "b2": np.zeros(hidden),
                  "w3": he(hidden, 1) * 0.1, "b3": np.zeros(1)}
        self.m = {k: np.zeros_like(v) for k, v in self.p.items()}
        self.v = {k: np.zeros_like(v) for k, v in self.p.items()}
        self.t = 0

    def forward(self, x):
        p = self.p
        a1 = x @ p["w1"] + p["b1"]
        h1 = np.maximum(a1, 0)
        a2 = h1 @ p["w2"] + p["b2"]
        h2 = np.maximum(a2, 0)
        z = (h2 @ p["w3"] + p["b3"])[:, 0]
        return z, (x, a1, h1, a2, h2)

    def loss_grad(self, x, y):
        z, (x, a1, h1, a2, h2) = self.forward(x)
        q = 1.0 / (1.0 + np.exp(-z))
        loss = np.mean(np.logaddexp(0, z) - y * z)
        dz = (q - y)[:, None] / len(y)
        p = self.p
        g = {"w3": h2.T @ dz, "b3": dz.sum(0)}
        d2 = (dz @ p["w3"].T) * (a2 > 0)
        g["w2"], g["b2"] = h1.T @ d2, d2.sum(0)
        d1 = (d2 @ p["w2"].T) * (a1 > 0)
        g["w1"], g["b1"] = x.T @ d1, d1.sum(0)
        return loss, g

    def adam(self, g, lr, b1=0.9, b2=0.999, eps=1e-8):
        self.t += 1
        for k in self.p:
            self.m[k] = b1 * self.m[k] + (1 - b1) * g[k]
            self.v[k] = b2 * self.v[k] + (1 - b2) * g[k] ** 2
            mh = self.m[k] / (1 - b1 ** self.t)
            vh = self.v[k] / (1 - b2 ** self.t)
            self.p[k] -= lr * mh / (np.sqrt(vh) + eps)


def placed_right(z: np.ndarray, y: np.ndarray, group: np.ndarray,
                 sizes: np.ndarray) -> tuple[float, float]:
    """Cards placed right when each seat's hand is guessed as its ``size`` likeliest
    cards, and what a uniform guess places (its expected share)."""
    right = total = uniform = 0.0
    for g in np.unique(group):
        idx = np.flatnonzero(group == g)
        k = int(sizes[idx[0]])
        if k == 0:
            continue
        top = idx[np.argsort(-z[idx], kind="stable")[:k]]
        right += y[top].sum()
        total += k
        uniform += k * k / len(idx)
    return right / total, uniform / total


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--rounds", type=int, default=1200)
    ap.add_argument("--samples", type=int, default=4)
    ap.add_argument("--hidden", type=int, default=32)
    ap.add_argument("--epochs", type=int, default=30)
    ap.add_argument("--out", type=Path,
                    default=Path(cardnet.__file__).with_name("cardnet.npz"))
    a = ap.parse_args()
    started = time.perf_counter()
    data = positions(a.seed, a.rounds, a.samples)
    read = time.perf_counter() - started
    cut = int(len(data) * 0.85)

    def stack(part):
        x = np.concatenate([d[0] for d in part]).astype(np.float64)
        y = np.concatenate([d[1] for d in part]).astype(np.float64)
        g = np.concatenate([d[2] for d in part])
        s = np.concatenate([np.array(d[3], np.int64) for d in part])
        return x, y, g, s

    xt, yt, _gt, _st = stack(data[:cut])
    xv, yv, gv, sv = stack(data[cut:])
    mu, sd = xt.mean(0), xt.std(0) + 1e-6
    rng = np.random.default_rng(a.seed)
    net = Net(cardnet.FEATURES, a.hidden, rng)
    nt = (xt - mu) / sd
    nv = (xv - mu) / sd
    for epoch in range(a.epochs):
        order = rng.permutation(len(yt))
        for i in range(0, len(order), 512):
            b = order[i:i + 512]
            _loss, g = net.loss_grad(nt[b], yt[b])
            net.adam(g, 1e-3)
        if epoch % 5 == 4 or epoch == a.epochs - 1:
            z, _ = net.forward(nv)
            loss = np.mean(np.logaddexp(0, z) - yv * z)
            print(f"epoch {epoch + 1}: held-out log-loss {loss:.4f}", flush=True)
    z, _ = net.forward(nv)
    share = np.clip(xv[:, 16], 1e-3, 1 - 1e-3)
    base = np.log(share / (1 - share))
    base_loss = np.mean(np.logaddexp(0, base) - yv * base)
    right, uniform = placed_right(z, yv, gv, sv)
    np.savez(a.out, mu=mu.astype(np.float32), sd=sd.astype(np.float32),
             **{k: v.astype(np.float32) for k, v in net.p.items()})
    wall = time.perf_counter() - started
    print(f"positions {len(data)} ({cut} train), pairs {len(yt)} train / {len(yv)} held out")
    print(f"held-out log-loss {np.mean(np.logaddexp(0, z) - yv * z):.4f} "
          f"(uniform share {base_loss:.4f})")
    print(f"cards placed right {right:.3f} (uniform guess {uniform:.3f})")
    print(f"wall time {wall:.0f} s ({read:.0f} s reading positions); wrote {a.out}")


if __name__ == "__main__":
    main()
