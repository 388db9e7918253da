"""How the arena's reports finish a chart: the legend beside the plot (never over the
bars) and the figure written as a PNG, then closed so a long run holds no figures."""

from __future__ import annotations

from pathlib import Path
from typing import Any


def legend_beside(ax: Any) -> None:
    """The legend to the right of the axes, outside the plot."""
    ax.legend(fontsize="small", loc="upper left", bbox_to_anchor=(1.01, 1.0))


def save_chart(fig: Any, path: Path) -> Path:
    """Lay out, write ``path`` (100 dpi) and close ``fig``; returns ``path``."""
    import matplotlib.pyplot as plt

    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return path
