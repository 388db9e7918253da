"""A tiny learning run: a linear policy-gradient agent learns Fan Tan against random bots.

    .venv/bin/python examples/learn_fantan_pg.py [--episodes 4000] [--out curve.png]

Environment: ``parlour/FanTan-v0``, 4 players, one round an episode, the learner in a
seat drawn at every reset, three ``random`` bots, reward = the zero-sum result (+1 for
winning the round, -1/3 otherwise; a uniformly random seat averages 0 and wins 1/4).

Agent: REINFORCE with a running-mean baseline over a softmax of ``theta . phi(obs, a)``
across the legal actions of ``info["action_mask"]``. The features ``phi`` are read off
the observation vector only (hand and table planes, the ace rule; see
``parlour.envs.observation``): for a card, whether it is a 7, how many of my own cards
it leads towards in its row, how many cards of its suit I hold, how far it is from the
7, and whether its next card in the row is someone else's; passing has a feature of its
own. numpy only; the learning curve is saved as a PNG with matplotlib (Agg).
"""

from __future__ import annotations

import argparse
import time

import gymnasium as gym
import matplotlib
import numpy as np

import parlour.envs  # noqa: F401  (registers the ids)
from parlour.envs.observation import encoder_for

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

PLAYERS = 4
ENC = encoder_for("fantan", PLAYERS)
HAND, TABLE, RULES = ENC.offsets["hand"], ENC.offsets["table"], ENC.offsets["rules"]
N_FEATURES = 6


def row_order(ace_high: bool) -> list[int]:
    """Ranks from the bottom of a row to the top (FT-2)."""
    return list(range(1, 13)) + [0] if ace_high else list(range(13))


def features(obs: np.ndarray, legal: np.ndarray) -> np.ndarray:
    """One feature row per legal action."""
    hand = obs[HAND:HAND + 52] > 0
    table = obs[TABLE:TABLE + 52] > 0
    order = row_order(obs[RULES] > 0)
    pos = {r: i for i, r in enumerate(order)}
    out = np.zeros((len(legal), N_FEATURES))
    for k, a in enumerate(legal):
        if a == 52:
            out[k, 5] = 1.0
            continue
        suit, rank = divmod(int(a), 13)
        i = pos[rank]
        row = [suit * 13 + r for r in order]
        steps = (-1,) if i < 6 else (1,) if i > 6 else (-1, 1)
        behind = sum(hand[row[j]] for s in steps for j in
                     (range(i - 1, -1, -1) if s < 0 else range(i + 1, 13)))
        nxt = [row[i + s] for s in steps if 0 <= i + s < 13]
        gift = any(not hand[c] and not table[c] for c in nxt)
        out[k] = (float(i == 6), behind / 6, hand[row].sum() / 13, abs(i - 6) / 6,
                  float(gift), 0.0)
    return out


def policy(theta: np.ndarray, phi: np.ndarray) -> np.ndarray:
    z = phi @ theta
    p = np.exp(z - z.max())
    return p / p.sum()


def greedy_win_rate(episodes: int) -> float:
    """How often parlour's ``greedy`` bot wins from the learner's seat (for reference)."""
    from parlour.bots import make_bot

    env = gym.make("parlour/FanTan-v0", players=PLAYERS, seat=None, opponents="random",
                   episode="round")
    bot = make_bot("greedy", "fantan", 0)
    wins = 0
    for episode in range(episodes):
        _obs, info = env.reset(seed=10**9 + episode)
        inner, done, ret = env.unwrapped, False, 0.0
        while not done:
            move = bot.choose(inner.session.round.view(inner.seat))
            _obs, reward, terminated, truncated, info = env.step(move)
            ret += reward
            done = terminated or truncated
        wins += ret > 0
    return wins / episodes


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--episodes", type=int, default=4000)
    ap.add_argument("--lr", type=float, default=0.1)
    ap.add_argument("--window", type=int, default=250)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--reference", type=int, default=1000,
                    help="episodes to measure the greedy bot's win rate on")
    ap.add_argument("--out", default="fantan_learning_curve.png")
    args = ap.parse_args()
    env = gym.make("parlour/FanTan-v0", players=PLAYERS, seat=None, opponents="random",
                   episode="round")
    rng = np.random.default_rng(args.seed)
    theta = np.zeros(N_FEATURES)
    baseline, wins = 0.0, []
    start = time.perf_counter()
    for episode in range(args.episodes):
        obs, info = env.reset(seed=args.seed * 1_000_000 + episode)
        grads, ret, done = [], 0.0, False
        while not done:
            legal = np.flatnonzero(info["action_mask"])
            phi = features(obs, legal)
            p = policy(theta, phi)
            k = rng.choice(len(legal), p=p)
            grads.append(phi[k] - p @ phi)  # grad of log softmax
            obs, reward, terminated, truncated, info = env.step(int(legal[k]))
            ret += reward
            done = terminated or truncated
        theta += args.lr * (ret - baseline) * np.sum(grads, axis=0)
        baseline += 0.01 * (ret - baseline)
        wins.append(ret > 0)
    secs = time.perf_counter() - start
    curve = np.convolve(wins, np.ones(args.window) / args.window, mode="valid")
    print(f"{args.episodes} episodes in {secs:.0f} s; win rate first {args.window}: "
          f"{np.mean(wins[:args.window]):.3f}, last {args.window}: "
          f"{np.mean(wins[-args.window:]):.3f} (random seat: 0.25)")
    print("theta [seven, leads-to-mine, suit length, distance from 7, gives a card away, "
          "pass]:", np.round(theta, 2).tolist())
    reference = greedy_win_rate(args.reference)
    print(f"reference: parlour's greedy bot in the same seat wins {reference:.3f}")
    fig, ax = plt.subplots(figsize=(7, 4))
    ax.plot(np.arange(len(curve)) + args.window, curve, label="linear policy gradient")
    ax.axhline(0.25, color="grey", linestyle="--", label="random play (1/4)")
    ax.axhline(reference, color="tab:orange", linestyle=":", label="greedy bot")
    ax.set_xlabel("episode (one round of 4-player Fan Tan)")
    ax.set_ylabel(f"win rate, moving mean of {args.window}")
    ax.set_title("Learning Fan Tan against three random bots")
    ax.legend(loc="lower right")
    fig.tight_layout()
    fig.savefig(args.out, dpi=100)
    print(f"learning curve: {args.out}")


if __name__ == "__main__":
    main()
