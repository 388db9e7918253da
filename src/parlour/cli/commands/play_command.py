"""``parlour play``: you against computer players, in the terminal (or at a server table)."""

from __future__ import annotations

import os
import secrets
import sys
import time
from pathlib import Path
from typing import Annotated, Any, NamedTuple

import typer
from rich.text import Text

from parlour import record
from parlour.bots import make_bot
from parlour.cli.app import app
from parlour.cli.autosave import AutoSaver, fallback_path, write_atomic
from parlour.cli.common import (
    UsageError,
    card_names_option,
    check_bot,
    complete_bots,
    default_bot,
    fail,
    game_argument,
    lang_option,
    players_help,
    resolve_bots,
    resolve_game,
    resolve_players,
    resolve_rules,
    speak,
    stderr,
    stdout,
    usage_errors,
)
from parlour.cli.move_input import help_line
from parlour.cli.options import RoundsRuleOption
from parlour.cli.paths import check_input, check_output_file
from parlour.cli.play_session import PlaySession, QuitGame, describe_seats
from parlour.games import GAMES
from parlour.match import Match, Shuffler
from parlour.simulate import derive_seed
from parlour.speech import tell

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
        from parlour.bots.hints import rich_hints as hints
    except ImportError:
        stderr().print("[yellow]note:[/] --hints is not available in this build yet "
                       "(parlour.bots.hints is missing); playing without hints.")
        return None
    return hints


def _play_remote(url: str, hints: bool, pace: float | None, cacert: Path | None) -> int:
    try:
        from parlour.netclient import play_remote
    except ImportError:
        fail("--connect is not available in this build yet (parlour.netclient is missing)", 1)
    if cacert is not None:
        from parlour.netclient import tls_context

        with usage_errors():
            try:
                tls_context(cacert)  # a bad --cacert is a usage error, before any connection
            except ValueError as e:
                raise UsageError(str(e)) from None
    code = play_remote(url, hints=hints, cacert=cacert) if pace is None else play_remote(
        url, hints=hints, pace=pace, cacert=cacert)
    if code == INTERRUPTED:
        # Ctrl-C left the line reader waiting in input(), holding stdin's lock: a normal
        # interpreter exit would abort on it, so leave at once (everything is said).
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(INTERRUPTED)
    return code


def rules_text(rules: dict[str, Any]) -> str:
    """``rounds=2, strict=true``: rules as they are typed with ``--rule``."""
    return ", ".join(f"{k}={str(v).lower() if isinstance(v, bool) else v}"
                     for k, v in rules.items())


def _resume(path: Path) -> tuple[Match, int, list[str | None], int]:
    """The unfinished game saved in ``path`` by ``parlour play``: the match, the person's
    seat, the bot of every seat (None for the person) and the seed base of the bots."""
    check_input(path)
    try:
        entries = list(record.read_entries(path))
    except UnicodeDecodeError:
        raise UsageError(f"{path} is not a record file: it is not UTF-8 text") from None
    if len(entries) != 1:
        raise UsageError(f"{path} holds {len(entries)} records: --resume takes the file "
                         f"of one saved game")
    match = record.check_entry(entries[0])
    if match is None:
        raise UsageError(f"{path} is not a valid record: {entries[0].error}")
    meta = match.meta or {}
    seat, bots = meta.get("human_seat"), meta.get("bots")
    if (meta.get("generator") != "parlour play" or not isinstance(seat, int)
            or not isinstance(bots, list) or len(bots) != match.players
            or not 0 <= seat < match.players):
        raise UsageError(f"{path} was not saved by parlour play: only its games can be resumed")
    if match.is_over:
        raise UsageError(f"the game in {path} is already over: replay it with "
                         f"'parlour replay {path}'")
    for s, name in enumerate(bots):
        if s != seat:
            check_bot(match.game, str(name))
    base = meta.get("bot_seed", meta.get("seed"))
    if not isinstance(base, int):
        raise UsageError(f"{path} does not say how its bots were seeded: it cannot be resumed")
    return match, seat, bots, base


def _catch_up(match: Match, agents: list[Any]) -> None:
    """Let every bot see again the turns it already played, so its random stream is
    where it was when the game stopped (its later choices are the ones it would have
    made)."""
    for src in match.rounds:
        r = match.game.new_round(match.rules, match.players, src.dealer, src.deck)
        for seat, move in src.history:
            if agents[seat] is not None:
                agents[seat].choose(r.view(seat))
            r.apply(move)


