"""What search needs to know about a game: its determinizer, playout policy and rewards.

A :class:`SearchModel` binds one game to the generic engines in :mod:`.pimc`,
:mod:`.ismcts` and :mod:`.solver`; each game that offers search bots defines one in
its kit's ``model`` part (``parlour/games/NAME/model.py``). The engines themselves
only use the :class:`~parlour.game.Round` interface and the model's capabilities.
The search reward (:func:`rewards`) is the same for every game: the win share (ties
split) plus a small placing term.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from parlour.bots.determinize import Determinizer, Policy
from parlour.game import Move, Round
from parlour.games import get_kit


@dataclass(frozen=True)
class SearchModel:
    """One game as the search engines see it.

    ``policy`` plays a move in a world (a round the searcher owns) for whoever is to
    move: the game's heuristic. ``key`` identifies a state for the exact solver's
    transposition table. ``late`` says when a world is small enough to solve exactly.
    ``inference`` is the default world inference (:data:`.determinize.INFERENCE`).
    """

    game: str
    determinizer: Callable[[], Determinizer]
    policy: Policy
    key: Callable[[Round], Hashable]
    late: Callable[[Round], bool]
    inference: str
    horizon: Callable[[Round], Callable[[Round], list[tuple[float, float]] | None] | None] = (
        lambda r: None)
    """For a world about to be solved, the solver's horizon function (or None)."""
    moves: Callable[[Round], list[Move]] = lambda r: r.legal_moves()
    """The moves the exact solver considers (Fan Tan: never a withholding pass)."""
    root_moves: Callable[[Any], list[Move]] = lambda view: list(view.legal)
    """The moves a search weighs at a decision (estimates, hints, the bot's choice):
    every legal move unless the game says otherwise (Fan Tan: never a second
    withholding pass into the same position, :func:`parlour.games.fantan.model.root_moves`)."""
    respond: bool = False
    """Whether the exact solver answers the opponent model (the others play the
    game's ``heuristic``; only the searching seat branches) instead of a max^n
    search of every seat."""
    now: NowWorlds | None = None
    """A capability: worlds dealt at the view's moment and solved exactly to the
    search horizon, for :class:`.pimc.Pimc` instead of dealt rounds and playouts."""
    deep: NowWorlds | None = None
    """Optional: like ``now`` with a farther horizon, for the ``deep:N`` bots (a
    game's model says how far)."""
    expert: NowWorlds | None = None
    """Optional: like ``now`` with something ``hard`` does not have, for the
    ``expert`` level and the ``expert:N`` bots (Fanti 2 players: a fitted deal-end
    leaf); without it ``expert`` is ``hard``'s engine with more iterations."""


class Evidence(Protocol):
    """How likely the opponent model makes the other seats' observed plays."""

    plays: Sequence[Any]

    def loglik(self, world: Any) -> float: ...


class NowWorlds(Protocol):
    """Worlds at the view's moment (not whole rounds), each solved exactly."""

    def evidence(self, view: Any, rng: random.Random, per_seat: bool,
                 inference: str = "full", earlier: Any = None) -> Evidence:
        """The other seats' plays that weigh a world; with ``per_seat`` each seat is
        read on its own (:mod:`.opponents`, starting from ``earlier``: the evidence of
        the game's earlier rounds), else as the game's heuristic."""
        ...

    def deal(self, view: Any, rng: random.Random) -> Any:
        """A world consistent with ``view``, uniformly among them."""
        ...

    def solve(self, view: Any, world: Any, legal: list[Move],
              respond: bool) -> list[tuple[float, float]]:
        """Per move of ``legal``, the searching seat's ``(reward, win share)``."""
        ...

    joint: bool
    """Whether a decision's worlds are searched together (:meth:`solve_all`) when the
    search answers the opponent model, instead of one by one (:meth:`solve`)."""

    def solve_all(self, view: Any, worlds: list[tuple[Any, float]], legal: list[Move],
                  deadline: float | None = None) -> list[tuple[float, float]]:
        """Per move of ``legal``, the weighted mean ``(reward, win share)`` over the
        ``(world, weight)`` pairs, my later moves chosen once per information set;
        a cheaper answer past ``deadline`` (a :func:`time.perf_counter` time)."""
        ...


def win_shares(r: Round) -> list[float]:
    """Each seat's share of the round's win (1 alone, 1/k in a k-way tie, else 0)."""
    game = r.game
    score = r.score()
    assert score is not None
    winners = game.winners(r.rules, score)
    share = 1.0 / len(winners)
    return [share if s in winners else 0.0 for s in range(r.players)]


PLACING = 0.1
"""Weight of the finishing place in :func:`rewards` (the rest is the win share)."""


def rewards(r: Round) -> list[float]:
    """What search maximises for each seat: the win share plus ``PLACING`` times the
    fraction of the other seats it finished ahead of (by round score).

    The placing term breaks the near-ties of worlds where a seat cannot win, where the
    win share alone says nothing: finishing with fewer penalty points, more chips or
    more Fanti points is still better, and is what counts over several rounds.
    """
    score = r.score()
    assert score is not None
    return placed(score, win_shares(r), -1 if r.game.lower_wins(r.rules) else 1)


def placed(score: Sequence[int], wins: Sequence[float], sign: int) -> list[float]:
    """:func:`rewards` from round scores and win shares; ``sign`` is 1 where the
    higher score is better, -1 where the lower is."""
    n = len(score)
    return [wins[s] + PLACING * sum(1 for o in range(n) if sign * score[s] > sign * score[o])
            / (n - 1) for s in range(n)]


def outcomes(r: Round) -> list[tuple[float, float]]:
    """Per seat ``(reward, win share)`` of a finished round: what the solver returns."""
    return list(zip(rewards(r), win_shares(r), strict=True))


def noisy(policy: Policy, epsilon: float) -> Callable[[Round, random.Random], Move]:
    """``policy``, but a uniformly random legal move with probability ``epsilon``."""
    if epsilon <= 0:
        return policy

    def play(r: Round, rng: random.Random) -> Move:
        if rng.random() < epsilon:
            moves = r.legal_moves()
            return moves[rng.randrange(len(moves))]
        return policy(r, rng)

    return play


def model_for(game: str) -> SearchModel:
    """The search model of ``game`` (its kit's ``model.MODEL``); a ValueError when the
    game has none."""
    return get_kit(game).need("model", "MODEL", "search bots")


def practice_view(game: Any, players: int, moves: int) -> Any:
    """A view to warm a search engine on (load its models, compile its kernels): a
    round of ``game`` dealt from a fixed shuffle and played with the first legal move
    until ``moves`` moves are made and the seat to move has a choice. Far enough in,
    the other seats have made choices, so their reading runs too."""
    deck = list(range(52))
    random.Random(0).shuffle(deck)
    r = game.new_round(game.rules(players, {}), players, 0, deck)
    while not r.is_over and (len(r.history) < moves or len(r.legal_moves()) < 2):
        r.apply(r.legal_moves()[0])
    return r.view(r.current_player)
