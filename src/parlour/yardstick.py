"""The yardstick: OpenSpiel's C++ card games under random play, measured in the same run.

A speed figure means little on its own: the machine, its load and the Python build all
move it. So every parlour figure is reported beside OpenSpiel's ``hearts`` and
``crazy_eights`` measured a moment apart on the same core, as a ratio. Two figures per
game:

* ``cpp_games_per_s`` -- the whole game loop in C++: ``pyspiel.evaluate_bots`` with
  ``make_uniform_random_bot`` for every seat (one Python call per game; the chance
  nodes are sampled in C++). ``pyspiel.random_sim_test`` also loops in C++, but it
  checks serialisation and observations at every step, so it measures the checks
  (about 50x slower) and is not used.
* ``python_games_per_s`` -- driven from Python, as a Python program drives an engine:
  ``state = game.new_initial_state()``, chance outcomes sampled by their probabilities
  and uniformly random legal actions, with ``random.Random``.

``measure`` imports pyspiel lazily and returns ``{"available": False, "reason": ...}``
without it (``pip install open-spiel==2.0.2``, the ``rl`` extra).
"""

from __future__ import annotations

import random
import time
from typing import Any

GAMES = ("hearts", "crazy_eights")
"""OpenSpiel games measured, with their default parameters (hearts 4 players,
crazy_eights 5)."""


def _cpp_loop(pyspiel: Any, game: Any, seconds: float) -> float:
    bots = [pyspiel.make_uniform_random_bot(p, 1000 + p) for p in range(game.num_players())]
    n = 0
    t0 = time.perf_counter()
    while (elapsed := time.perf_counter() - t0) < seconds or n == 0:
        pyspiel.evaluate_bots(game.new_initial_state(), bots, n)
        n += 1
    return n / elapsed


def _python_loop(game: Any, seconds: float, seed: int = 0) -> tuple[float, float]:
    """Games/s and decisions (non-chance actions) per game, driven from Python."""
    rng = random.Random(seed)
    n = moves = 0
    t0 = time.perf_counter()
    while (elapsed := time.perf_counter() - t0) < seconds or n == 0:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                u = rng.random()
                outcomes = state.chance_outcomes()
                action = outcomes[-1][0]
                for a, p in outcomes:
                    u -= p
                    if u < 0:
                        action = a
                        break
                state.apply_action(action)
            else:
                legal = state.legal_actions()
                state.apply_action(legal[int(rng.random() * len(legal))])
                moves += 1
        n += 1
    return n / elapsed, moves / n


def measure(seconds: float = 1.0) -> dict[str, Any]:
    """OpenSpiel random-playout speeds, ``seconds`` per figure (4 figures in all).

    Returns ``{"available": True, "pyspiel": VERSION, "games": {NAME: {...}}}`` with,
    per game, ``players``, ``cpp_games_per_s``, ``python_games_per_s``,
    ``moves_per_game`` (decisions, from the Python runs) and ``cpp_moves_per_s``.
    """
    try:
        import pyspiel
    except ImportError as e:
        return {"available": False, "reason": f"pyspiel is not installed ({e}); "
                                              "pip install open-spiel==2.0.2"}
    out: dict[str, Any] = {"available": True, "pyspiel": _version(), "seconds": seconds,
                           "games": {}}
    for name in GAMES:
        game = pyspiel.load_game(name)
        cpp = _cpp_loop(pyspiel, game, seconds)
        py, per_game = _python_loop(game, seconds)
        out["games"][name] = {
            "players": game.num_players(),
            "cpp_games_per_s": round(cpp),
            "python_games_per_s": round(py),
            "moves_per_game": round(per_game, 2),
            "cpp_moves_per_s": round(cpp * per_game),
        }
    return out


def _version() -> str | None:
    try:
        from importlib.metadata import version

        return version("open_spiel")
    except Exception:  # the version is a label only; never fail a measurement on it
        return None


def mean(*runs: dict[str, Any]) -> dict[str, Any]:
    """The figure-by-figure mean of several :func:`measure` results (e.g. before and after
    a long benchmark, so a change in the machine's load shows up in both halves)."""
    ok = [r for r in runs if r.get("available")]
    if not ok:
        return runs[0] if runs else {"available": False, "reason": "no runs"}
    out = {**ok[0], "runs": len(ok), "games": {}}
    for name, fig in ok[0]["games"].items():
        out["games"][name] = {k: (round(sum(r["games"][name][k] for r in ok) / len(ok), 2)
                                  if k != "players" else v) for k, v in fig.items()}
    return out


def ratios(rounds_per_s: float, yard: dict[str, Any]) -> dict[str, float]:
    """A parlour speed (rounds/s) over each yardstick figure (games/s).

    A Fan Tan or Fanti round and a hearts deal are about the same size (52 cards,
    50-80 moves), so "rounds per hearts game" is the ratio reported. Keys are
    ``hearts_cpp``, ``hearts_python``, ``crazy_eights_cpp``, ...; empty without pyspiel.
    """
    if not yard.get("available"):
        return {}
    out = {}
    for name, fig in yard["games"].items():
        out[f"{name}_cpp"] = round(rounds_per_s / fig["cpp_games_per_s"], 3)
        out[f"{name}_python"] = round(rounds_per_s / fig["python_games_per_s"], 3)
    return out


if __name__ == "__main__":
    import json
    import sys

    print(json.dumps(measure(float(sys.argv[1]) if len(sys.argv) > 1 else 1.0), indent=2))
