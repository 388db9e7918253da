"""pgx (JAX on CPU) card games stepped in batches: the pgx line of ``vector_speed.py``.

    /tmp/pgxvenv/bin/python benchmarks/pgx_speed.py --num-envs 4096 --seconds 3

Runs in any Python where ``pip install jax pgx`` worked (JAX is not a parlour
dependency; ``vector_speed.py --pgx-python PATH`` runs this file with that interpreter).
Per line: ``jax.vmap`` of the game's ``step`` with pgx's auto-reset, jitted, random
legal actions chosen on the host in numpy as in the parlour lines
(``argmax(uniform * mask)``, the mask copied out of JAX every step), the observation
computed every step. Prints one JSON object a line: wall-clock and process-CPU steps
per second (CPU time adds up every XLA thread) and bytes per env of the state.
"""

from __future__ import annotations

import argparse
import json
import time
from typing import get_args

import bench_args


def measure(name: str, num_envs: int, seconds: float) -> dict:
    import jax
    import numpy as np
    import pgx
    from pgx.experimental import auto_reset

    env = pgx.make(name)
    init = jax.jit(jax.vmap(env.init))
    step = jax.jit(jax.vmap(auto_reset(env.step, env.init)))
    key = jax.random.PRNGKey(0)
    state = init(jax.random.split(key, num_envs))
    rng = np.random.default_rng(0)

    def one(state, key):
        mask = np.asarray(state.legal_action_mask)
        actions = (rng.random(mask.shape) * mask).argmax(1)
        key, sub = jax.random.split(key)
        state = step(state, jax.numpy.asarray(actions), jax.random.split(sub, num_envs))
        return state, key

    state, key = one(state, key)  # compile
    state.observation.block_until_ready()
    steps = 0
    w0, c0 = time.perf_counter(), time.process_time()
    while time.perf_counter() - w0 < seconds:
        state, key = one(state, key)
        steps += num_envs
    state.observation.block_until_ready()
    wall, cpu = time.perf_counter() - w0, time.process_time() - c0
    nbytes = sum(x.nbytes for x in jax.tree_util.tree_leaves(state))
    return {"line": f"pgx {name} (jax {jax.__version__}, pgx {pgx.__version__})",
            "steps": steps, "wall": steps / wall, "cpu": steps / cpu,
            "bytes_per_env": nbytes / num_envs}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--num-envs", type=bench_args.positive, default=4096)
    ap.add_argument("--seconds", type=float, default=5.0)
    ap.add_argument("--games", default="leduc_holdem,kuhn_poker")
    args = ap.parse_args()
    try:
        import jax  # noqa: F401
        import pgx
    except ImportError as e:
        raise SystemExit(f"pgx_speed.py needs jax and pgx ({e}): run it with a Python where "
                         "pip install jax pgx worked") from None
    known = get_args(getattr(pgx, "EnvId", None))  # pgx's game names
    for name in args.games.split(","):
        if known and name not in known:
            ap.error(f"--games {name!r}: not a pgx game; choose from {', '.join(known)}")
    for name in args.games.split(","):
        print(json.dumps(measure(name, args.num_envs, args.seconds)), flush=True)


if __name__ == "__main__":
    main()
