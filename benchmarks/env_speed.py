"""Step rate of each research interface, 4-player Fan Tan, uniformly random legal actions.

    .venv/bin/python benchmarks/env_speed.py            # all interfaces, ~30 s
    .venv/bin/python benchmarks/env_speed.py --games 10 --players 5

A *step* is one action of one player (passes included); chance nodes are not steps.
Each line plays ``--games`` whole games (``rounds`` = players) with seeded random
actions, ``--repeat`` times, and prints the steps per second of wall time of the
fastest repetition, on one core:

* engine     -- ``Round.legal_moves`` + ``apply``, no environment (the ceiling);
* session    -- the shared driver with an observation vector and mask every step;
* pettingzoo raw / wrapped -- ``fantan_v0.raw_env`` / ``fantan_v0.env`` through
  ``agent_iter`` + ``last`` + ``step``;
* gymnasium  -- ``gym.make("parlour/FanTan-v0")``, one learner against ``random``
  bots: counted once as ``env.step`` calls (the learner's moves) and once as every
  move of the game (the learner's and the bots');
* openspiel  -- ``python_fantan`` driven from Python: ``legal_actions`` +
  ``apply_action`` (chance outcomes sampled too), and again with the current
  player's ``observation_tensor`` every step.
"""

from __future__ import annotations

import argparse
import random
import time
import warnings
from collections.abc import Callable

import bench_args
import numpy as np

from parlour.games import get_game
from parlour.match import Match, Shuffler


def engine(games: int, players: int) -> int:
    steps = 0
    rng = random.Random(0)
    for g in range(games):
        m = Match.new(get_game("fantan"), players, shuffler=Shuffler(g))
        sh = Shuffler(g + 10_000)
        while not m.is_over:
            if m.needs_deal:
                m.deal(sh.deck())
            r = m.rounds[-1]
            while not r.is_over:
                r.apply(rng.choice(r.legal_moves()))
                steps += 1
    return steps


def session(games: int, players: int) -> int:
    from parlour.envs.session import Session

    s = Session("fantan", players)
    rng = random.Random(0)
    steps = 0
    for g in range(games):
        s.reset(Shuffler(g))
        while not s.is_over:
            seat = s.current_seat
            s.observe(seat)
            mask = s.action_mask(seat)
            s.step(rng.choice(np.flatnonzero(mask).tolist()))
            steps += 1
    return steps


def pettingzoo(games: int, players: int, wrapped: bool) -> int:
    from parlour.envs import fantan_v0

    env = fantan_v0.env(players=players) if wrapped else fantan_v0.raw_env(players=players)
    rng = random.Random(0)
    steps = 0
    for g in range(games):
        env.reset(seed=g)
        for _agent in env.agent_iter():
            obs, _reward, term, trunc, _info = env.last()
            if term or trunc:
                env.step(None)
                continue
            env.step(rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
            steps += 1
    return steps


def gymnasium_env(games: int, players: int, all_moves: bool) -> int:
    import gymnasium as gym

    import parlour.envs  # noqa: F401  (registers the ids)

    env = gym.make("parlour/FanTan-v0", players=players, opponents="random")
    rng = random.Random(0)
    steps = 0
    for g in range(games):
        _obs, info = env.reset(seed=g)
        done = False
        while not done:
            before = sum(len(r.history) for r in env.unwrapped.match.rounds)
            action = rng.choice(np.flatnonzero(info["action_mask"]).tolist())
            _obs, _r, term, trunc, info = env.step(action)
            done = term or trunc
            after = sum(len(r.history) for r in env.unwrapped.match.rounds)
            steps += after - before if all_moves else 1
    return steps


def openspiel(games: int, players: int, observe: bool) -> int:
    import pyspiel

    import parlour.envs.openspiel  # noqa: F401  (registers the games)

    game = pyspiel.load_game("python_fantan", {"players": players})
    rng = random.Random(0)
    steps = 0
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
                continue
            if observe:
                state.observation_tensor(state.current_player())
            state.apply_action(rng.choice(state.legal_actions()))
            steps += 1
    return steps


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=bench_args.positive, default=100,
                    help="whole games per interface")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--repeat", type=bench_args.positive, default=3,
                    help="time each line this many times and keep the fastest "
                         "(the machine is shared: the best run is the least disturbed)")
    args = ap.parse_args()
    bench_args.check_players(ap, "fantan", args.players)
    warnings.simplefilter("ignore")
    runs: list[tuple[str, Callable[[int, int], int]]] = [
        ("engine", engine),
        ("session", session),
        ("pettingzoo raw_env", lambda g, n: pettingzoo(g, n, False)),
        ("pettingzoo env (wrapped)", lambda g, n: pettingzoo(g, n, True)),
        ("gymnasium, env.step calls", lambda g, n: gymnasium_env(g, n, False)),
        ("gymnasium, all moves", lambda g, n: gymnasium_env(g, n, True)),
        ("openspiel", lambda g, n: openspiel(g, n, False)),
        ("openspiel + observation_tensor", lambda g, n: openspiel(g, n, True)),
    ]
    print(f"Fan Tan, {args.players} players, {args.games} whole games per line, "
          f"best of {args.repeat}, one core")
    print(f"{'interface':32} {'steps':>8} {'seconds':>8} {'steps/s':>10}")
    for name, fn in runs:
        fn(1, args.players)  # warm up: imports, registrations, caches
        secs = float("inf")
        for _ in range(args.repeat):
            start = time.perf_counter()
            steps = fn(args.games, args.players)
            secs = min(secs, time.perf_counter() - start)
        print(f"{name:32} {steps:8d} {secs:8.2f} {steps / secs:10,.0f}")


if __name__ == "__main__":
    main()
