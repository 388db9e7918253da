"""``parlour analyze``: a variant balance report for game designers."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.markdown import Markdown

from parlour.arena import export
from parlour.arena.analyze import RoundFacts, markdown, run_id, write_charts
from parlour.arena.analyze import analyze as run_analysis
from parlour.cli.app import app
from parlour.cli.commands.tournament_command import parse_rules
from parlour.cli.common import (
    UsageError,
    at_least_one,
    check_backend,
    complete_bots,
    complete_rule,
    game_argument,
    resolve_game,
    resolve_players,
    usage_errors,
)
from parlour.cli.options import BackendOption, ForceResultsOption, ResumeResultsOption, SeatsOption
from parlour.cli.runs import check_results_dir, open_checkpoint, refuse_remote_resume, results_run


def parse_compare(game: str, texts: list[str] | str | None) -> list[tuple[str, list[Any]]]:
    """Each ``KEY=V1,V2`` as the option name and its parsed values: the grid's axes."""
    if isinstance(texts, str):
        texts = [texts]
    axes: list[tuple[str, list[Any]]] = []
    for text in texts or []:
        key, sep, values = text.partition("=")
        key = key.strip().replace("-", "_")
        if not sep or not values.strip():
            raise UsageError("--compare takes KEY=V1,V2[,...]")
        if key in (k for k, _ in axes):
            raise UsageError(f"{key} is compared twice: give its values in one --compare")
        parsed = [resolve_game(game).options.parse_pairs([f"{key}={v}"])[key]
                  for v in values.split(",") if v.strip()]
        if len(set(map(repr, parsed))) != len(parsed):
            raise UsageError(f"--compare {key} names a value twice")
        axes.append((key, parsed))
    return axes


def check_ablate(game: str, names: list[str] | None, rounds: list[int]) -> list[str]:
    """The ``--ablate`` switches, checked against the ones the game's kit declares."""
    from parlour.arena.analyze import ablations

    found = ablations(resolve_game(game).name)
    chosen: list[str] = []
    for name in names or []:
        key = name.strip().lower()
        if key not in found:
            offered = ", ".join(found) or "none"
            raise UsageError(f"{resolve_game(game).title} has no rule switch {name!r} for "
                             f"--ablate (it offers: {offered})")
        if key not in chosen:
            chosen.append(key)
    if chosen and any(r != 1 for r in rounds):
        raise UsageError("--ablate measures single rounds: leave rounds at 1")
    return chosen


@app.command("analyze", short_help="Variant balance report for game designers.")
def analyze(
    game: Annotated[str, game_argument("analyze")],
    players: SeatsOption = None,
    games: Annotated[int, typer.Option("--games", "-g", "-k", help="Deals per variant.")] = 200,
    rule: Annotated[list[str] | None, typer.Option(
        "--rule", "-r", metavar="KEY=VALUE",
        help="A rule option for every variant (repeatable).", autocompletion=complete_rule)] = None,
    compare: Annotated[list[str] | None, typer.Option(
        metavar="KEY=V1,V2", help="Values of an option to set side by side (repeatable: "
                                  "the lists are crossed into a grid; the first cell is "
                                  "the baseline).")] = None,
    ablate: Annotated[list[str] | None, typer.Option(
        metavar="RULE", help="Switch a rule off in paired games to measure its worth "
                             "(repeatable; the game lists its switches).")] = None,
    bots: Annotated[str, typer.Option(
        "--bots", "-b", metavar="NAME,...", autocompletion=complete_bots,
        help="Bots, comma-separated; the last fills the remaining seats.")] = "heuristic",
    seed: Annotated[int, typer.Option("--seed", "-s", help="Seed of the deals and bots.")] = 0,
    workers: Annotated[int, typer.Option("--workers", "-w", help="Worker processes.")] = 1,
    backend: BackendOption = "local",
    ray_address: Annotated[str | None, typer.Option(metavar="ADDRESS", help="Ray cluster address.")] = None,
    out: Annotated[str | None, typer.Option(
        "--out", "-o", metavar="DIR",
        help="Directory for report.md, report.json, games.csv, games.parquet and charts "
             "(created if need be).")] = None,
    force: ForceResultsOption = False,
    resume: ResumeResultsOption = False,
) -> None:
    """Balance report: seat and first-player advantage, round length, bonus ties,
    score distributions, for each cell of a grid of variants side by side, each
    cell's difference from the baseline on the same deals, rules switched off, and
    the findings in words (Markdown with charts; per-game CSV and Parquet)."""
    with usage_errors():
        players = resolve_players(resolve_game(game), players)
        at_least_one("--games", games)
        check_backend(backend, ray_address)
        rules = parse_rules(game, players, rule)
        cmp = parse_compare(game, compare)
        for key, _ in cmp:
            if key in rules:
                raise UsageError(f"{key} is both compared and fixed by --rule")
        from parlour.arena.analyze import grid

        cells = grid(resolve_game(game).name, players, rules, cmp)
        switches = check_ablate(game, ablate, [full["rounds"] for _, _, full in cells])
        from parlour.bots.registry import check_lineup

        try:
            check_lineup([b.strip() for b in bots.split(",")], resolve_game(game).name, players)
        except ValueError as e:
            raise UsageError(str(e)) from None
        refuse_remote_resume(resume, backend)
        check_results_dir(out, ["report.json", "report.md", "games.csv"], force, resume)
        kept = open_checkpoint(
            out, backend,
            lambda: run_id(game, players, games, rules, cmp, bots.split(","), seed, switches),
            resume, lambda d: RoundFacts(**d))
    console = Console(stderr=True)
    with results_run(console, "balance", games * len(cells), kept, out) as run:
        report = run_analysis(game, players, games, rules, cmp, bots.split(","), seed,
                              workers, backend, ray_address, run.advance, ablate=switches,
                              done=run.done, keep=run.keep)
    charts: list[str] = []
    if out:
        path = Path(out)
        path.mkdir(parents=True, exist_ok=True)
        charts = [str(p) for p in write_charts(report, path)]
        (path / "report.md").write_text(markdown(report, charts), encoding="utf-8")
        slim = {**report, "variants": [{k: v for k, v in var.items() if k != "score_values"}
                                       for var in report["variants"]]}
        slim.pop("games")
        (path / "report.json").write_text(json.dumps(slim, indent=2) + "\n", encoding="utf-8")
        tables = [str(export.write_csv(report, path / "games.csv")),
                  str(export.write_parquet(report, path / "games.parquet"))]
        console.print(f"wrote {path / 'report.md'}, {path / 'report.json'}, "
                      + ", ".join(tables + charts))
    Console().print(Markdown(markdown(report)))
