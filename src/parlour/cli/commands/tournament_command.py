"""``parlour tournament``: bots against bots on duplicate deals."""

from __future__ import annotations

import json
from typing import Annotated

import typer
from rich.console import Console

from parlour.arena import report
from parlour.arena.jobs import GameResult
from parlour.arena.tournament import Tournament
from parlour.cli.app import app
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
from parlour.cli.options import (
    BackendOption,
    ForceResultsOption,
    RayAddressOption,
    ResumeResultsOption,
    SeatsOption,
    WorkersOption,
)
from parlour.cli.runs import check_results_dir, open_checkpoint, refuse_remote_resume, results_run


def parse_rules(game: str, players: int, pairs: list[str] | None) -> dict:
    """``--rule KEY=VALUE`` pairs as a dict of the rules given (checked against the
    game's options; defaults are filled in later, with ``rounds`` 1)."""
    g = resolve_game(game)
    given = g.options.parse_pairs(pairs or [])
    g.rules(players, given)  # raises OptionError on a bad combination
    return given


@app.command("tournament", short_help="Bots against bots on duplicate deals, rated.")
def tournament(
    game: Annotated[str, game_argument("play a tournament of")],
    players: SeatsOption = None,
    bots: Annotated[str, typer.Option(
        "--bots", "-b", metavar="NAME,...", autocompletion=complete_bots,
        help="Bots, comma-separated; the last one fills the remaining seats "
             "(hard,heuristic at 4 players = hard against 3 heuristic).")] = "heuristic,random",
    games: Annotated[int | None, typer.Option(
        "--games", "-g", "-k", help="Deals; each is played once per seat rotation (default 100).")] = None,
    seed: Annotated[int | None, typer.Option(
        "--seed", "-s", help="Seed of the deals and the bots (default 0).")] = None,
    deals: Annotated[str | None, typer.Option(
        "--deals", metavar="SET", help="A published deal set, e.g. standard-1000 (fixes the "
                                       "deals and the seed; checked against its hash).")] = None,
    rule: Annotated[list[str] | None, typer.Option(
        "--rule", "-r", metavar="KEY=VALUE", autocompletion=complete_rule,
        help="A rule option (repeatable); rounds defaults to 1.")] = None,
    workers: WorkersOption = 1,
    backend: BackendOption = "local",
    ray_address: RayAddressOption = None,
    out: Annotated[str | None, typer.Option(
        "--out", "-o", metavar="DIR",
        help="Directory for records.jsonl, summary.json and charts (created if need be).")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the summary as JSON.")] = False,
    force: ForceResultsOption = False,
    resume: ResumeResultsOption = False,
) -> None:
    """Play bots against each other on duplicate deals and rate them.

    Every deal is played once per seat rotation, so each bot meets the same cards
    from every seat; a game is one deal with one rotation (one round unless
    --rule rounds=K). Results: wins (shared wins split), win rate with a 95% CI
    clustered by deal, mean score, OpenSkill rating, and the win rate per seat.
    """
    with usage_errors():
        n = resolve_players(resolve_game(game), players)
        check_backend(backend, ray_address)
        if deals is not None and (games is not None or seed is not None):
            raise UsageError("--deals fixes the deals and the seed: drop --games and --seed")
        games = 100 if games is None else games
        seed = 0 if seed is None else seed
        at_least_one("--games", games)
        at_least_one("--workers", workers)
        rules = parse_rules(game, n, rule)
        try:
            t = Tournament(game, n, bots.split(","), games, seed, rules, deals)
        except ValueError as e:
            raise UsageError(str(e)) from None
        refuse_remote_resume(resume, backend)
        check_results_dir(out, ["summary.json", "records.jsonl"], force, resume)
        kept = open_checkpoint(out, backend, t.run_id, resume, lambda d: GameResult(**d))
    console = Console(stderr=True)
    with results_run(console, f"{t.game} tournament", len(t.jobs()), kept, out,
                     transient=as_json) as run:
        result = t.run(backend, workers, ray_address, run.advance, done=run.done, keep=run.keep)
    summary = result.summary()
    if out:
        paths = report.write(result, out)
        console.print("wrote " + ", ".join(str(p) for p in paths))
    if as_json:
        typer.echo(json.dumps(summary))
        return
    stdout = Console()
    stdout.print(report.table(summary))
    stdout.print(report.seat_table(summary))
