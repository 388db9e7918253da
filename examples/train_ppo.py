"""Masked PPO on the compiled vector environment, in one file of numpy (CleanRL style).

    nice -n 10 .venv/bin/python examples/train_ppo.py --game fantan --players 4 \\
        --opponents random --minutes 30 --seed 1 --out fantan_4p.npz

Trains the ``learned`` bot's network (:mod:`parlour.envs.learned`: two ``tanh``
layers of ``--hidden`` units, a policy head over the action ids and a value head) with
PPO's clipped objective, illegal actions masked out of the softmax, generalised
advantage estimation, Adam and a global gradient-norm clip. Episodes are single rounds
(``episode="round"``, the arena's default) with the zero-sum result as the reward.
Every ``--eval-every`` updates the greedy policy plays ``--eval-rounds`` rounds
against each compiled bot in a separate vector environment with a fixed seed and the
win share is logged (one JSON line each); ``--reward score`` trains on the signed
round score instead of the win (a denser signal). Everything is seeded: the same command on the
same numpy gives the same weights (``docs/research.md``).
Copy the result to ``src/parlour/games/<game>/learned_<P>p.npz`` to ship it.
"""

from __future__ import annotations

import argparse
import importlib
import json
import time

import gymnasium as gym
import numpy as np

import parlour.envs
import parlour.envs.kit
from parlour.envs.learned import MLPPolicy


def init(rng: np.random.Generator, size: int, hidden: int, actions: int) -> dict[str, np.ndarray]:
    def ortho(rows: int, cols: int, gain: float) -> np.ndarray:
        q, _ = np.linalg.qr(rng.standard_normal((max(rows, cols), min(rows, cols))))
        q = q if rows >= cols else q.T
        return (gain * q[:rows, :cols]).astype(np.float32)

    return {"w1": ortho(size, hidden, np.sqrt(2)), "b1": np.zeros(hidden, np.float32),
            "w2": ortho(hidden, hidden, np.sqrt(2)), "b2": np.zeros(hidden, np.float32),
            "wp": ortho(hidden, actions, 0.01), "bp": np.zeros(actions, np.float32),
            "wv": ortho(hidden, 1, 1.0), "bv": np.zeros(1, np.float32)}


def forward(w: dict[str, np.ndarray], x: np.ndarray, mask: np.ndarray):
    h1 = np.tanh(x @ w["w1"] + w["b1"])
    h2 = np.tanh(h1 @ w["w2"] + w["b2"])
    z = h2 @ w["wp"] + w["bp"]
    z = np.where(mask, z, -1e9)
    z = z - z.max(axis=1, keepdims=True)
    p = np.exp(z)
    p /= p.sum(axis=1, keepdims=True)
    logp = np.log(np.maximum(p, 1e-30))
    v = (h2 @ w["wv"] + w["bv"])[:, 0]
    return h1, h2, p, logp, v


def sample(rng: np.random.Generator, p: np.ndarray) -> np.ndarray:
    u = rng.random((p.shape[0], 1))
    return np.minimum((p.cumsum(axis=1) < u).sum(axis=1), p.shape[1] - 1)


def grads(w, x, mask, a, old_logp, adv, ret, clip, vf_coef, ent_coef):
    """The PPO loss's gradient by hand (backpropagation through the two layers)."""
    n = len(x)
    h1, h2, p, logp, v = forward(w, x, mask)
    lp_a = logp[np.arange(n), a]
    ratio = np.exp(lp_a - old_logp)
    unclipped = ratio * adv
    # d/dlogp of -min(r A, clip(r) A): -r A where the unclipped term is the smaller
    coef = np.where(unclipped <= np.clip(ratio, 1 - clip, 1 + clip) * adv + 1e-12,
                    -adv * ratio, 0.0)
    g_z = -p * coef[:, None]
    g_z[np.arange(n), a] += coef
    ent = -(p * logp).sum(axis=1)
    g_z += ent_coef * p * (np.where(mask, logp, 0.0) + ent[:, None])
    g_z /= n
    g_v = (vf_coef * (v - ret) / n)[:, None]
    g = {"wp": h2.T @ g_z, "bp": g_z.sum(0), "wv": h2.T @ g_v, "bv": g_v.sum(0)}
    g_h2 = (g_z @ w["wp"].T + g_v @ w["wv"].T) * (1 - h2 ** 2)
    g["w2"], g["b2"] = h1.T @ g_h2, g_h2.sum(0)
    g_h1 = (g_h2 @ w["w2"].T) * (1 - h1 ** 2)
    g["w1"], g["b1"] = x.T @ g_h1, g_h1.sum(0)
    clipfrac = float((np.abs(ratio - 1) > clip).mean())
    return g, float(ent.mean()), clipfrac