def _shuffler_after(match: Match, seed: int | None) -> Shuffler:
    """The shuffler of a seeded game advanced past its dealer draw and the rounds dealt
    so far (C-3: the next round gets the deck it would have had); live games deal live."""
    if seed is None:
        return Shuffler.live()
    shuffler = Shuffler(seed)
    shuffler.seat(match.players)
    for _ in match.rounds:
        shuffler.deck()
    return shuffler


def _dump(match: Match) -> str:
    return record.dumps(match) + "\n"


def _final_save(path: Path, match: Match) -> Path:
    """Save the record at the end, to ``path`` or, when its folder takes no file (even
    re-created), beside it in the current or temporary folder; where it went."""
    try:
        write_atomic(path, _dump(match))
        return path
    except OSError as e:
        other = fallback_path(path)
        try:
            write_atomic(other, _dump(match))
        except OSError:
            fail(f"could not save the record to {path} nor {other}: {e.strerror or e}", 1)
        stderr().print(f"[yellow]note:[/] could not save to {path} ({e.strerror or e}); "
                       f"saved to {other} instead", soft_wrap=True)
        return other


def _progress(match: Match) -> str:
    r = match.rounds[-1] if match.rounds else None
    if r is None:
        return tell("play.no_moves")
    return tell("play.progress", count=len(r.history), number=len(match.rounds),
                rounds=match.rules["rounds"])


@app.command("play")
def play_command(
    game: Annotated[str | None, game_argument("play", required=False)] = None,
    players: Annotated[int | None, typer.Option(
        "--players", "-n",
        help=players_help("Players at the table, you included", ranges=True),
    )] = None,
    seat: Annotated[int | None, typer.Option(
        "--seat", help="Your seat, 0 to players-1 (seats go clockwise; default 0).")] = None,
    seed: Annotated[int | None, typer.Option(
        "--seed", "-s", help="Deal from this seed (reproducible); default: a secure live shuffle.",
    )] = None,
    rule: RoundsRuleOption = None,
    bots: Annotated[str | None, typer.Option(
        "--bots", "-b", metavar="NAME,...", autocompletion=complete_bots,
        help="Computer players: one name for all, or one per computer seat in seat order.",
    )] = None,
    save: Annotated[Path | None, typer.Option(
        "--save", metavar="FILE",
        help="Where to save the game record (default: parlour-GAME-DATE-TIME.json here; "
             "with --resume, the resumed file).",
    )] = None,
    resume: Annotated[Path | None, typer.Option(
        "--resume", metavar="FILE",
        help="Continue an unfinished game saved by parlour play, where it stopped.",
    )] = None,
    pace: Annotated[float | None, typer.Option(
        "--pace", metavar="SECONDS", min=0,
        help="Pause after each computer move and automatic pass (default: 0.6 in a terminal, "
             "0 otherwise).",
    )] = None,
    hints: Annotated[bool, typer.Option(
        "--hints", help="Show the suggested move and each move's value.")] = False,
    connect: Annotated[str | None, typer.Option(
        "--connect", metavar="URL", help="Take a seat at a server table instead.")] = None,
    cacert: Annotated[Path | None, typer.Option(
        "--cacert", metavar="FILE",
        help="With --connect: trust the CA certificate(s) in FILE (PEM) for an https "
             "server, e.g. a private CA.")] = None,
    lang: Annotated[str | None, lang_option()] = None,
    card_names: Annotated[str, card_names_option()] = "game",
) -> None:
    """Play against computer players in the terminal.

    At your turn type the move number, a card (7d, T♥), in Fanti a card and what it takes (5c 6h, 5c take 6h), or p to pass; q (or end of input) saves and quits, and so does Ctrl-C (exit status 130). --resume FILE continues a saved game.
    """
    with usage_errors():
        speak(lang, card_names)
    if connect is not None:  # a seat at a server table
        given = {"--players": players, "--seed": seed, "--rule": rule, "--bots": bots,
                 "--save": save, "--resume": resume, "--seat": seat}
        if clash := [k for k, v in given.items() if v is not None and v != []]:
            fail(f"--connect takes its game from the server: drop {', '.join(clash)}")
        raise typer.Exit(_play_remote(connect, hints, pace, cacert))
    if cacert is not None:
        fail("--cacert goes with --connect (it says whom to trust for a server table)")
    with usage_errors():
        if resume is not None:  # a saved game, where it stopped
            given = {"--players": players, "--seed": seed, "--rule": rule, "--bots": bots,
                     "--seat": seat}
            if clash := [k for k, v in given.items() if v is not None and v != []]:
                raise UsageError(f"--resume continues the saved game as it was: drop "
                                 f"{', '.join(clash)}")
            start = _resumed_game(resume, game, save)
        else:  # a new game
            start = _new_game(game, players, seat, seed, rule, bots, save)
    raise typer.Exit(_play_local(start, resume, pace, hints))


