"""Plot the learning curves of ``examples/train_ppo.py`` logs (one PNG).

    .venv/bin/python examples/plot_training.py fantan_4p.log fanti_2p.log --out curve.png

Each log line with ``vs_*`` figures is a checkpoint: the greedy policy's win share
against each compiled bot on the same fixed deals (``train_ppo.evaluate``), by
environment steps. One panel per log.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("logs", nargs="+")
    ap.add_argument("--titles", default="", help="separated by semicolons, one per log")
    ap.add_argument("--out", default="learning-curve.png")
    args = ap.parse_args()
    titles = args.titles.split(";") if args.titles else [Path(p).stem for p in args.logs]
    fig, axes = plt.subplots(1, len(args.logs), figsize=(5.5 * len(args.logs), 3.8),
                             squeeze=False)
    for ax, path, title in zip(axes[0], args.logs, titles, strict=True):
        rows = [json.loads(line) for line in Path(path).read_text().splitlines()
                if line.startswith("{") and '"vs_' in line]
        for key in ("vs_random", "vs_greedy", "vs_heuristic"):
            if rows and key in rows[0]:
                ax.plot([r["steps"] / 1e6 for r in rows], [r[key] for r in rows],
                        label=key[3:])
        ax.set_title(title)
        ax.set_xlabel("environment steps (millions)")
        ax.set_ylabel("win share")
        ax.grid(alpha=0.3)
        ax.legend()
    fig.tight_layout()
    fig.savefig(args.out, dpi=110)


if __name__ == "__main__":
    main()
