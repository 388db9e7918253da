"""Random rollouts through the PettingZoo AEC environments ``fantan_v0`` and ``fanti_v0``.

    .venv/bin/python examples/pettingzoo_random.py [--games 20]

Each agent samples uniformly among its legal actions (``obs["action_mask"]``), with its
action space seeded per game, so the output is the same on every run. Prints the
average reward per seat, the mean episode length, and one rendered position.
"""

from __future__ import annotations

import argparse

import numpy as np

from parlour.envs import fantan_v0, fanti_v0


def rollouts(mod, games: int, **kwargs) -> None:
    env = mod.env(**kwargs)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    steps = 0
    for game in range(games):
        env.reset(seed=game)
        for i, a in enumerate(env.possible_agents):
            env.action_space(a).seed(1000 * game + i)
        for agent in env.agent_iter():
            obs, reward, termination, truncation, _info = env.last()
            totals[agent] += reward
            if termination or truncation:
                action = None
            else:
                action = env.action_space(agent).sample(obs["action_mask"])
                steps += 1
            env.step(action)
    name = mod.__name__.rsplit(".", 1)[-1]
    mean = {a: round(t / games, 3) for a, t in totals.items()}
    print(f"{name} {kwargs}: {games} games, {steps / games:.0f} steps a game, "
          f"mean reward {mean}")


def show_position(seed: int = 0) -> None:
    env = fantan_v0.raw_env(players=4, render_mode="ansi")
    env.reset(seed=seed)
    for _ in range(12):
        mask = env.observe(env.agent_selection)["action_mask"]
        env.step(int(np.flatnonzero(mask)[0]))
    print(env.render())


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=20)
    args = ap.parse_args()
    rollouts(fantan_v0, args.games, players=4)
    rollouts(fantan_v0, args.games, players=5, strict=False, stakes="chips", rounds=1)
    rollouts(fanti_v0, args.games, players=2)
    rollouts(fanti_v0, args.games, players=4, reward="score", episode="round")
    show_position()


if __name__ == "__main__":
    main()
