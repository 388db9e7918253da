"""How a Fanti search judges the end of a deal: the leaf values.

In 2 players the chance of winning the round from the piles so far, the cards still
to come shared out at random (:func:`leaf_2p`, FA-9 scoring); in 3-4 the pile-value
lead through a sigmoid (:func:`leaf_lead`); ``expert``'s :func:`fitted_leaf`, a
logistic correction fitted to self-play (``leaf.json``); the true result in the last
deal (:func:`final_outcome`). Part of the search of :mod:`parlour.games.fanti.search`.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path

from parlour import cards
from parlour.bots.models import placed
from parlour.cards import Mask
from parlour.games.fanti import heuristic as heuristic_fanti
from parlour.games.fanti.rules import (
    LEAVES,
    TEN_OF_DIAMONDS,
    TWO_OF_CLUBS,
    leftovers,
    score_piles,
)
from parlour.games.fanti.worlds import _MEMO_LIMIT

TWO_C: Mask = 1 << TWO_OF_CLUBS
TEN_D: Mask = 1 << TEN_OF_DIAMONDS
LEAD_SCALE = 1.0
"""3-4 players: how sharply a lead in pile value (round points) becomes a win chance
(docs/bots.md: how it was chosen)."""
CLUMP = 4.0
"""2 players: the variance of the future card and Leaf differences, in multiples of
what cards going one by one to a random seat would give. Cards are taken in groups
(a capture is two or three cards, the last collector sweeps the table), so the
future is more uncertain than independent cards."""


@lru_cache(maxsize=64)
def _spread(n: int) -> tuple[tuple[int, float], ...]:
    """Distribution of the difference (mine minus theirs) over ``n`` cards still to
    come: values ``-n, -n+2, .., n`` weighted like a normal of variance ``CLUMP * n``."""
    if n == 0:
        return ((0, 1.0),)
    var = CLUMP * n
    pts = [(d, math.exp(-d * d / (2.0 * var))) for d in range(-n, n + 1, 2)]
    total = sum(w for _, w in pts)
    return tuple((d, w / total) for d, w in pts if w / total > 1e-9)


@lru_cache(maxsize=1 << 16)
def _win_2p(cards_diff: int, leaf_diff: int, plain_left: int, leaves_left: int,
            special_diff: int, specials: tuple[bool, bool]) -> float:
    """Seat 0's win share given the differences so far and what is still to come.

    ``plain_left`` / ``leaves_left`` count the uncollected non-Leaf and Leaf cards
    other than 2C and 10D; ``specials`` says whether 2C and 10D are still to come
    (each goes to either seat with even chance).
    """
    total = 0.0
    options_2c = ((1, 0.5), (-1, 0.5)) if specials[0] else ((0, 1.0),)
    options_10d = ((1, 0.5), (-1, 0.5)) if specials[1] else ((0, 1.0),)
    leaf_spread = _spread(leaves_left)
    plain_spread = _spread(plain_left)
    for d2c, p2c in options_2c:
        for d10, p10 in options_10d:
            base = special_diff + d2c + d10  # +1 each to whoever holds them
            c0 = cards_diff + d2c + d10
            l0 = leaf_diff + d2c
            for dl, pl in leaf_spread:
                leaves = l0 + dl
                lead = base + (1 if leaves > 0 else -1 if leaves < 0 else 0)
                c1 = c0 + dl
                for dc, pc in plain_spread:
                    cs = c1 + dc
                    s = lead + (2 if cs > 0 else -2 if cs < 0 else 0)
                    p = p2c * p10 * pl * pc
                    if s > 0:
                        total += p
                    elif s == 0:
                        total += 0.5 * p
    return total


_LEAVES_MEMO: dict[tuple[Mask, Mask], float] = {}


def leaf_2p(p0: Mask, p1: Mask, left: Mask | None = None) -> float:
    """Seat 0's estimated win share of a 2-player round from the two piles at the end
    of a deal (see :data:`CLUMP` and :func:`_win_2p`); ``left`` is the cards still
    to come (default: every card in neither pile)."""
    if left is None:
        v = _LEAVES_MEMO.get((p0, p1))
        if v is None:
            if len(_LEAVES_MEMO) >= _MEMO_LIMIT:
                _LEAVES_MEMO.clear()
            v = _LEAVES_MEMO[p0, p1] = leaf_2p(p0, p1, cards.FULL_DECK & ~(p0 | p1))
        return v
    specials = (bool(left & TWO_C), bool(left & TEN_D))
    leaves_left = (left & LEAVES & ~TWO_C).bit_count()
    plain_left = (left & ~LEAVES & ~TEN_D).bit_count()
    special_diff = ((p0 & TWO_C).bit_count() + (p0 & TEN_D).bit_count()
                    - (p1 & TWO_C).bit_count() - (p1 & TEN_D).bit_count())
    return _win_2p(p0.bit_count() - p1.bit_count(),
                   (p0 & LEAVES).bit_count() - (p1 & LEAVES).bit_count(),
                   plain_left, leaves_left, special_diff, specials)


def leaf_lead(piles: tuple[Mask, ...]) -> tuple[tuple[float, float], ...]:
    """3-4 players: per seat ``(p, p)``, p the sigmoid of its pile-value lead over
    the best other pile, normalised over the seats."""
    v = [heuristic_fanti.value(p) for p in piles]
    ps = [1.0 / (1.0 + math.exp(-LEAD_SCALE * (x - max(v[:i] + v[i + 1:]))))
          for i, x in enumerate(v)]
    total = sum(ps)  # one winner: the chances add up to 1
    return tuple((p / total, p / total) for p in ps)


def leaf(piles: tuple[Mask, ...]) -> tuple[tuple[float, float], ...]:
    """Per seat ``(reward, win share)`` estimated at the end of a deal that is not the
    last: :func:`leaf_2p` in 2 players, :func:`leaf_lead` with more."""
    if len(piles) == 2:
        v = leaf_2p(piles[0], piles[1])
        return ((v, v), (1.0 - v, 1.0 - v))
    return leaf_lead(piles)


FITTED_LEAF = Path(__file__).with_name("leaf.json")
"""The weights of :func:`fitted_leaf`, written by ``benchmarks/fanti_leaf.py``."""


def leaf_features(p0: Mask, p1: Mask, table: Mask, last: int, lead0: bool,
                  dealt: int) -> list[float]:
    """What :func:`fitted_leaf` weighs at the end of a 2-player deal, for seat 0:
    :func:`leaf_2p`'s log-odds, whether seat 0 leads the next deal and collected
    last, and what the table left holds (cards, Leaves, 2C/10D, pile value) for the
    seat that leads next, some terms growing with ``dealt`` (cards dealt so far)."""
    v = min(max(leaf_2p(p0, p1), 1e-4), 1 - 1e-4)
    lead = 1.0 if lead0 else -1.0
    lc = 1.0 if last == 0 else -1.0
    count, leaves = table.bit_count(), (table & LEAVES).bit_count()
    special = (1.0 if table & TWO_C else 0.0) + (1.0 if table & TEN_D else 0.0)
    worth, prog = heuristic_fanti.value(table), dealt / 52.0
    return [1.0, math.log(v / (1 - v)), lead, lc, lead * count, lead * leaves,
            lead * special, lead * worth, lc * count * prog, lead * prog,
            lead * worth * prog, lead * count * prog]


@lru_cache(maxsize=1)
def fitted_weights() -> tuple[float, ...]:
    return tuple(float(x) for x in json.loads(FITTED_LEAF.read_text())["weights"])


def fitted_leaf(p0: Mask, p1: Mask, table: Mask, last: int, lead0: bool,
                dealt: int) -> float:
    """Seat 0's win share at the end of a 2-player deal that is not the last, by a
    logistic model fitted to self-play (``expert``'s leaf): :func:`leaf_2p` corrected
    for the cards left on the table -- the next deal's leader may take them (FA-5),
    the last collector sweeps what is left at the end (FA-8) -- and for who leads.
    Fitted on the deal ends of ``heuristic`` self-play rounds by
    ``benchmarks/fanti_leaf.py``; docs/bots.md has its log loss against
    :func:`leaf_2p` and docs/bots-lab.md what it is worth in play."""
    z = sum(w * f for w, f in zip(fitted_weights(),
                                  leaf_features(p0, p1, table, last, lead0, dealt),
                                  strict=True))
    return 1.0 / (1.0 + math.exp(-z))


def final_outcome(piles: list[Mask], table: Mask, last_collector: int,
                  shared: bool) -> tuple[tuple[float, float], ...]:
    """Per seat ``(reward, win share)`` at the end of the round (FA-8, FA-9): the table
    goes to the last collector, then the engine's scoring; the reward is as in
    :func:`.models.rewards` (win share plus a placing term)."""
    piles, _table = leftovers(piles, table, last_collector)
    score = score_piles(piles, shared)
    best = max(score)
    winners = [s for s, x in enumerate(score) if x == best]
    share = 1.0 / len(winners)
    wins = [share if x == best else 0.0 for x in score]
    return tuple(zip(placed(score, wins, 1), wins, strict=True))


def deal_end_2p(piles: list[Mask], table: Mask, last: int, final: bool, shared: bool,
                judge: Callable[[Mask, Mask, Mask, int], float] | None = None) -> float:
    """Seat 0's win share at the end of a deal in 2 players: the true result when the
    deal is the round's ``final`` one (:func:`final_outcome`), else ``judge`` where given
    (``expert``'s :func:`fitted_leaf`), else :func:`leaf_2p`. The one choice of
    deal-end value for the per-world and the joint search."""
    if final:
        return final_outcome(piles, table, last, shared)[0][1]
    if judge is not None:
        return judge(piles[0], piles[1], table, last)
    return leaf_2p(piles[0], piles[1])


def deal_end_n(piles: list[Mask], table: Mask, last: int, final: bool,
               shared: bool) -> tuple[tuple[float, float], ...]:
    """Per seat ``(reward, win share)`` at the end of a deal with 3 or 4 players: the
    true result in the round's ``final`` deal, else :func:`leaf_lead`."""
    if final:
        return final_outcome(piles, table, last, shared)
    return leaf_lead(tuple(piles))
