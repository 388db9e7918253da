"""``parlour dataset``: finished game records as numpy arrays for learning."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from parlour.cli.app import app
from parlour.cli.common import UsageError, fail, stdout, usage_errors
from parlour.cli.paths import prepare_output_dir


@app.command("dataset", short_help="Game records as numpy arrays (observation, mask, action, return).")
def dataset_command(
    records: Annotated[list[Path], typer.Argument(
        metavar="RECORDS...", help="Record files (JSON Lines or JSON), e.g. a tournament's "
                                   "records.jsonl or simulate --out.")],
    out: Annotated[Path, typer.Option("--out", "-o", metavar="DIR",
                                      help="Folder for the arrays (created if need be).")],
    observation: Annotated[str, typer.Option(
        metavar="vector|infostate", help="The environments' observation kind.")] = "vector",
    as_json: Annotated[bool, typer.Option("--json", help="Print the schema as JSON.")] = False,
    parquet: Annotated[bool, typer.Option(
        "--parquet", help="Also write rows.parquet (one table; parlour.envs.dataset."
                          "load_parquet reads it).")] = False,
) -> None:
    """Replay every finished game through the research environments' encodings and write
    one row per action: the acting seat's observation and legal-action mask, the action,
    the seat, its game result and round score (docs/research.md, "Datasets"). Games
    still in play are left out. Load it back with parlour.envs.dataset.load(DIR)."""
    try:
        from parlour.envs import dataset
    except ImportError as e:  # pragma: no cover - numpy is core
        fail(f"the dataset needs numpy: {e}")
    with usage_errors():
        for path in records:
            if not path.is_file():
                raise UsageError(f"no record file at {path}")
        kind = observation.strip().lower()
        try:  # every record read and checked before the folder is made
            dataset.check_observation(kind)
            games, skipped = dataset.collect(records)
        except dataset.DatasetError as e:
            raise UsageError(str(e)) from None
        prepare_output_dir(out)
    summary = dataset.write(games, skipped, out, kind, records, parquet)
    if as_json:
        typer.echo(json.dumps(summary))
        return
    stdout().print(f"{summary['rows']} rows from {summary['games']} games of {summary['game']} "
                   f"({summary['players']} players, {summary['observation']} observation of "
                   f"{summary['obs_size']} values) written to {out}"
                   + (f"; {summary['skipped_in_play']} games still in play left out"
                      if summary["skipped_in_play"] else ""), soft_wrap=True)
