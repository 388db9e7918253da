"""Step engine speed: random rounds through ``new_round``, ``legal_moves`` and ``apply``.

    .venv/bin/python benchmarks/step_bench.py                     # ~40 s
    .venv/bin/python benchmarks/step_bench.py --seconds 2 --repeat 3 --json
    .venv/bin/python benchmarks/step_bench.py --against main   # and another revision's engine

Every figure plays whole rounds of uniformly random legal moves exactly as a bot or a
simulation drives the engine -- ``game.new_round(...)``, then ``r.legal_moves()`` and
``r.apply(legal[rng.randrange(len(legal))])`` until ``r.is_over`` -- with default
rules. Every round gets a fresh deck, shuffled outside the timed part (a pool of decks
dealt over and over would let the engine's memos see the same tables again).

The machine this runs on is usually shared, so each figure is the best of ``--repeat``
runs of ``--seconds`` each (the least disturbed one), timed two ways: per second of the
process's CPU time (``time.process_time``: what one core of its own would give, the
figure to quote) and per second of wall time. The load average is printed beside them.

Baselines measured in the same run, because the figures move with the machine's load:

* the yardstick (unless ``--no-yardstick``; skipped without pyspiel): OpenSpiel
  ``hearts`` played the naive way, a pure Python loop over its interface
  (``parlour.yardstick``), before and after the parlour figures; each figure is also
  given as rounds per hearts game;
* ``--against REV``: the step engine of git revision ``REV`` (its ``src/parlour`` tree,
  taken with ``git archive``; a revision from before the games moved under
  ``parlour/games`` is refused), timed in turns with the current one on the same decks
  and moves, each of its runs in a process of its own on that tree; each figure is
  also given as a speed-up over it.
"""

from __future__ import annotations

import argparse
import atexit
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import bench_args

from parlour import yardstick
from parlour.games import get_game

CONFIGS = (("fantan", 3), ("fantan", 4), ("fantan", 6), ("fanti", 2), ("fanti", 3),
           ("fanti", 4))
REPO = Path(__file__).resolve().parent.parent


def play_rounds(game: Any, players: int, seconds: float, seed: int) -> dict[str, float]:
    """Random rounds for ``seconds`` of CPU time; rounds/s and moves/s by CPU and wall."""
    rules = game.rules(players)
    deck_rng, move_rng = random.Random(seed), random.Random(seed + 1)
    choose = move_rng.randrange
    new_round = game.new_round
    deck = list(range(52))
    rounds = moves = 0
    cpu = wall = 0.0
    while cpu < seconds:
        deck_rng.shuffle(deck)  # outside the timed part
        c0, w0 = time.process_time(), time.perf_counter()
        r = new_round(rules, players, rounds % players, deck)
        while not r.is_over:
            legal = r.legal_moves()
            r.apply(legal[choose(len(legal))])
            moves += 1
        cpu += time.process_time() - c0
        wall += time.perf_counter() - w0
        rounds += 1
    return {"rounds": rounds, "moves": moves,
            "rounds_per_s": rounds / cpu, "moves_per_s": moves / cpu,
            "wall_rounds_per_s": rounds / wall}


def best(runs: list[dict[str, float]]) -> dict[str, float]:
    return max(runs, key=lambda run: run["rounds_per_s"])


