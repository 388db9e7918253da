"""Train Fan Tan's card-location network (:mod:`parlour.games.fantan.cardnet`).

    OPENBLAS_NUM_THREADS=1 nice -n 19 .venv/bin/python scripts/train_fantan_cards.py \\
        --players 4 --seed 1

1. Self-play records, compiled: ``--games`` rounds (default rules: strict, ace low,
   7 of diamonds opens), every seat drawn for each round from a mixed field
   (``heuristic`` 1/2, ``greedy`` 1/4, ``random`` 1/4: the compiled bots of
   :mod:`.vector`, the same moves as the parlour bots).
2. ``--samples`` positions per round: the round replayed by the Python engine to a
   random moment and read by the seat to move there, through the same feature code
   as at play (:func:`.cardnet.view_features`, which draws the opponent-model and
   uniform worlds of :func:`.cardnet.marginals`); the target is the seat that
   really holds each card that seat cannot see.
3. A two-layer ReLU network (``--hidden`` units, one logit per (seat, card) pair from
   :func:`.cardnet.features`) trained with Adam on the cross-entropy of each hidden
   card's holder (softmax over the other seats, void seats and empty hands masked
   out), numpy only, seeded throughout.

Writes ``src/parlour/games/fantan/cardnet_<P>p.npz`` (``--out`` to change) and prints
the held-out accuracy (argmax holder right) and log-loss, and the wall time.
"""

from __future__ import annotations

import argparse
import random
import time
from pathlib import Path

import numpy as np
from numba import njit

from parlour.batch.bitops import U0, bit, count, kth_card
from parlour.bots.determinize import deck_for_hands
from parlour.game import PASS
from parlour.games.fantan import cardnet
from parlour.games.fantan.determinize import evidence
from parlour.games.fantan.kernel import SEVENS_U, UNLOCKS_U, deal, legal_options
from parlour.games.fantan.rules import FANTAN
from parlour.games.fantan.search_kernel import (
    LANE_CARDS,
    LANE_LEN,
    LANE_MASK,
    LANE_PREFIX,
    _below,
    policy,
)
from parlour.games.fantan.vector import greedy_card

FIELD = np.array([3, 3, 2, 1])
"""Model of each seat, drawn uniformly from this list: 3 heuristic, 2 greedy, 1 random."""


@njit
def selfplay(seed, n, kinds, hands0, hseat, hmove, hlen, dealers, unlock):
    """Play ``kinds.shape[0]`` strict rounds (7 of diamonds opens, ace low); seat ``s``
    of round ``g`` plays the bot ``kinds[g, s]``. Records the deal and the moves."""
    st = np.empty(1, np.uint64)
    st[0] = seed
    deck = np.arange(52)
    hands = np.zeros(n, np.uint64)
    for g in range(kinds.shape[0]):
        for i in range(51, 0, -1):
            j = _below(st, i + 1)
            deck[i], deck[j] = deck[j], deck[i]
        dealer = _below(st, n)
        dealers[g] = dealer
        turn = deal(deck, hands, n, dealer, False)
        for s in range(n):
            hands0[g, s] = hands[s]
        table = U0
        playable = SEVENS_U
        t = 0
        while True:
            hand = hands[turn]
            legal, _may = legal_options(hand, table, playable, False, True)
            if legal == U0:
                mv = PASS
            elif kinds[g, turn] == 1:
                mv = kth_card(legal, _below(st, count(legal)))
            elif kinds[g, turn] == 2:
                mv = greedy_card(hand, legal, unlock)
            else:
                mv = policy(hand, legal, 0, LANE_CARDS, LANE_PREFIX, LANE_LEN, LANE_MASK)
            hseat[g, t] = turn
            hmove[g, t] = mv
            t += 1
            if mv != PASS:
                hands[turn] &= ~bit(mv)
                table |= bit(mv)
                playable = (playable & ~bit(mv)) | unlock[mv]
                if hands[turn] == U0:
                    break
            turn = turn + 1 if turn + 1 < n else 0
        hlen[g] = t


