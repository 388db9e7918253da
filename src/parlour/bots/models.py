"""What search needs to know about a game: its determinizer, playout policy and rewards.

A :class:`SearchModel` binds one game to the generic engines in :mod:`.pimc`,
:mod:`.ismcts` and :mod:`.solver`. The engines themselves only use the
:class:`~parlour.game.Round` interface.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import Any

from parlour.bots.determinize import Determinizer, Policy
from parlour.game import PASS, Move, Round
from parlour.games import get_game
from parlour.games.fantan import heuristic as heuristic_fantan
from parlour.games.fantan.determinize import FanTanDeterminizer
from parlour.games.fanti import heuristic as heuristic_fanti
from parlour.games.fanti.determinize import FantiDeterminizer


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
    respond: bool = False
    """Whether the exact solver answers the opponent model (others play ``policy``;
    in Fanti the ``heuristic`` bot's move, :func:`.fanti_search.heuristic_choice`;
    only the searching seat branches) instead of a max^n search of every seat."""


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


def _fantan_moves(r: Any) -> list[Move]:
    """Legal moves without the withholding pass of ``strict: false`` (FT-5, FT-8):
    it is fined, and allowing it would let the solver pass around the table forever."""
    moves = r.legal_moves()
    if len(moves) > 1 and moves[-1] == PASS:
        moves.pop()
    return moves


def _fantan_late(r: Any) -> bool:
    return r.hands[r.turn].bit_count() <= LATE_HAND


LATE_HAND = 5
"""Fan Tan: solve a world exactly once the seat to move holds at most this many cards."""


def _fanti_late(r: Any) -> bool:
    return sum(h.bit_count() for h in r.hands) <= 8


def _fanti_horizon(start: Any) -> Callable[[Round], list[tuple[float, float]] | None] | None:
    """Solve Fanti to the end of the current deal, then judge the piles.

    At the end of the deal, seat ``s``'s lead is the heuristic worth of its pile
    minus the best other pile's (:func:`.heuristic_fanti.value`, in round points); its
    estimated win probability is ``1 / (1 + exp(-LEAD_SCALE * lead))`` (the reward is
    the same number). In the last deal the search runs to the end of the round and
    uses the true outcome instead.
    """
    if start.dealt >= 52:
        return None
    dealt = start.dealt

    def leaf(r: Any) -> list[tuple[float, float]] | None:
        if r.dealt == dealt:
            return None
        v = [heuristic_fanti.value(p) for p in r.piles]
        out = []
        for i, x in enumerate(v):
            lead = x - max(v[:i] + v[i + 1:])
            p = 1.0 / (1.0 + math.exp(-LEAD_SCALE * lead))
            out.append((p, p))
        return out

    return leaf


LEAD_SCALE = 1.5
"""How sharply a lead in pile value (round points) turns into a win probability."""


MODELS: dict[str, SearchModel] = {
    "fantan": SearchModel(
        "fantan", FanTanDeterminizer, heuristic_fantan.round_policy,
        key=lambda r: (tuple(r.hands), r.turn), late=_fantan_late, inference="full",
        moves=_fantan_moves, respond=True),
    "fanti": SearchModel(
        "fanti", FantiDeterminizer, heuristic_fanti.light_policy,
        key=lambda r: (tuple(r.hands), tuple(r.piles), r.table, r.turn, r.last_collector,
                       r.dealt),
        late=_fanti_late, inference="full", horizon=_fanti_horizon, respond=True),
}


def model_for(game: str) -> SearchModel:
    return MODELS[get_game(game).name]
