"""The rating model: OpenSkill's Plackett-Luce, one rating per game and table size.

Pure functions, no database (:mod:`parlour.server.rated` stores what they compute):

* **Pools.** A game's ``rating_sizes`` (``Game.rating_sizes``) split it into size
  groups rated apart, because the player count changes the game: Fanti head to head
  (2) against three or four players, Fan Tan with 3-4 players against 5-8. A pool is
  named ``GAME:LO-HI`` (``fanti:2``, ``fantan:5-8``); a game without sizes has one pool
  named after it.
* **Places.** A finished game becomes places from its final totals (ties shared): the
  game's winners (``game_winners``, FT-9 included) first, the others by total, and
  every seat the computer was still standing in for at the end (it left, or timed out
  and never came back) last, whatever its score: leaving a rated game loses it.
* **Numbers.** Each player holds ``(mu, sigma)``, the model's skill estimate and its
  uncertainty (25 and 25/3 at first). People see one number, :func:`shown`:
  ``1500 + 40 * (mu - 25)`` rounded, marked provisional while ``sigma`` is above the
  ``rating_provisional_sigma`` setting.

The update is deterministic (the same places in the same order give the same floats),
which is what lets ``parlour ratings rebuild`` find exactly the stored numbers.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

from openskill.models import PlackettLuce

from parlour.games import get_game

MU = 25.0
SIGMA = 25.0 / 3.0
BASE = 1500
"""The rating shown for a newcomer (``mu`` = 25)."""
SCALE = 40
"""Rating points per unit of ``mu``: a first win head to head is worth about +100."""


@cache
def model() -> PlackettLuce:
    """OpenSkill's Plackett-Luce model with its published defaults (mu 25, sigma 25/3,
    beta 25/6, tau 25/300): one instance, no state between calls."""
    return PlackettLuce(mu=MU, sigma=SIGMA)


def sizes(game: str) -> tuple[tuple[int, int], ...]:
    """The size groups of a game, each ``(fewest, most)`` players."""
    g = get_game(game)
    return tuple(g.rating_sizes) or ((g.min_players, g.max_players),)


def pool_of(game: str, players: int) -> str:
    """The pool a table of ``players`` rates into (``ValueError`` outside the game)."""
    g = get_game(game)
    if not g.rating_sizes:
        return g.name
    for lo, hi in g.rating_sizes:
        if lo <= players <= hi:
            return f"{g.name}:{lo}" if lo == hi else f"{g.name}:{lo}-{hi}"
    raise ValueError(f"{g.title} has no rating for {players} players")


def pools(game: str) -> list[str]:
    """Every pool of a game, smallest tables first."""
    return [pool_of(game, lo) for lo, _ in sizes(game)]


def game_of(pool: str) -> str:
    return pool.split(":", 1)[0]


def label(pool: str) -> str:
    """A pool in words: ``Fanti, 2 players``, ``Fan Tan, 5 to 8 players``."""
    g = get_game(game_of(pool))
    if ":" not in pool:
        return g.title
    span = pool.split(":", 1)[1]
    lo, _, hi = span.partition("-")
    if not hi:
        return f"{g.title}, {lo} players"
    return f"{g.title}, {lo} {'or' if int(hi) == int(lo) + 1 else 'to'} {hi} players"


def places(lower_wins: bool, totals: Sequence[int], winners: Sequence[int],
           gone: Sequence[bool]) -> list[int]:
    """Each seat's place, 1 best, ties shared (two firsts, then a third): the winners,
    then the others by total, then the seats that left (``gone``)."""
    def key(s: int) -> tuple[int, int]:
        if gone[s]:
            return (2, 0)
        return (0 if s in winners else 1, totals[s] if lower_wins else -totals[s])

    keys = [key(s) for s in range(len(totals))]
    return [1 + sum(1 for k in keys if k < mine) for mine in keys]


def update(before: Sequence[tuple[float, float]], placed: Sequence[int]
           ) -> list[tuple[float, float]]:
    """The players' ``(mu, sigma)`` after a game they finished in these places."""
    m = model()
    teams = [[m.rating(mu=mu, sigma=sigma)] for mu, sigma in before]
    after = m.rate(teams, ranks=[float(p) for p in placed])
    return [(t[0].mu, t[0].sigma) for t in after]


def shown(mu: float) -> int:
    """The rating people see for a skill estimate ``mu``."""
    return round(BASE + SCALE * (mu - MU))


def provisional(sigma: float, limit: float) -> bool:
    """Whether a rating is still provisional (its uncertainty above ``limit``)."""
    return sigma > limit
