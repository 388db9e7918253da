"""What the benchmark scripts share for their arguments: a bad one is one usage line.

Each script checks its arguments before any work, so a bad value ends in argparse's
``usage: ...`` and ``error: ...`` (exit status 2), never in a traceback minutes later.
``positive``, ``nonnegative`` and ``deal_range`` are ``type=`` functions;
:func:`checked` runs one of the library's own checks (a game's player count, a bot
name) and turns its ``ValueError`` into that line, with the library's words.

The scripts import it as a sibling (``import bench_args``: a script's folder is the
first entry of ``sys.path``). Standard library only, so that a script run by another
interpreter (``pgx_speed.py``) can import it too.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Iterable
from typing import Any


def _whole(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a whole number, not {text!r}") from None


def positive(text: str) -> int:
    """A count of 1 or more (games, deals, rounds, iterations ...)."""
    n = _whole(text)
    if n < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {n}")
    return n


def nonnegative(text: str) -> int:
    """A count or index of 0 or more."""
    n = _whole(text)
    if n < 0:
        raise argparse.ArgumentTypeError(f"must be 0 or more, not {n}")
    return n


def positives(text: str) -> list[int]:
    """Comma-separated counts of 1 or more (``64,1024,16384``)."""
    try:
        return [positive(x) for x in text.split(",")]
    except argparse.ArgumentTypeError:
        raise argparse.ArgumentTypeError(
            f"must be whole numbers of 1 or more, comma separated, not {text!r}") from None


def deal_range(text: str) -> tuple[int, int]:
    """``FIRST:END``, the deals ``FIRST`` to ``END - 1`` (``0 <= FIRST < END``)."""
    first, sep, end = text.partition(":")
    try:
        if not sep:
            raise ValueError
        lo, hi = int(first), int(end)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"must be FIRST:END, two whole numbers (END exclusive), e.g. 0:200, "
            f"not {text!r}") from None
    if not 0 <= lo < hi:
        raise argparse.ArgumentTypeError(
            f"must be FIRST:END with 0 <= FIRST < END (at least one deal), not {text!r}")
    return lo, hi


def checked(ap: argparse.ArgumentParser, fn: Callable[..., Any], *args: Any) -> Any:
    """``fn(*args)``, or its ``ValueError`` as ``ap.error`` (the message as it is)."""
    try:
        return fn(*args)
    except ValueError as e:
        ap.error(str(e))


def check_players(ap: argparse.ArgumentParser, game: str, players: int,
                  option: str = "") -> None:
    """``players`` is a table size of ``game`` (a known game), by the game's own check;
    ``option`` names the argument in the error when it is not ``--players``."""
    from parlour.games import get_game

    try:
        get_game(game).check_players(players)
    except ValueError as e:
        ap.error(f"argument {option}: {e}" if option else str(e))


def check_bots(ap: argparse.ArgumentParser, game: str, names: Iterable[str],
               option: str = "") -> None:
    """Every name is a bot the registry makes for ``game`` (``parlour.bots.make_bot``);
    ``option`` (``--bots``) names the argument in the error."""
    from parlour.bots import make_bot

    for name in dict.fromkeys(names):
        try:
            make_bot(name, game, 0)
        except ValueError as e:
            ap.error(f"argument {option}: {e}" if option else str(e))
