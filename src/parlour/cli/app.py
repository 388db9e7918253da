"""The Typer application: one sub-module per command."""

from __future__ import annotations

import typer
from typer.core import TyperArgument, TyperOption

app = typer.Typer(
    name="parlour",
    help="Fanti and Fan Tan: play, simulate, check and replay games, and look up the rules.",
    no_args_is_help=True,
    add_completion=True,  # --install-completion / --show-completion (games, bots, rules, files)
    pretty_exceptions_enable=False,
    context_settings={"help_option_names": ["-h", "--help"]},
    options_metavar="[OPTIONS]",
    rich_markup_mode=None,  # help text is plain words: line breaks inside a paragraph join
)


# Help as people read it: flags show no type (Typer prints "<bool>"), an
# argument shows its name only ("FILE..." rather than "{FILE} <list[Path]>"), and a value
# shows its metavar or a plain word for its type.
_TYPE_WORDS = {"<int>": "INTEGER", "<float>": "NUMBER", "<str>": "TEXT", "<Path>": "PATH"}


def _option_type(self: TyperOption, ctx: typer.Context) -> str | None:
    if self.is_flag:
        return None
    if self.metavar is not None:
        return self.metavar
    shown = self.display_type(ctx)
    return _TYPE_WORDS.get(shown, shown.strip("<>").upper())


def _argument_usage(self: TyperArgument) -> str:
    name = self.display_name_raw
    if not self.required and not name.startswith("["):
        name = f"[{name}]"
    return name + ("..." if self.nargs != 1 and not name.endswith("...") else "")


if hasattr(TyperOption, "display_type_rich") and hasattr(TyperArgument, "_usage_display_name"):
    TyperOption.display_type_rich = _option_type  # type: ignore[method-assign]
    TyperArgument.display_type_rich = lambda self, ctx: None  # type: ignore[method-assign]
    TyperArgument._usage_display_name = _argument_usage  # type: ignore[method-assign]


def _version(value: bool) -> None:
    if value:
        from parlour import __version__

        typer.echo(f"parlour {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: bool = typer.Option(False, "--version", "-V", is_eager=True, callback=_version,
                                 help="Print the version and exit.", show_default=False),
) -> None:
    """Fanti and Fan Tan: play, simulate, check and replay games."""


def main() -> None:
    from parlour.cli import commands  # noqa: F401  (registers the commands)

    app()
