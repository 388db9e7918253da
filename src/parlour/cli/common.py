"""What the commands share: one-line errors, and checking a game, its players, rules and bots.

Every check turns a bad value into :class:`UsageError`, which a command prints as one
line on standard error before exiting with status 2 (bad usage), instead of a traceback.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any, NoReturn

import typer
from rich.console import Console
from rich.markup import escape

from parlour.bots import bot_names, make_bot
from parlour.game import Game
from parlour.games import GAMES, get_game
from parlour.options import OptionError


def game_argument(verb: str, required: bool = True) -> Any:
    """The ``GAME`` argument every game command takes (one of the registered games)."""
    return typer.Argument(metavar="GAME" if required else "[GAME]",
                          help=f"The game to {verb}: {' or '.join(GAMES)}.",
                          autocompletion=complete_game, show_default=False)


def players_help(lead: str, ranges: bool = False) -> str:
    """A ``--players`` help text that says each game's default table size (and, with
    ``ranges``, its player range), from the games themselves (``Game.usual_players``).

    >>> players_help("Seats at the table")[:48]
    'Seats at the table (default: 4 for Fan Tan, 2 fo'
    >>> "Fanti 2-4, default 2" in players_help("Players, you included", ranges=True)
    True
    """
    games = sorted(GAMES.values(), key=lambda g: g.title)
    if ranges:
        said = "; ".join(f"{g.title} {g.min_players}-{g.max_players}, default {g.usual_players}"
                         for g in games)
        return f"{lead} ({said})."
    return f"{lead} (default: {', '.join(f'{g.usual_players} for {g.title}' for g in games)})."


# --- shell completion (``parlour --install-completion``) ---------------------------


def complete_game(incomplete: str) -> list[str]:
    return [g for g in GAMES if g.startswith(incomplete.lower())]


def _game_of(ctx: typer.Context) -> Game | None:
    name = ctx.params.get("game")
    try:
        return get_game(name) if name else None
    except ValueError:
        return None


def complete_bots(ctx: typer.Context, incomplete: str) -> list[str]:
    """Bot names for ``--bots`` (the last of a comma-separated list)."""
    game = _game_of(ctx)
    done, _, last = incomplete.rpartition(",")
    prefix = done + "," if done else ""
    names = bot_names(game.name if game else None)
    return [prefix + n for n in names if n.startswith(last.lower())]


def complete_rule(ctx: typer.Context, incomplete: str) -> list[str]:
    """``KEY=VALUE`` for ``--rule``: the game's option keys, then their values."""
    game = _game_of(ctx)
    games = [game] if game else list(GAMES.values())
    out: list[str] = []
    for g in games:
        for option in g.options:
            if option.choices:
                values = [str(v).lower() if isinstance(v, bool) else str(v)
                          for v in option.choices]
                out += [f"{option.name}={v}" for v in values]
            else:
                out.append(f"{option.name}=")
    return [c for c in dict.fromkeys(out) if c.startswith(incomplete)]


class UsageError(ValueError):
    """A bad command-line value; the message is the whole explanation."""


def stdout() -> Console:
    """A Rich console on standard output (made per call, so test runners can redirect it)."""
    return Console(highlight=False, soft_wrap=False)


def stderr() -> Console:
    return Console(stderr=True, highlight=False, soft_wrap=True)


def fail(message: str, code: int = 2) -> NoReturn:
    """Print ``error: message`` on one line of standard error and exit with ``code``."""
    # the message is plain text: a file name or option value with [brackets] is shown as is
    stderr().print(f"[bold red]error:[/] {escape(message)}", markup=True)
    raise typer.Exit(code)


@contextlib.contextmanager
def usage_errors(code: int = 2) -> Iterator[None]:
    """Turn :class:`UsageError`, option and value errors raised inside into one-line exits."""
    try:
        yield
    except (UsageError, OptionError) as e:
        fail(str(e), code)


def at_least_one(flag: str, value: int) -> None:
    """A count option (``--games``, ``--workers``, ``--batch``) is 1 or more.

    >>> at_least_one("--games", 0)
    Traceback (most recent call last):
    ...
    parlour.cli.common.UsageError: --games must be at least 1, not 0
    """
    if value < 1:
        raise UsageError(f"{flag} must be at least 1, not {value}")


def resolve_game(name: str) -> Game:
    try:
        return get_game(name)
    except ValueError as e:
        raise UsageError(str(e)) from None


def resolve_players(game: Game, players: int | None) -> int:
    if players is None:
        players = game.usual_players
    n = players
    try:
        game.check_players(n)
    except ValueError as e:
        raise UsageError(str(e)) from None
    return n