class _Start(NamedTuple):
    """A local game ready to play: the match, the person's seat, each seat's bot (None
    for the person), the bots' seed base, where it is saved, and the deck source."""

    match: Match
    seat: int
    bot_of: list[str | None]
    base: int
    path: Path
    shuffler: Shuffler


def _resumed_game(resume: Path, game: str | None, save: Path | None) -> _Start:
    match, seat, bot_of, base = _resume(resume)
    g = match.game
    if game is not None and resolve_game(game) is not g:
        raise UsageError(f"{resume} holds a game of {g.title}, not {game}")
    path = save or resume
    check_output_file(path, overwrite=path.resolve() == resume.resolve())
    seed = (match.meta or {}).get("seed")
    return _Start(match, seat, bot_of, base, path, _shuffler_after(match, seed))


def _new_game(game: str | None, players: int | None, seat: int | None, seed: int | None,
              rule: list[str] | None, bots: str | None, save: Path | None) -> _Start:
    if game is None:
        raise UsageError("give the GAME to play (" + " or ".join(GAMES)
                         + "), or --resume FILE, or --connect URL")
    g = resolve_game(game)
    n = resolve_players(g, players)
    rules = resolve_rules(g, n, rule)
    seat = seat or 0
    if not 0 <= seat < n:
        raise UsageError(f"--seat must be from 0 to {n - 1}, not {seat}")
    names = resolve_bots(g, bots, n - 1, default_bot(g), n)
    path = save or default_save_path(g.name)
    check_output_file(path, overwrite=False)
    bot_of: list[str | None] = list(names)
    bot_of.insert(seat, None)
    # C-3: a seed makes the whole game reproducible; without one, deal from `secrets`
    shuffler = Shuffler(seed) if seed is not None else Shuffler.live()
    base = seed if seed is not None else secrets.randbits(63)
    seats = [tell("seat.you") if s == seat else tell("seat.bot", number=s)
             for s in range(n)]
    meta = {"generator": "parlour play", "human_seat": seat, "bots": bot_of,
            "seed": seed, "bot_seed": base}
    match = Match.new(g, n, rules, seats=seats, shuffler=shuffler, meta=meta)
    return _Start(match, seat, bot_of, base, path, shuffler)


def _play_local(start: _Start, resume: Path | None, pace: float | None, hints: bool) -> int:
    """Play the game in this terminal, saving as it goes; the exit status."""
    out = stdout()
    match, seat, bot_of, base, path, shuffler = start
    g = match.game
    n = match.players
    agents = [None if b is None else make_bot(b, g.name, derive_seed(base, "bot", s))
              for s, b in enumerate(bot_of)]
    out.print(Text(tell("play.heading", title=g.title, players=n,
                        rules=rules_text(match.rules))), soft_wrap=True)
    out.print(describe_seats(match.seats, seat, bot_of))
    out.print(help_line(g.name), style="dim", soft_wrap=True)
    if resume is not None:
        with out.status(tell("play.catching_up")):
            _catch_up(match, agents)
        out.print(tell("play.resuming", path=str(resume), progress=_progress(match)),
                  soft_wrap=True)
    if pace is None:
        pace = 0.6 if out.is_terminal else 0.0
    # saved now and after every deal and move, so a closed terminal loses nothing
    autosave = AutoSaver(path, lambda: _dump(match),
                         lambda msg: stderr().print(f"[yellow]note:[/] {msg}", soft_wrap=True))
    autosave()
    session = PlaySession(match, seat, agents, shuffler, out, out.input,
                          _load_hints() if hints else None, derive_seed(base, "hints"),
                          pace=pace, on_change=autosave)
    code = 0
    try:
        session.run()
    except KeyboardInterrupt:
        code = INTERRUPTED
    except (EOFError, QuitGame):
        code = 0
    path = _final_save(path, match)
    if match.is_over:
        out.print(tell("play.saved", path=str(path)), soft_wrap=True)
    else:
        why = "interrupted" if code == INTERRUPTED else "stopped"
        out.print("\n" + tell(f"play.{why}", progress=_progress(match), path=str(path)),
                  soft_wrap=True)
    return code
