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

This is the PPO phase alone, from random weights; ``parlour train`` (the network, the
gradients and the evaluation are its, in :mod:`parlour.envs.training`) adds imitation of
a compiled bot first, and made the shipped weights.
"""

from __future__ import annotations

import argparse
import json
import time

import numpy as np

from parlour.envs.training import Adam, compiled_bots, evaluate, init, make_vec, ppo_update


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

    def make(kind: str):
        return make_vec(args.game, args.envs, args.players, kind, reward=args.reward)

    envs = make(kinds[0])
    compiled = compiled_bots(args.game)
    obs, info = envs.reset(seed=args.seed)
    size, actions = obs.shape[1], info["action_mask"].shape[1]
    w = init(rng, size, args.hidden, actions)
    opt = Adam(w, args.lr)
    n, T = args.envs, args.steps
    start = time.time()
    update = 0
    while True:
        update += 1
        if len(kinds) > 1 and update % args.switch == 1 and update > 1:
            envs = make(kinds[(update // args.switch) % len(kinds)])
            obs, info = envs.reset(seed=args.seed + update)
        obs, info, stats = ppo_update(
            w, opt, envs, obs, info, rng, steps=T, reward_scale=args.reward_scale,
            gamma=args.gamma, lam=args.lam, epochs=args.epochs, minibatch=args.minibatch,
            clip=args.clip, vf=args.vf, ent=args.ent)
        elapsed = time.time() - start
        line = {"update": update, "steps": update * T * n, "minutes": round(elapsed / 60, 2),
                **stats}
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
