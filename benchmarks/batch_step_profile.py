"""Profile the step engine on random playouts with pyinstrument (for docs/speed.md).

    nice .venv/bin/python benchmarks/batch_step_profile.py fantan 4 3
    nice .venv/bin/python benchmarks/batch_step_profile.py fanti 4 3

Arguments: game, players, seconds. Prints pyinstrument's text profile of the loop in
:func:`batch_bench.step_bench` (new_round, legal_moves, apply, score).
"""

from __future__ import annotations

import sys
from pathlib import Path

from pyinstrument import Profiler

sys.path.insert(0, str(Path(__file__).parent))
from batch_bench import step_bench  # noqa: E402  (a sibling script, not a package)


def main() -> None:
    game = sys.argv[1] if len(sys.argv) > 1 else "fantan"
    players = int(sys.argv[2]) if len(sys.argv) > 2 else 4
    seconds = float(sys.argv[3]) if len(sys.argv) > 3 else 3.0
    prof = Profiler(interval=0.0005)
    prof.start()
    result = step_bench(game, players, seconds)
    prof.stop()
    print(result)
    print(prof.output_text(unicode=False, color=False, show_all=False))


if __name__ == "__main__":
    main()
