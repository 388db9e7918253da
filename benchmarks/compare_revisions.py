"""The batch engine and the research environments, this tree against another, same run.

    git -C . worktree add /tmp/old 1d41683
    nice .venv/bin/python benchmarks/compare_revisions.py --against /tmp/old/src --repeat 7

Each figure is measured ``--repeat`` times per revision in fresh processes, the two
revisions alternating (old, new, new, old, ...), and the best of each kept. Every
figure is per second of the process's own CPU time (``time.process_time``), not of
wall time: on a machine shared with others' jobs, wall time measures their load, CPU
time measures the code (all of it is single-threaded). Prints one line per figure
with both speeds and the ratio new / old. Figures: ``parlour.batch.bench`` rounds/s
(Fan Tan 4p, Fanti 4p, batch 4096), Fan Tan lock-step (``FanTanBatch``) rounds/s, and
the compiled vector environments' steps/s (Fan Tan 4p, Fanti 2p; self-play and each
compiled opponent), ``hard``'s moves per second at its iteration budget (the compiled
search kernels; no time cap, so the work is the same in both revisions), and the step
rates of ``benchmarks/env_speed.py`` (session, PettingZoo, Gymnasium, OpenSpiel).
``--only TEXT`` keeps the figures whose name contains TEXT (``--only fantan`` for one
game's compiled figures); the others are not measured at all.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

import bench_args

HERE = Path(__file__).resolve().parent
NEW = HERE.parent / "src"

PROBE = r"""
import json, sys, time
time.perf_counter = time.process_time  # CPU seconds of this process (module docstring)
from parlour import batch
secs = float(sys.argv[1])
only = json.loads(sys.argv[2])
def want(figure):
    return not only or any(o in figure for o in only)
out = {}
for game in ("fantan", "fanti"):
    if want(f"batch {game} 4p"):
        out[f"batch {game} 4p"] = batch.bench(game, 4, secs, 4096)["rounds_per_s"]
fb = batch.FanTanBatch(4, batch=4096)
fb.reset(0, 0, 0); fb.step(fb.stream_moves())
rounds, t0 = 0, time.perf_counter()
while want("lockstep fantan 4p") and ((el := time.perf_counter() - t0) < secs or rounds == 0):
    fb.reset(0, rounds, 0)
    while not fb.done.all():
        fb.legal_mask(); fb.step(fb.stream_moves())
    rounds += 4096
if rounds:
    out["lockstep fantan 4p"] = round(rounds / el)
import numpy as np
from parlour.envs.vector import ParlourVectorEnv
for game, n in (("fantan", 4), ("fanti", 2)):
    for opp in ("self", "random", "greedy", "heuristic"):
        if not want(f"vector {game} {n}p vs {opp}"):
            continue
        venv = ParlourVectorEnv(game, 256, n, opponents=opp)
        obs, info = venv.reset(seed=1)
        rng = np.random.default_rng(0)
        m = info["action_mask"]
        obs, r, te, tr, info = venv.step((rng.random(m.shape) * m).argmax(1))
        steps, t0 = 0, time.perf_counter()
        while (el := time.perf_counter() - t0) < secs or steps == 0:
            m = info["action_mask"]
            obs, r, te, tr, info = venv.step((rng.random(m.shape) * m).argmax(1))
            steps += 256
        out[f"vector {game} {n}p vs {opp}"] = round(steps / el)
import random
from parlour.bots import make_bot
from parlour.bots.levels import iterations
from parlour.games import get_game
for game, n in (("fantan", 4), ("fanti", 2)):
    if not want(f"hard moves/s {game} {n}p"):
        continue
    g = get_game(game)
    views = []
    for seed in range(40):
        deck = list(range(52))
        random.Random(seed).shuffle(deck)
        r = g.new_round(g.rules(n, {"rounds": 1}), n, seed % n, deck)
        walker = make_bot("random", game, seed)
        for _ in range(4 + seed % 9):
            r.apply(walker.choose(r.view(r.current_player)))
        if not r.is_over and len(r.legal_moves()) > 1:
            views.append(r.view(r.current_player))
    bot = make_bot(f"hard:{iterations(game, 'hard')}", game, 3)
    bot.choose(views[0])  # compile or load the kernels outside the clock
    t0 = time.perf_counter()
    for v in views[:12]:
        bot.choose(v)
    out[f"hard moves/s {game} {n}p"] = 12 / (time.perf_counter() - t0)
print(json.dumps(out))
"""


ENV_LINES = ("engine", "session", "pettingzoo", "gymnasium", "openspiel")
"""The first words of ``env_speed.py``'s lines (its figures are named ``env ...``)."""


def _run(src: str, args: list[str], only: list[str]) -> dict[str, float]:
    env = {**os.environ, "PYTHONPATH": src}
    got: dict[str, float] = {}
    text = subprocess.run([sys.executable, "-c", PROBE, args[0], json.dumps(only)], env=env,
                          check=True, capture_output=True, text=True).stdout
    got.update(json.loads(text))
    if only and not any(o in "env " + line for o in only for line in ENV_LINES):
        return got
    cpu_clock = ("import runpy, sys, time; time.perf_counter = time.process_time; "
                 f"sys.path.insert(0, {str(HERE)!r}); "  # env_speed imports bench_args
                 f"sys.argv = ['env_speed.py', '--games', '{args[1]}', '--repeat', '1']; "
                 f"runpy.run_path({str(HERE / 'env_speed.py')!r}, run_name='__main__')")
    text = subprocess.run([sys.executable, "-c", cpu_clock], env=env, check=True,
                          capture_output=True, text=True).stdout
    for line in text.splitlines():
        parts = line.rsplit(None, 3)
        key = f"env {parts[0]}"
        if (len(parts) == 4 and parts[3].replace(",", "").isdigit()
                and (not only or any(o in key for o in only))):
            got[key] = float(parts[3].replace(",", ""))
    return got


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--against", required=True, help="the other revision's src/ folder")
    ap.add_argument("--new", default=str(NEW), help="this revision's src/ folder (default: "
                    "this tree; give the old one too for an A/A run that shows the noise)")
    ap.add_argument("--repeat", type=bench_args.positive, default=5)
    ap.add_argument("--seconds", type=float, default=1.0, help="per batch figure")
    ap.add_argument("--games", type=bench_args.positive, default=20,
                    help="whole games per env_speed line")
    ap.add_argument("--only", action="append", default=[], metavar="TEXT",
                    help="measure only the figures whose name contains TEXT (repeatable; "
                    "e.g. --only fantan --only 'env ' for one game's figures on a busy "
                    "machine); default: every figure")
    args = ap.parse_args()
    for option, src in (("--against", args.against), ("--new", args.new)):
        if not (Path(src) / "parlour").is_dir():
            ap.error(f"{option} {src}: no parlour package there (give a revision's src/ folder)")
    best: dict[str, dict[str, float]] = {"old": {}, "new": {}}
    for i in range(args.repeat):
        order = [("old", args.against), ("new", args.new)]
        for rev, src in order if i % 2 == 0 else order[::-1]:
            for k, v in _run(src, [str(args.seconds), str(args.games)], args.only).items():
                best[rev][k] = max(best[rev].get(k, 0.0), v)
        print(f"round {i + 1}/{args.repeat} done", file=sys.stderr)
    print(f"{'figure':42} {'old':>12} {'new':>12}  ratio")
    for k, old in best["old"].items():
        new = best["new"].get(k, 0.0)
        print(f"{k:42} {old:12,.1f} {new:12,.1f}  {new / old:.3f}")


if __name__ == "__main__":
    main()
