"""Fan Tan lanes: the rows seen as eight one-way lanes, for heuristics and search.

Each suit's row grows from its 7 in two directions (FT-2, FT-3); each direction is a
*lane*. For every card this module precomputes the cards lying further out in its
lane(s) -- two lanes for a 7, one for any other card -- in the order they must be
played, so the end-case arithmetic of :mod:`.heuristic` is a few mask
operations per card. Tables exist for both ``ace`` rules.
"""

from __future__ import annotations

from parlour import cards
from parlour.cards import Card, Mask
from parlour.games.fantan.rules import NEIGHBOURS, SEVEN


def _lanes(ace_high: bool) -> list[tuple[tuple[Card, ...], ...]]:
    down, up = NEIGHBOURS[ace_high]
    out: list[tuple[tuple[Card, ...], ...]] = []
    for c in range(52):
        if cards.rank_of(c) == SEVEN:
            steps = (down, up)
        else:
            seven = cards.card(SEVEN, cards.suit_of(c))
            x, below = seven, False
            while x >= 0:  # walk down from the 7: is c below it?
                if x == c:
                    below = True
                    break
                x = down[x]
            steps = (down,) if below else (up,)
        lanes = []
        for step in steps:
            lane, x = [], step[c]
            while x >= 0:
                lane.append(x)
                x = step[x]
            lanes.append(tuple(lane))
        out.append(tuple(lanes))
    return out


LANES: dict[bool, list[tuple[tuple[Card, ...], ...]]] = {f: _lanes(f) for f in (False, True)}
"""``LANES[ace_high][card]``: the lanes beyond ``card``, each outward from it."""

BEYOND: dict[bool, list[Mask]] = {
    f: [cards.mask_of(x for lane in LANES[f][c] for x in lane) for c in range(52)]
    for f in (False, True)
}
"""``BEYOND[ace_high][card]``: every card further out than ``card`` in its lane(s)."""


def _info(lane: tuple[Card, ...]) -> tuple[Mask, Card, tuple[Mask, ...], dict[Card, int]]:
    prefixes, m = [], 0
    for x in lane:
        m |= 1 << x
        prefixes.append(m)
    return m, (lane[0] if lane else -1), tuple(prefixes), {x: i for i, x in enumerate(lane)}


_INFO = {f: [tuple(_info(lane) for lane in LANES[f][c]) for c in range(52)]
         for f in (False, True)}


def lane_features(card: Card, hand: Mask, ace_high: bool) -> tuple[int, int, int, int]:
    """End-case arithmetic for playing ``card`` from ``hand``.

    Returns ``(need, own, release, exposed)``:

    * ``need``: cards I do not hold lying between ``card`` and my furthest card in
      its lane(s) -- what I still need other players to play before I can shed;
    * ``own``: my cards further out in its lane(s);
    * ``release``: cards playing it makes playable that are not mine (0, 1 or 2);
    * ``exposed``: cards not mine in the released lane(s) -- how much it opens up.
    """
    need = own = release = exposed = 0
    for lane_mask, first, prefixes, index in _INFO[ace_high][card]:
        mine = hand & lane_mask
        if mine:
            far = max(index[x] for x in cards.iter_cards(mine))
            o = (prefixes[far] & hand).bit_count()
            own += o
            need += far + 1 - o
        if first >= 0 and not hand >> first & 1:
            release += 1
            exposed += (lane_mask & ~hand).bit_count()
    return need, own, release, exposed