def evaluate(game: str, players: int, w: dict, opponents: str, rounds: int, seed: int) -> float:
    """Win share of the greedy policy in ``rounds`` one-round games (seat drawn; a shared
    win counts)."""
    envs = gym.make_vec(parlour.envs.GYM_IDS[game], num_envs=min(rounds, 1000),
                        vectorization_mode="vector_entry_point", players=players, seat=None,
                        opponents=opponents, episode="round")
    policy = MLPPolicy(w)
    obs, info = envs.reset(seed=seed)
    done = wins = 0.0
    while done < rounds:
        z = policy.logits(obs)
        a = np.where(info["action_mask"], z, -np.inf).argmax(axis=1)
        obs, r, term, _trunc, info = envs.step(a)
        done += term.sum()
        wins += (r[term] > 0).sum()
    return wins / done


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", default="fantan")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--opponents", default="random", help="random, greedy or heuristic; "
                    "comma separated to change every --switch updates")
    ap.add_argument("--switch", type=int, default=100)
    ap.add_argument("--reward", default="result", help="result (win/loss) or score (the "
                    "round score, signed so more is better: a denser signal)")
    ap.add_argument("--reward-scale", type=float, default=1.0, help="rewards are multiplied "
                    "by this (0.1 keeps score-sized value errors from dominating the clipped "
                    "gradient)")
    ap.add_argument("--minutes", type=float, default=30.0)
    ap.add_argument("--updates", type=int, default=0, help="stop after this many (0: time)")
    ap.add_argument("--envs", type=int, default=256)
    ap.add_argument("--steps", type=int, default=64)
    ap.add_argument("--hidden", type=int, default=128)
    ap.add_argument("--lr", type=float, default=3e-4)
    ap.add_argument("--epochs", type=int, default=4)
    ap.add_argument("--minibatch", type=int, default=2048)
    ap.add_argument("--clip", type=float, default=0.2)
    ap.add_argument("--gamma", type=float, default=1.0)
    ap.add_argument("--lam", type=float, default=0.95)
    ap.add_argument("--ent", type=float, default=0.01)
    ap.add_argument("--vf", type=float, default=0.5)
    ap.add_argument("--eval-every", type=int, default=25)
    ap.add_argument("--eval-rounds", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", default="learned.npz")
    args = ap.parse_args()

    rng = np.random.default_rng(args.seed)
    kinds = args.opponents.split(",")
    env_id = parlour.envs.GYM_IDS[args.game]

    def make(kind: str):
        return gym.make_vec(env_id, num_envs=args.envs, vectorization_mode="vector_entry_point",
                            players=args.players, seat=None, opponents=kind, episode="round",
                            reward=args.reward)

    envs = make(kinds[0])
    compiled = [k for k in ("random", "greedy", "heuristic")
                if k in importlib.import_module(parlour.envs.kit.env_parts(args.game).vector).BOTS]
    obs, info = envs.reset(seed=args.seed)
    size, actions = obs.shape[1], info["action_mask"].shape[1]
    w = init(rng, size, args.hidden, actions)
    m = {k: np.zeros_like(v) for k, v in w.items()}
    s = {k: np.zeros_like(v) for k, v in w.items()}
    t, n, T = 0, args.envs, args.steps
    start = time.time()
    update = 0
    while True:
        update += 1
        if len(kinds) > 1 and update % args.switch == 1 and update > 1:
            envs = make(kinds[(update // args.switch) % len(kinds)])
            obs, info = envs.reset(seed=args.seed + update)
        xs = np.zeros((T, n, size), np.float32)
        ms = np.zeros((T, n, actions), bool)
        acts = np.zeros((T, n), np.int64)
        lps = np.zeros((T, n), np.float32)
        vals = np.zeros((T + 1, n), np.float32)
        rews = np.zeros((T, n), np.float32)
        dones = np.zeros((T, n), np.float32)
        for k in range(T):
            mask = info["action_mask"]
            _h1, _h2, p, logp, v = forward(w, obs, mask)
            a = sample(rng, p)
            xs[k], ms[k], acts[k], vals[k] = obs, mask, a, v
            lps[k] = logp[np.arange(n), a]
            obs, r, term, trunc, info = envs.step(a)
            rews[k], dones[k] = r * args.reward_scale, term | trunc
        vals[T] = forward(w, obs, info["action_mask"])[4]
        adv = np.zeros((T, n), np.float32)
        last = np.zeros(n, np.float32)
        for k in reversed(range(T)):
            nonterm = 1.0 - dones[k]
            delta = rews[k] + args.gamma * vals[k + 1] * nonterm - vals[k]
            last = delta + args.gamma * args.lam * nonterm * last
            adv[k] = last
        ret = adv + vals[:T]
        X, M, A = xs.reshape(T * n, size), ms.reshape(T * n, actions), acts.reshape(-1)
        LP, ADV, RET = lps.reshape(-1), adv.reshape(-1), ret.reshape(-1)
        for _ in range(args.epochs):
            order = rng.permutation(T * n)
            for lo in range(0, T * n, args.minibatch):
                i = order[lo:lo + args.minibatch]
                a_mb = (ADV[i] - ADV[i].mean()) / (ADV[i].std() + 1e-8)
                g, ent, clipfrac = grads(w, X[i], M[i], A[i], LP[i], a_mb, RET[i], args.clip,
                                         args.vf, args.ent)
                norm = np.sqrt(sum(float((x ** 2).sum()) for x in g.values()))
                scale = min(1.0, 0.5 / (norm + 1e-8))
                t += 1
                for key in w:
                    gk = g[key] * scale
                    m[key] = 0.9 * m[key] + 0.1 * gk
                    s[key] = 0.999 * s[key] + 0.001 * gk ** 2
                    mh, sh = m[key] / (1 - 0.9 ** t), s[key] / (1 - 0.999 ** t)
                    w[key] -= (args.lr * mh / (np.sqrt(sh) + 1e-5)).astype(np.float32)
        elapsed = time.time() - start
        line = {"update": update, "steps": update * T * n, "minutes": round(elapsed / 60, 2),
                "entropy": round(ent, 3), "clipfrac": round(clipfrac, 3),
                "mean_reward": round(float(rews.sum() / args.reward_scale / max(dones.sum(), 1)),
                                     4)}
        if update % args.eval_every == 0:
            for kind in compiled:
                line[f"vs_{kind}"] = round(evaluate(args.game, args.players, w, kind,
                                                    args.eval_rounds, 12345), 4)
            np.savez(args.out, **w)
        print(json.dumps(line), flush=True)
        if (args.updates and update >= args.updates) or \
                (not args.updates and elapsed > args.minutes * 60):
            break
    np.savez(args.out, **w)


if __name__ == "__main__":
    main()
