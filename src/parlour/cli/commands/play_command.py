"""``parlour play``: you against computer players, in the terminal (or at a server table)."""

from __future__ import annotations

import secrets
import time
from pathlib import Path
from typing import Annotated, Any

import typer

from parlour import record
from parlour.bots import make_bot
from parlour.cli.app import app
from parlour.cli.common import (
    UsageError,
    default_bot,
    fail,
    game_argument,
    resolve_bots,
    resolve_game,
    resolve_players,
    resolve_rules,
    stderr,
    stdout,
    usage_errors,
)
from parlour.cli.move_input import help_line
from parlour.cli.play_session import PlaySession, QuitGame, describe_seats
from parlour.match import Match, Shuffler
from parlour.simulate import derive_seed

INTERRUPTED = 130
"""Exit status after Ctrl-C (128 + SIGINT), as shells report it."""


def default_save_path(game: str) -> Path:
    """``parlour-GAME-YYYYMMDD-HHMMSS.json`` in the current directory, never overwriting."""
    stem = f"parlour-{game}-{time.strftime('%Y%m%d-%H%M%S')}"
    path, n = Path(f"{stem}.json"), 1
    while path.exists():
        n += 1
        path = Path(f"{stem}-{n}.json")
    return path


def _load_hints() -> Any:
    try:
        from parlour.bots.hints import hints
    except ImportError:
        stderr().print("[yellow]note:[/] --hints is not available in this build yet "
                       "(parlour.bots.hints is missing); playing without hints.")
        return None
    return hints


def _play_remote(url: str, hints: bool) -> int:
    try:
        from parlour.netclient import play_remote
    except ImportError:
        fail("--connect is not available in this build yet (parlour.netclient is missing)", 1)
    return play_remote(url, hints=hints)


def rules_text(rules: dict[str, Any]) -> str:
    """``rounds=2, strict=true``: rules as they are typed with ``--rule``."""
    return ", ".join(f"{k}={str(v).lower() if isinstance(v, bool) else v}"
                     for k, v in rules.items())


def _save(path: Path, match: Match) -> None:
    path.write_text(record.dumps(match) + "\n", encoding="utf-8")


def _progress(match: Match) -> str:
    r = match.rounds[-1] if match.rounds else None
    if r is None:
        return "no moves yet"
    return f"round {len(match.rounds)} of {match.rules['rounds']}, {len(r.history)} moves"


@app.command("play")
def play_command(
    game: Annotated[str, game_argument("play")],
    players: Annotated[int | None, typer.Option(
        "--players", "-n",
        help="Players at the table, you included (Fanti 2-4, default 2; Fan Tan 3-8, default 4).",
    )] = None,
    seat: Annotated[int, typer.Option(
        "--seat", help="Your seat, 0 to players-1 (seats go clockwise).")] = 0,
    seed: Annotated[int | None, typer.Option(
        "--seed", help="Deal from this seed (reproducible); default: a secure live shuffle.",
    )] = None,
    rule: Annotated[list[str] | None, typer.Option(
        "--rule", metavar="KEY=VALUE", help="A rule option, e.g. rounds=2 (repeatable).",
    )] = None,
    bots: Annotated[str | None, typer.Option(
        "--bots", metavar="NAME,...",
        help="Computer players: one name for all, or one per computer seat in seat order.",
    )] = None,
    save: Annotated[Path | None, typer.Option(
        "--save", metavar="FILE",
        help="Where to save the game record (default: parlour-GAME-DATE-TIME.json here).",
    )] = None,
    hints: Annotated[bool, typer.Option(
        "--hints", help="Show the suggested move and each move's value.")] = False,
    connect: Annotated[str | None, typer.Option(
        "--connect", metavar="URL", help="Take a seat at a server table instead.")] = None,
) -> None:
    """Play against computer players in the terminal.

    At your turn type the move number, a card (7d, T♥), in Fanti a card and what it takes (5c 6h, 5c take 6h), or p to pass; q (or end of input) saves and quits, and so does Ctrl-C (exit status 130).
    """
    if connect is not None:
        given = {"--players": players, "--seed": seed, "--rule": rule, "--bots": bots,
                 "--save": save}
        if clash := [k for k, v in given.items() if v] + (["--seat"] if seat else []):
            fail(f"--connect takes its game from the server: drop {', '.join(clash)}")
        raise typer.Exit(_play_remote(connect, hints))
    with usage_errors():
        g = resolve_game(game)
        n = resolve_players(g, players)
        rules = resolve_rules(g, n, rule)
        if not 0 <= seat < n:
            raise UsageError(f"--seat must be from 0 to {n - 1}, not {seat}")
        names = resolve_bots(g, bots, n - 1, default_bot(g))
        path = save or default_save_path(g.name)
        if not path.parent.is_dir():
            raise UsageError(f"cannot save to {path}: no directory {path.parent}")
    bot_of: list[str | None] = list(names)
    bot_of.insert(seat, None)
    seats = ["You" if s == seat else f"Bot {s}" for s in range(n)]
    # C-3: a seed makes the whole game reproducible; without one, deal from `secrets`
    shuffler = Shuffler(seed) if seed is not None else Shuffler.live()
    base = seed if seed is not None else secrets.randbits(63)
    agents = [None if b is None else make_bot(b, g.name, derive_seed(base, "bot", s))
              for s, b in enumerate(bot_of)]
    meta = {"generator": "parlour play", "human_seat": seat, "bots": bot_of, "seed": seed}
    match = Match.new(g, n, rules, seats=seats, shuffler=shuffler, meta=meta)
    out = stdout()
    out.print(f"[bold]{g.title}[/], {n} players, rules: {rules_text(rules)}", soft_wrap=True)
    out.print(describe_seats(seats, seat, bot_of))
    out.print(help_line(g.name), style="dim", soft_wrap=True)
    session = PlaySession(match, seat, agents, shuffler, out, out.input,
                          _load_hints() if hints else None, derive_seed(base, "hints"))
    code = 0
    try:
        session.run()
    except KeyboardInterrupt:
        code = INTERRUPTED
    except (EOFError, QuitGame):
        code = 0
    try:
        _save(path, match)
    except OSError as e:
        fail(f"could not save the record to {path}: {e}", 1)
    if match.is_over:
        out.print(f"Record saved to {path}", soft_wrap=True)
    else:
        why = "Interrupted" if code == INTERRUPTED else "Stopped"
        out.print(f"\n{why}: saved the unfinished game ({_progress(match)}) to {path}",
                  soft_wrap=True)
    raise typer.Exit(code)