def make_data(players: int, games: int, per: int,
              seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Self-play positions: features (float16), holders (``j - 1`` for the ``j``-th
    seat after the reader, -1 for a card it can see), and whether each seat may hold
    each card by the hard constraints (hand size, pass voids). Each position is the
    real round replayed to a random moment and read through :func:`.cardnet.view_features`,
    exactly as at play."""
    rng = np.random.default_rng(seed)
    kinds = FIELD[rng.integers(0, len(FIELD), (games, players))].astype(np.int64)
    hands0 = np.zeros((games, players), np.uint64)
    cap = 52 + 40 * players
    hseat = np.zeros((games, cap), np.int64)
    hmove = np.zeros((games, cap), np.int64)
    hlen = np.zeros(games, np.int64)
    dealers = np.zeros(games, np.int64)
    selfplay(np.uint64(seed * 7919 + 1), players, kinds, hands0, hseat, hmove, hlen, dealers,
             UNLOCKS_U[False])
    rules = FANTAN.rules(players, {"rounds": 1})
    rows = games * per
    x = np.zeros((rows, *cardnet.feature_size(players)), np.float16)
    y = np.full((rows, 52), -1, np.int8)
    allowed = np.zeros((rows, players - 1, 52), np.bool_)
    prng = random.Random(seed)
    row = 0
    for g in range(games):
        dealer = int(dealers[g])
        deck = deck_for_hands(players, dealer, [int(h) for h in hands0[g]])
        r = FANTAN.new_round(rules, players, dealer, deck)
        t = 0
        for target in sorted(prng.randrange(int(hlen[g])) for _ in range(per)):
            while t < target:
                r.apply(int(hmove[g, t]))
                t += 1
            me = r.current_player
            view = r.view(me)
            x[row] = cardnet.view_features(view, prng)
            voids = evidence(view).voids
            for j in range(1, players):
                s = (me + j) % players
                size = r.hand(s).bit_count()
                for c in range(52):
                    if r.hand(s) >> c & 1:
                        y[row, c] = j - 1
                    allowed[row, j - 1, c] = size > 0 and not voids[s] >> c & 1
            row += 1
        if g % 1000 == 999:
            print(f"  {g + 1} rounds read", flush=True)
    return x, y, allowed


class Net:
    def __init__(self, size: int, hidden: int, out: int, rng: np.random.Generator) -> None:
        def he(a: int, b: int) -> np.ndarray:
            return (rng.standard_normal((a, b)) * np.sqrt(2.0 / a)).astype(np.float32)

        self.p = {"w1": he(size, hidden), "b1": np.zeros(hidden, np.float32),
                  "w2": he(hidden, hidden), "b2": np.zeros(hidden, np.float32),
                  "w3": he(hidden, out) * 0.1, "b3": np.zeros(out, np.float32)}
        self.m = {k: np.zeros_like(v) for k, v in self.p.items()}
        self.v = {k: np.zeros_like(v) for k, v in self.p.items()}
        self.t = 0

    def loss_grad(self, x, y, allowed, train=True):
        """Cross-entropy of each hidden card's holder; ``x[row, seat, card, feature]``."""
        p = self.p
        rows, seats, ncard, nf = x.shape
        xf = x.reshape(-1, nf).astype(np.float32)
        a1 = xf @ p["w1"] + p["b1"]
        h1 = np.maximum(a1, 0)
        a2 = h1 @ p["w2"] + p["b2"]
        h2 = np.maximum(a2, 0)
        z = (h2 @ p["w3"] + p["b3"]).reshape(rows, seats, ncard)
        z = np.where(allowed, z, -1e9)
        z = z - z.max(axis=1, keepdims=True)
        e = np.exp(z)
        q = e / e.sum(axis=1, keepdims=True)
        known = y >= 0
        tgt = np.where(known, y, 0).astype(np.int64)
        onehot = np.zeros_like(q)
        np.put_along_axis(onehot, tgt[:, None, :], 1.0, axis=1)
        onehot *= known[:, None, :]
        ncards = max(1, int(known.sum()))
        logq = np.log(np.maximum(q, 1e-12))
        loss = -float((onehot * logq).sum()) / ncards
        right = (q.argmax(axis=1) == tgt) & known
        acc = float(right.sum()) / ncards
        expected = float((onehot * q).sum()) / ncards
        if not train:
            return loss, acc, expected
        dz = ((q - onehot) * known[:, None, :]).reshape(-1, 1).astype(np.float32) / ncards
        g = {"w3": h2.T @ dz, "b3": dz.sum(0)}
        d2 = (dz @ p["w3"].T) * (a2 > 0)
        g["w2"] = h1.T @ d2
        g["b2"] = d2.sum(0)
        d1 = (d2 @ p["w2"].T) * (a1 > 0)
        g["w1"] = xf.T @ d1
        g["b1"] = d1.sum(0)
        return loss, acc, expected, g

    def adam(self, g, lr, b1=0.9, b2=0.999, eps=1e-8):
        self.t += 1
        for k in self.p:
            self.m[k] = b1 * self.m[k] + (1 - b1) * g[k]
            self.v[k] = b2 * self.v[k] + (1 - b2) * g[k] * g[k]
            mh = self.m[k] / (1 - b1 ** self.t)
            vh = self.v[k] / (1 - b2 ** self.t)
            self.p[k] -= (lr * mh / (np.sqrt(vh) + eps)).astype(np.float32)


def evaluate(net: Net, x, y, allowed, batch=2048):
    tot = np.zeros(3)
    cards = 0
    for i in range(0, len(x), batch):
        n = int((y[i:i + batch] >= 0).sum())
        tot += np.array(net.loss_grad(x[i:i + batch], y[i:i + batch], allowed[i:i + batch],
                                      False)) * n
        cards += n
    return tot / max(1, cards)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--games", type=int, default=10_000)
    ap.add_argument("--samples", type=int, default=4, help="positions per round")
    ap.add_argument("--hidden", type=int, default=64)
    ap.add_argument("--epochs", type=int, default=20)
    ap.add_argument("--batch", type=int, default=256)
    ap.add_argument("--lr", type=float, default=1e-3)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", type=Path, default=None)
    a = ap.parse_args()
    started = time.perf_counter()
    n = a.players
    x, y, allowed = make_data(n, a.games, a.samples, a.seed)
    hold = len(x) // 20
    xv, yv, av = x[:hold], y[:hold], allowed[:hold]
    xt, yt, at = x[hold:], y[hold:], allowed[hold:]
    print(f"data: {len(xt)} training and {hold} held-out positions, "
          f"{time.perf_counter() - started:.0f} s", flush=True)
    rng = np.random.default_rng(a.seed)
    net = Net(cardnet.FEATURES, a.hidden, 1, rng)
    steps = a.epochs * (len(xt) // a.batch)
    step = 0
    for epoch in range(a.epochs):
        order = rng.permutation(len(xt))
        for i in range(0, len(order) - a.batch + 1, a.batch):
            idx = np.sort(order[i:i + a.batch])
            lr = a.lr * 0.5 * (1 + np.cos(np.pi * step / steps))
            *_m, g = net.loss_grad(xt[idx], yt[idx], at[idx])
            net.adam(g, lr)
            step += 1
        loss, acc, expected = evaluate(net, xv, yv, av)
        print(f"epoch {epoch + 1}: held-out log-loss {loss:.4f}, holder right {acc:.1%} "
              f"(argmax), {expected:.1%} (expected), {time.perf_counter() - started:.0f} s",
              flush=True)
    out = a.out or cardnet.HERE / f"cardnet_{n}p.npz"
    np.savez_compressed(out, **net.p, players=n, strict=True, ace="low",
                        opening="seven-of-diamonds")
    print(f"wrote {out}; wall time {time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    main()
