"""Per-game results of ``parlour analyze`` as a table: CSV and Parquet.

One row per game (one deal of one cell of the grid), flat columns so a spreadsheet,
pandas or polars reads them as they are: ``variant`` (the cell's label), one column per
compared option, ``deal``, ``dealer``, ``first_mover``, ``moves_per_round``,
``winners`` (seats, space-separated), ``score_0`` ... ``score_{N-1}``,
``first_mover_win`` (its share of the win), one column per measure of the game and,
per ``--ablate KEY``, ``KEY_seat``, ``KEY_score_with``, ``KEY_score_without`` (the
favoured seat's score with and without the rule). Parquet goes through pyarrow.
"""

from __future__ import annotations

import csv
from pathlib import Path
from typing import Any

from parlour.arena import stats


def rows(report: dict[str, Any]) -> list[dict[str, Any]]:
    """The report's games as flat rows (module doc)."""
    n = report["players"]
    deals = report["deals"]
    out = []
    for i, g in enumerate(report["games"]):
        cell = report["variants"][i // deals]
        row: dict[str, Any] = {"variant": cell["label"]}
        row.update({k: _plain(v) for k, v in cell["chosen"].items()})
        row.update({"deal": g["deal"], "dealer": g["dealer"], "first_mover": g["first"],
                    "moves_per_round": g["moves"],
                    "winners": " ".join(str(s) for s in g["winners"])})
        row.update({f"score_{s}": g["scores"][s] for s in range(n)})
        row["first_mover_win"] = stats.win_shares(g["winners"], n)[g["first"]]
        row.update(g["measures"])
        for key, a in g.get("ablations", {}).items():
            seat = a["seat"]
            row[f"{key}_seat"] = seat
            row[f"{key}_score_with"] = a["with"][seat] if seat is not None else None
            row[f"{key}_score_without"] = a["without"][seat] if seat is not None else None
        out.append(row)
    return out


def _plain(v: Any) -> Any:
    if isinstance(v, bool):
        return str(v).lower()
    return v if isinstance(v, int | float | str) else str(v)


def write_csv(report: dict[str, Any], path: Path) -> Path:
    table = rows(report)
    with path.open("w", newline="", encoding="utf-8") as f:
        w = csv.DictWriter(f, fieldnames=list(table[0]) if table else ["variant"])
        w.writeheader()
        w.writerows(table)
    return path


def write_parquet(report: dict[str, Any], path: Path) -> Path:
    import pyarrow as pa
    import pyarrow.parquet as pq

    pq.write_table(pa.Table.from_pylist(rows(report)), path)
    return path
