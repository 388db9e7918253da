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


def _version(value: bool) -> None:
    if value:
        from parlour import __version__

        typer.echo(f"parlour {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: bool = typer.Option(False, "--version", is_eager=True, callback=_version,
                                 help="Print the version and exit."),
) -> None:
    """Fanti and Fan Tan: play, simulate, check and replay games."""


def main() -> None:
    from parlour.cli import commands  # noqa: F401  (registers the commands)

    app()
