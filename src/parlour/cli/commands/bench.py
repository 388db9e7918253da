"""``parlour bench``: how fast the engine plays random rounds, in one process."""

from __future__ import annotations

import json
from typing import Annotated

import typer
from rich.table import Table

from ...bench import BenchResult, random_playouts
from ..app import app
from ..common import (
    UsageError,
    game_argument,
    resolve_game,
    resolve_players,
    stdout,
    usage_errors,
)


def bench_table(r: BenchResult) -> Table:
    t = Table(title=f"Random playouts: {r.game}, {r.players} players",
              caption=f"{r.python}, one process")
    t.add_column("seconds", justify="right")
    t.add_column("rounds", justify="right")
    t.add_column("moves", justify="right")
    t.add_column("rounds/s", justify="right")
    t.add_column("moves/s", justify="right")
    t.add_row(f"{r.seconds:.2f}", f"{r.rounds:,}", f"{r.moves:,}", f"{r.rounds_per_s:,.0f}",
              f"{r.moves_per_s:,.0f}")
    return t


@app.command("bench")
def bench_command(
    game: Annotated[str, game_argument("measure")],
    players: Annotated[int | None, typer.Option(
        "--players", "-n", help="Players (default: Fanti 2, Fan Tan 4).")] = None,
    seconds: Annotated[float, typer.Option(
        "--seconds", "-s", help="How long to measure.")] = 2.0,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
) -> None:
    """Measure random-playout rounds and moves per second through the Round interface.

    Each round is dealt with new_round and played with legal_moves and apply (which checks every move), as bots and tools drive it.
    """
    with usage_errors():
        g = resolve_game(game)
        n = resolve_players(g, players)
        if not 0 < seconds <= 3600:
            raise UsageError(f"--seconds must be above 0 and at most 3600, not {seconds}")
    result = random_playouts(g.name, n, seconds)
    if as_json:
        typer.echo(json.dumps(result.to_json()))
    else:
        stdout().print(bench_table(result))