def resolve_rules(game: Game, players: int, pairs: list[str] | None) -> dict[str, Any]:
    """Every rule option: the defaults for ``players`` overlaid with ``--rule KEY=VALUE`` pairs."""
    try:
        given = game.options.parse_pairs(pairs)
        return game.rules(players, given)
    except ValueError as e:  # OptionError is a ValueError
        raise UsageError(str(e)) from None


def default_bot(game: Game, prefer: tuple[str, ...] = ("medium", "greedy")) -> str:
    """The first of ``prefer`` that the bot registry has for ``game`` (else its first bot)."""
    names = bot_names(game.name)
    for name in prefer:
        if name in names:
            return name
    return names[0]


def check_bot(game: Game, name: str) -> None:
    """``name`` is a bot the registry makes for ``game`` (any name ``make_bot`` takes,
    such as ``hard:400`` or ``ismcts:2000``); else UsageError listing the names."""
    from parlour.bots.registry import entrant

    if name in bot_names(game.name):
        return
    try:
        make_bot(name, game.name, 0)
    except ValueError as e:
        if entrant(name, game.name):
            raise UsageError(str(e)) from None
        known = ", ".join(bot_names(game.name))
        raise UsageError(f"unknown bot {name!r} for {game.name}; choose from: {known}; or a "
                         f"search bot with a budget, e.g. hard:400 or ismcts:2000") from None


def resolve_bots(game: Game, spec: str | None, seats: int, default: str,
                 table: int | None = None) -> list[str]:
    """Bot names for ``seats`` seats from ``--bots``: one name for all, or one per seat;
    each checked against a table of ``table`` players (default ``seats``)."""
    from parlour.bots.registry import check_lineup, entrant

    names = [s.strip() for s in spec.split(",")] if spec else [default]
    names = [n if entrant(n, game.name) else n.lower() for n in names]
    if any(not n for n in names):
        raise UsageError(f"--bots {spec!r} has an empty name")
    for n in dict.fromkeys(names):
        check_bot(game, n)
    try:
        check_lineup(names, game.name, table or seats)
    except ValueError as e:
        raise UsageError(str(e)) from None
    if len(names) == 1:
        return names * seats
    if len(names) != seats:
        choice = ("(there is one computer seat)" if seats == 1
                  else f"or {seats} names (one per computer seat)")
        raise UsageError(f"--bots needs one name {choice}, not {len(names)}")
    return names


def reason(e: BaseException) -> str:
    """An error in a few words: an OS error's own text ("No such file or directory",
    "Connection refused") without its errno, else the exception's message."""
    return getattr(e, "strerror", None) or str(e) or type(e).__name__


RAY_ANSWER_SECONDS = 3.0
"""How long ``--ray-address`` may take to accept a connection before it is refused."""


def check_backend(backend: str, ray_address: str | None) -> None:
    """``--backend`` is ``local`` or ``ray``, and a Ray cluster named by ``--ray-address``
    (``HOST:PORT`` or ``ray://HOST:PORT``) answers, so a wrong address is one line now
    instead of Ray retrying it for minutes behind a progress bar that never moves."""
    import socket

    if backend not in ("local", "ray"):
        raise UsageError(f"--backend must be local or ray, not {backend!r}")
    if backend != "ray" or not ray_address or ray_address in ("auto", "local"):
        return
    host, sep, port = ray_address.removeprefix("ray://").rpartition(":")
    if not sep or not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise UsageError(f"--ray-address must be HOST:PORT (or ray://HOST:PORT, auto), "
                         f"not {ray_address!r}")
    try:
        with socket.create_connection((host.strip("[]"), int(port)), RAY_ANSWER_SECONDS):
            pass
    except OSError as e:
        raise UsageError(f"no Ray cluster answers at {ray_address}: {reason(e)}") from None


def lang_option() -> Any:
    """``--lang CODE``: the language of the game's words (docs/cli.md)."""
    return typer.Option(
        "--lang", metavar="CODE",
        help="The language of the game's words: en, fa, az, zh or es (default: from "
             "LC_ALL or LANG, else English).")


def card_names_option() -> Any:
    """``--card-names game|classic``."""
    return typer.Option(
        "--card-names", metavar="game|classic",
        help="game: the game's own card names (Guardian, Leaf, Star; the default); "
             "classic: Jack, Queen, King, clubs, diamonds.")


def speak(lang: str | None, card_names: str) -> None:
    """The language (``--lang``, else ``LC_ALL``/``LANG``) and card names of the game's
    words from here on; a bad choice is a usage error naming the choices."""
    from parlour import speech

    try:
        speech.use(speech.check_lang(lang) if lang else speech.lang_from_env(), card_names)
    except ValueError as e:
        raise UsageError(f"--lang/--card-names: {e}") from None
