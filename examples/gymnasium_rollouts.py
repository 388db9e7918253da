"""Rollouts through the Gymnasium environments: a random learner seat against bots.

    .venv/bin/python examples/gymnasium_rollouts.py [--episodes 200]

The learner samples among the legal actions in ``info["action_mask"]``; the other
seats are parlour bots. Prints the learner's mean reward and win rate per setting.
"""

from __future__ import annotations

import argparse

import gymnasium as gym

import parlour.envs  # noqa: F401  (registers parlour/FanTan-v0 and parlour/Fanti-v0)


def run(env_id: str, episodes: int, **kwargs) -> None:
    env = gym.make(env_id, **kwargs)
    env.action_space.seed(0)
    total = wins = steps = 0.0
    for episode in range(episodes):
        _obs, info = env.reset(seed=episode)
        done = False
        while not done:
            action = env.action_space.sample(info["action_mask"])
            _obs, reward, terminated, truncated, info = env.step(action)
            total += reward
            steps += 1
            done = terminated or truncated
        wins += env.unwrapped.seat in env.unwrapped.match.winners
    print(f"{env_id} {kwargs}: mean reward {total / episodes:+.3f}, "
          f"win rate {wins / episodes:.2f}, {steps / episodes:.0f} learner steps an episode")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--episodes", type=int, default=200)
    args = ap.parse_args()
    n = args.episodes
    run("parlour/FanTan-v0", n, players=4, episode="round", opponents="random")
    run("parlour/FanTan-v0", n, players=4, episode="round", opponents="greedy")
    run("parlour/Fanti-v0", n, players=2, episode="round", opponents="random")
    run("parlour/Fanti-v0", n, players=3, episode="round", opponents="greedy", seat=None)


if __name__ == "__main__":
    main()
