"""Compiled vector environments beside the PettingZoo AEC environment, same run.

    nice .venv/bin/python benchmarks/vector_speed.py --num-envs 4096 --seconds 5

Fan Tan 4 players and Fanti 2 players, default rules. A *step* is one action of one
env (``num_envs`` per ``step`` call): observation vector, reward and mask included,
the random legal actions chosen in numpy (``argmax(uniform * mask)``, timed too).
Lines: the vector env in self-play (every action is a seat's move) and against
compiled ``random`` opponents (their moves come on top, inside each step), both
observations; the PettingZoo AEC ``raw_env`` on the same machine in the same run
(``agent_iter``/``last``/``step``, random legal actions). Prints wall-clock and
process-CPU rates (``time.process_time``: what the code costs on one core when the
machine is shared) and the memory per env (compiled state plus output buffers).
pgx: with ``--pgx-python PATH`` (an interpreter where ``pip install jax pgx`` worked; the
current one if it can import pgx) the same run adds pgx's own card games, Leduc hold'em
and Kuhn poker, through ``benchmarks/pgx_speed.py`` (random legal actions chosen in
numpy as here; JAX is never a parlour dependency). Those games are far smaller than
Fan Tan and Fanti (6 and 3 cards): read them as the speed of the framework, not of the
same game.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import shutil
import subprocess
import sys
import time
from pathlib import Path

import bench_args
import gymnasium as gym
import numpy as np

import parlour.envs  # noqa: F401  (registers the ids)
from parlour.envs import GYM_IDS


def vector(game: str, players: int, num_envs: int, seconds: float, opponents: str,
           observation: str) -> dict:
    envs = gym.make_vec(GYM_IDS[game], num_envs=num_envs, vectorization_mode="vector_entry_point",
                        players=players, opponents=opponents, observation=observation)
    rng = np.random.default_rng(0)
    _obs, info = envs.reset(seed=0)
    _obs, _r, _t, _tr, info = envs.step(
        (rng.random(info["action_mask"].shape) * info["action_mask"]).argmax(1))
    steps = 0
    w0, c0 = time.perf_counter(), time.process_time()
    while time.perf_counter() - w0 < seconds:
        mask = info["action_mask"]
        actions = (rng.random(mask.shape) * mask).argmax(1)
        _obs, _r, _t, _tr, info = envs.step(actions)
        steps += num_envs
    wall, cpu = time.perf_counter() - w0, time.process_time() - c0
    return {"line": f"vector {game} {players}p {opponents} {observation}", "steps": steps,
            "wall": steps / wall, "cpu": steps / cpu,
            "bytes_per_env": envs.unwrapped.bytes_per_env}


def aec(game: str, players: int, seconds: float) -> dict:
    from parlour import envs as penvs

    module = getattr(penvs, f"{game}_v0")
    env = module.raw_env(players=players)
    rng = np.random.default_rng(0)
    steps = 0
    w0, c0 = time.perf_counter(), time.process_time()
    seed = 0
    while time.perf_counter() - w0 < seconds:
        env.reset(seed=seed)
        seed += 1
        for agent in env.agent_iter():
            obs, _r, term, trunc, _info = env.last()
            if term or trunc:
                env.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            env.step(int(legal[rng.integers(len(legal))]))
            steps += 1
            del agent
    wall, cpu = time.perf_counter() - w0, time.process_time() - c0
    return {"line": f"pettingzoo AEC {game} {players}p", "steps": steps, "wall": steps / wall,
            "cpu": steps / cpu, "bytes_per_env": float("nan")}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--num-envs", type=bench_args.positive, default=4096)
    ap.add_argument("--seconds", type=float, default=5.0)
    ap.add_argument("--pgx-python", default=None, metavar="PATH",
                    help="a Python with jax and pgx installed, for the pgx lines")
    args = ap.parse_args()
    if args.pgx_python and not shutil.which(args.pgx_python):
        ap.error(f"--pgx-python {args.pgx_python}: no such program")
    rows = []
    for game, players in (("fantan", 4), ("fanti", 2)):
        for opponents in ("self", "random"):
            for observation in ("vector", "infostate"):
                rows.append(vector(game, players, args.num_envs, args.seconds, opponents,
                                   observation))
        rows.append(aec(game, players, args.seconds))
    pgx_python = args.pgx_python or (sys.executable if importlib.util.find_spec("pgx") else None)
    note = ""
    if pgx_python:
        run = subprocess.run([pgx_python, str(Path(__file__).with_name("pgx_speed.py")),
                              "--num-envs", str(args.num_envs), "--seconds", str(args.seconds)],
                             capture_output=True, text=True)
        if run.returncode == 0:
            rows += [json.loads(x) for x in run.stdout.splitlines() if x.startswith("{")]
        else:
            note = f"pgx: failed ({run.stderr.strip().splitlines()[-1:]})"
    else:
        note = "pgx: not installed here (give --pgx-python PATH to measure it)"
    print(f"num_envs={args.num_envs}, {args.seconds:g} s a line")
    print(f"{'line':44} {'steps/s (wall)':>15} {'steps/s (cpu)':>15} {'bytes/env':>10}")
    for r in rows:
        print(f"{r['line']:44} {r['wall']:15,.0f} {r['cpu']:15,.0f} {r['bytes_per_env']:10,.0f}")
    if note:
        print(note)


if __name__ == "__main__":
    main()
