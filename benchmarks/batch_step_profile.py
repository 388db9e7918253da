"""Profile the step engine on random playouts with pyinstrument (for docs/speed.md).

    nice .venv/bin/python benchmarks/batch_step_profile.py fantan 4 3
    nice .venv/bin/python benchmarks/batch_step_profile.py fanti 4 3

Arguments, each optional: game, players, seconds (default ``fantan 4 3``); ``--help``
lists them. Prints pyinstrument's text profile of the loop in
:func:`batch_bench.step_bench` (new_round, legal_moves, apply, score).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from pyinstrument import Profiler

sys.path.insert(0, str(Path(__file__).parent))
import bench_args  # noqa: E402  (a sibling script, not a package)
from batch_bench import step_bench  # noqa: E402  (a sibling script, not a package)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("game", nargs="?", default="fantan", help="fantan or fanti (default fantan)")
    ap.add_argument("players", nargs="?", type=int, default=4, help="players (default 4)")
    ap.add_argument("seconds", nargs="?", type=float, default=3.0,
                    help="seconds of playouts (default 3)")
    a = ap.parse_args()
    bench_args.check_players(ap, a.game, a.players)
    prof = Profiler(interval=0.0005)
    prof.start()
    result = step_bench(a.game, a.players, a.seconds)
    prof.stop()
    print(result)
    print(prof.output_text(unicode=False, color=False, show_all=False))


if __name__ == "__main__":
    main()