def load_engine(rev: str) -> Path | None:
    """The ``src`` folder of git revision ``rev``, unpacked in a temporary folder, or
    None where that revision has no ``parlour/games`` package (too old to time here)."""
    root = Path(tempfile.mkdtemp(prefix="step_bench_"))
    atexit.register(shutil.rmtree, root, True)
    tar = subprocess.run(["git", "archive", rev, "src/parlour"], cwd=REPO, check=True,
                         capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", str(root)], input=tar, check=True)
    src = root / "src"
    return src if (src / "parlour" / "games" / "__init__.py").is_file() else None


def play_rounds_of(src: Path, name: str, players: int, seconds: float, seed: int) -> dict[str, float]:
    """:func:`play_rounds` run by the engine in ``src``, in a process of its own."""
    out = subprocess.run([sys.executable, __file__, "--worker", f"{name}:{players}:{seconds}:{seed}"],
                         env=os.environ | {"PYTHONPATH": str(src)}, check=True, capture_output=True,
                         text=True).stdout
    return json.loads(out)


def loadavg() -> str:
    try:
        return " ".join(f"{x:.2f}" for x in os.getloadavg())
    except OSError:
        return "?"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=1.0, help="CPU seconds per run")
    ap.add_argument("--repeat", type=bench_args.positive, default=3,
                    help="runs per figure; the best counts")
    ap.add_argument("--configs", default=",".join(f"{g}:{p}" for g, p in CONFIGS),
                    help="game:players, comma separated")
    ap.add_argument("--no-yardstick", action="store_true", help="skip OpenSpiel hearts")
    ap.add_argument("--against", metavar="REV", help="also time the engine of this git revision")
    ap.add_argument("--json", action="store_true", help="print one JSON document")
    ap.add_argument("--worker", help=argparse.SUPPRESS)  # one run of --against's engine
    args = ap.parse_args()
    if args.worker:
        name, players, seconds, seed = args.worker.split(":")
        print(json.dumps(play_rounds(get_game(name), int(players), float(seconds), int(seed))))
        return
    configs = []
    for c in args.configs.split(","):
        name, _, players = c.partition(":")
        try:
            n = int(players)
        except ValueError:
            ap.error(f"--configs wants game:players pairs, not {c!r}")
        bench_args.check_players(ap, name, n)  # the game's own check
        configs.append((name, n))
    if args.against and subprocess.run(
            ["git", "rev-parse", "--verify", "--quiet", f"{args.against}^{{commit}}"],
            cwd=REPO, capture_output=True).returncode != 0:
        ap.error(f"--against {args.against}: not a git revision of this repository")
    older = load_engine(args.against) if args.against else None
    if args.against and older is None:
        ap.error(f"--against {args.against}: its engine is not under parlour/games (too old to time here)")

    yard_before = ({"available": False} if args.no_yardstick
                   else yardstick.measure(min(args.seconds, 1.0)))
    load_start = loadavg()
    results = []
    for name, players in configs:
        game = get_game(name)
        runs, old_runs = [], []
        for i in range(args.repeat):
            runs.append(play_rounds(game, players, args.seconds, seed=i))
            if older:  # in turns, so both see the same moments of the machine's load
                old_runs.append(play_rounds_of(older, name, players, args.seconds, seed=i))
        fig = {"game": name, "players": players, **best(runs)}
        if older:
            fig["against"] = best(old_runs)
            fig["speedup"] = fig["rounds_per_s"] / fig["against"]["rounds_per_s"]
        results.append(fig)
    yard_after = ({"available": False} if args.no_yardstick
                  else yardstick.measure(min(args.seconds, 1.0)))
    yard = yardstick.mean(yard_before, yard_after)
    for fig in results:
        fig["vs_openspiel"] = yardstick.ratios(fig["rounds_per_s"], yard)

    doc = {"python": sys.version.split()[0], "seconds": args.seconds, "repeat": args.repeat,
           "load_average": [load_start, loadavg()], "against": args.against,
           "yardstick": yard, "results": results}
    if args.json:
        print(json.dumps(doc, indent=2))
        return
    print(f"step engine, random rounds, best of {args.repeat} x {args.seconds:g} s CPU; "
          f"Python {doc['python']}; load average {load_start} -> {loadavg()}")
    hearts = yard["games"]["hearts"]["python_games_per_s"] if yard.get("available") else None
    if hearts:
        print(f"baseline: OpenSpiel hearts driven from Python, {hearts:,.0f} games/s")
    head = f"{'game':8} {'players':>7} {'rounds/s':>10} {'moves/s':>10} {'wall r/s':>10}"
    if hearts:
        head += f" {'/ hearts':>9}"
    if older:
        head += f" {args.against + ' r/s':>14} {'speed-up':>9}"
    print(head)
    for fig in results:
        line = (f"{fig['game']:8} {fig['players']:>7} {fig['rounds_per_s']:>10,.0f} "
                f"{fig['moves_per_s']:>10,.0f} {fig['wall_rounds_per_s']:>10,.0f}")
        if hearts:
            line += f" {fig['rounds_per_s'] / hearts:>8.2f}x"
        if older:
            line += f" {fig['against']['rounds_per_s']:>14,.0f} {fig['speedup']:>8.2f}x"
        print(line)


if __name__ == "__main__":
    main()
