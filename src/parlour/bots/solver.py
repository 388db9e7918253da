"""Exact search of a small perfect-information world: max^n with a transposition table.

Late in a round a determinized world is small enough to play out every line: each
player picks the move that maximises their own share of the round's win, ties going
to the earliest move in the order given (the heuristic's choice first). The value is
the vector of win shares. Used by :mod:`.pimc` when the game's model says the world
is *late* (see :mod:`.models`).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable

from parlour.bots.determinize import Policy
from parlour.game import Move, Round

Value = tuple[tuple[float, float], ...]
"""Per seat: ``(reward, win share)``; players maximise the reward."""


class TooBig(Exception):
    """The world has more states than the solver's node budget."""


def solve(r: Round, rewards: Callable[[Round], list[tuple[float, float]]],
          key: Callable[[Round], Hashable], first: Policy | None = None,
          memo: dict | None = None, budget: int = 20000,
          horizon: Callable[[Round], list[tuple[float, float]] | None] | None = None,
          moves: Callable[[Round], list[Move]] | None = None,
          me: int | None = None, opponents: Policy | None = None) -> Value:
    """The max^n value of ``r`` (it is not changed). Raises :class:`TooBig` past
    ``budget`` distinct states.

    With ``opponents`` (and ``me``), every seat but ``me`` plays that policy instead
    of searching: the value is then ``me``'s best response to the opponent model,
    and only ``me``'s turns branch.
    ``moves`` lists the moves to consider in a state (default: every legal move).
    ``horizon``, when given, may cut the search short: for a state it returns a
    value vector to use as a leaf (e.g. an evaluation at the end of a Fanti deal), or
    None to search on.
    """
    table: dict = {} if memo is None else memo

    def value(s: Round) -> Value:
        if s.is_over:
            return tuple(rewards(s))
        if horizon is not None:
            leaf = horizon(s)
            if leaf is not None:
                return tuple(leaf)
        k = key(s)
        hit = table.get(k)
        if hit is not None:
            return hit
        if len(table) >= budget:
            raise TooBig
        mover = s.current_player
        if opponents is not None and mover != me:
            child = s.copy()
            child.advance(opponents(child, None))
            v = value(child)
            table[k] = v
            return v
        options = s.legal_moves() if moves is None else moves(s)
        if first is not None and len(options) > 1:
            f = first(s, None)
            options = [f] + [m for m in options if m != f]
        best: Value | None = None
        for m in options:
            child = s.copy()
            child.advance(m)
            v = value(child)
            if best is None or v[mover][0] > best[mover][0] + 1e-12:
                best = v
        assert best is not None
        table[k] = best
        return best

    return value(r)
