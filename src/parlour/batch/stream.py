"""The random stream both engines follow: splitmix64, counter-based (no state to carry).

"The same choices" is defined here once, in plain Python, and mirrored bit for bit by
the numba kernels (:mod:`parlour.batch.kernels`). Everything is a function of
``(seed, game index, round index, counter)``, so a game's result never depends on the
batch it ran in, and any single game can be replayed alone by the step engine.

All arithmetic is modulo 2**64:

* ``mix64(z)``: the splitmix64 finaliser (Steele, Lea and Flood 2014; the output
  function of Java's ``SplittableRandom``)::

      z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9
      z = (z ^ (z >> 27)) * 0x94D049BB133111EB
      return z ^ (z >> 31)

* ``draw(key, i) = mix64(key + (i + 1) * GAMMA)`` with ``GAMMA = 0x9E3779B97F4A7C15``:
  output ``i`` of a splitmix64 generator whose state starts at ``key``.
* ``game_key(seed, g) = mix64((mix64(seed + GAMMA) ^ g) + GAMMA)``;
  ``round_key(seed, g, r) = mix64((game_key(seed, g) ^ (r + 1)) + GAMMA)``.
* ``bounded(x, n) = ((x >> 32) * n) >> 32``: exactly ``floor(u * n)`` for the uniform
  number ``u = (x >> 32) / 2**32`` in [0, 1), computed in integers so that Python and
  numba cannot round differently.

What each draw is for:

* first dealer of game ``g``: ``bounded(draw(game_key, 0), players)``;
* deck of round ``r``: a forward Fisher-Yates shuffle of ``[0, 1, .., 51]``: for
  ``i = 0 .. 50``, swap positions ``i`` and ``i + bounded(draw(round_key, i), 52 - i)``;
* move ``m`` of round ``r`` (counting from 0, passes included): the legal move number
  ``bounded(draw(round_key, MOVE_BASE + m), n_legal)`` in the engine's legal-move order
  (Fan Tan: cards ascending, then PASS; Fanti: card ascending, then take mask ascending).
  When there is one legal move the draw is skipped: ``bounded(x, 1)`` is 0 for every x.
"""

from __future__ import annotations

from collections.abc import Sequence

M64 = (1 << 64) - 1
GAMMA = 0x9E3779B97F4A7C15
MIX1 = 0xBF58476D1CE4E5B9
MIX2 = 0x94D049BB133111EB
MOVE_BASE = 64
"""Counter of a round's first move draw; 0..50 are the shuffle's."""


def mix64(z: int) -> int:
    """The splitmix64 output function."""
    z &= M64
    z = ((z ^ (z >> 30)) * MIX1) & M64
    z = ((z ^ (z >> 27)) * MIX2) & M64
    return z ^ (z >> 31)


def draw(key: int, i: int) -> int:
    """Output ``i`` (from 0) of splitmix64 started at ``key``."""
    return mix64(key + (i + 1) * GAMMA)


def bounded(x: int, n: int) -> int:
    """``floor(u * n)`` for ``u = (x >> 32) / 2**32``: a number in ``0 .. n-1``."""
    return ((x >> 32) * n) >> 32


def game_key(seed: int, game: int) -> int:
    """The key of game ``game`` (0, 1, ..) of a run seeded with ``seed`` (any int)."""
    return mix64((mix64(seed + GAMMA) ^ game) + GAMMA)


def round_key(seed: int, game: int, rnd: int) -> int:
    """The key of round ``rnd`` (from 0) of that game."""
    return mix64((game_key(seed, game) ^ (rnd + 1)) + GAMMA)


def first_dealer(seed: int, game: int, players: int) -> int:
    """The first dealer of game ``game``."""
    return bounded(draw(game_key(seed, game), 0), players)


def deck(seed: int, game: int, rnd: int) -> list[int]:
    """The deck order of a round: forward Fisher-Yates over ``draw(round_key, 0..50)``."""
    key = round_key(seed, game, rnd)
    d = list(range(52))
    for i in range(51):
        j = i + bounded(draw(key, i), 52 - i)
        d[i], d[j] = d[j], d[i]
    return d


def choice(seed: int, game: int, rnd: int, move_index: int, n_legal: int) -> int:
    """Which legal move (by position) the stream picks for move ``move_index``."""
    if n_legal == 1:
        return 0
    return bounded(draw(round_key(seed, game, rnd), MOVE_BASE + move_index), n_legal)


def pick(key: int, move_index: int, legal: Sequence[int]) -> int:
    """The move the stream picks from ``legal`` (in engine order), given the round key."""
    n = len(legal)
    if n == 1:
        return legal[0]
    return legal[bounded(draw(key, MOVE_BASE + move_index), n)]
