"""The Typer application: one sub-module per command."""

from __future__ import annotations

import typer

app = typer.Typer(
    name="parlour",
    help="Fanti and Fan Tan: play, simulate, check and replay games.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


def main() -> None:
    from . import commands  # noqa: F401  (registers the commands)

    app()
