"""The command-line options that several commands declare alike, written once: each an
``Annotated`` type a command's parameter takes, with its default given where it is used.

A command whose option says something different (another help text or flag) keeps its
own declaration; these are only the ones whose words and checks are the same.
"""

from __future__ import annotations

from typing import Annotated

import typer

from parlour.cli.common import complete_rule, players_help

SeatsOption = Annotated[int | None, typer.Option(
    "--players", "-n", help=players_help("Seats at the table"))]
"""``--players``: the table's size, each game's default said in the help."""

RoundsRuleOption = Annotated[list[str] | None, typer.Option(
    "--rule", "-r", metavar="KEY=VALUE", help="A rule option, e.g. rounds=2 (repeatable).",
    autocompletion=complete_rule)]
"""``--rule KEY=VALUE`` for a whole game (``play``, ``simulate``)."""

BackendOption = Annotated[str, typer.Option(metavar="local|ray", help="Where the games run.")]
"""``--backend``: checked by :func:`parlour.cli.common.check_backend`."""

WorkersOption = Annotated[int, typer.Option(
    "--workers", "-w", help="Worker processes or Ray CPUs.")]

RayAddressOption = Annotated[str | None, typer.Option(
    metavar="ADDRESS", help="Ray cluster address (default: start a local Ray).")]

ForceResultsOption = Annotated[bool, typer.Option(
    "--force", help="Overwrite the results already in --out.")]
"""``--force`` of a run that writes a results folder (:mod:`parlour.cli.runs`)."""

ResumeResultsOption = Annotated[bool, typer.Option(
    "--resume", help="Go on with the stopped run whose games --out keeps.")]
"""``--resume`` of a run that keeps its games in a results folder (:mod:`parlour.cli.runs`)."""
