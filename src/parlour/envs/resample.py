"""Deals consistent with what one seat knows, for search (ISMCTS) to sample from.

:func:`resample_deck` takes a round in play and a seat and returns a new deck order
for that round that the seat could not tell apart from the real one:

* the seat's own cards stay where they were dealt;
* every card already played, on the table or in a pile stays with the seat that
  played it, in the same deal (Fanti's redeals, FA-3);
* every other seat holds as many cards as it really does (FT-10, FA-7);
* no seat is given a card the public record proves it does not hold (the game's
  ``voids``: under Fan Tan ``strict: true`` the cards that fitted at its passes, FT-5);
* the unseen cards are otherwise spread at random (an undealt deck too).

Replaying the round's moves on the new deck is then legal move for move. The draw is
near uniform over the consistent deals, not exactly uniform: cards are placed most
constrained first, each seat chosen in proportion to its free places, and a rare dead
end falls back to an exact matching.
"""

from __future__ import annotations

import random

from parlour import cards
from parlour.envs.kit import env_parts
from parlour.game import PASS, Round, move_card


def deal_seat(game: str, players: int, dealer: int, position: int) -> int:
    """The seat that deck card ``position`` goes to (-1: face up on the table), by the
    game's own rules (FT-1, FA-3)."""
    return env_parts(game).deal_seat(players, dealer, position)


def deal_batch(game: str, players: int, position: int) -> int:
    """Which deal of the round a deck position belongs to (0 for a single deal)."""
    return env_parts(game).deal_number(players, position)


def assign(unknown: list[int], need: dict[int, int], forbidden: dict[int, int],
           rng: random.Random) -> dict[int, list[int]]:
    """Give each seat ``need[seat]`` of the ``unknown`` cards, none of ``forbidden[seat]``.

    The counts must add up to ``len(unknown)`` and some assignment must exist.
    """
    seats = list(need)
    for _ in range(20):
        got = _greedy(unknown, need, forbidden, seats, rng)
        if got is not None:
            return got
    return _matching(unknown, need, forbidden, seats, rng)


def _allowed(c: int, seats: list[int], forbidden: dict[int, int]) -> list[int]:
    return [s for s in seats if not forbidden.get(s, 0) >> c & 1]


def _greedy(unknown: list[int], need: dict[int, int], forbidden: dict[int, int],
            seats: list[int], rng: random.Random) -> dict[int, list[int]] | None:
    free = dict(need)
    order = sorted(unknown, key=lambda c: (len(_allowed(c, seats, forbidden)), rng.random()))
    out: dict[int, list[int]] = {s: [] for s in seats}
    for c in order:
        options = [s for s in _allowed(c, seats, forbidden) if free[s] > 0]
        if not options:
            return None
        s = rng.choices(options, weights=[free[x] for x in options])[0]
        free[s] -= 1
        out[s].append(c)
    return out


def _matching(unknown: list[int], need: dict[int, int], forbidden: dict[int, int],
              seats: list[int], rng: random.Random) -> dict[int, list[int]]:
    """An assignment by augmenting paths (always finds one when one exists)."""
    slots = [s for s in seats for _ in range(need[s])]
    rng.shuffle(slots)
    slot_card: list[int | None] = [None] * len(slots)

    def place(c: int, seen: set[int]) -> bool:
        for i, s in enumerate(slots):
            if i in seen or forbidden.get(s, 0) >> c & 1:
                continue
            seen.add(i)
            other = slot_card[i]
            if other is None or place(other, seen):
                slot_card[i] = c
                return True
        return False

    cards_order = list(unknown)
    rng.shuffle(cards_order)
    for c in cards_order:
        if not place(c, set()):
            raise ValueError("no deal is consistent with the public information")
    out: dict[int, list[int]] = {s: [] for s in seats}
    for i, c in enumerate(slot_card):
        assert c is not None
        out[slots[i]].append(c)
    return out


def resample_deck(rnd: Round, seat: int, rng: random.Random) -> list[int]:
    """A deck for ``rnd`` that ``seat`` cannot tell from the real one (module doc)."""
    if rnd.game.pack(rnd.rules) != cards.FULL_DECK:
        raise ValueError("the resampler deals the full deck only, not a cut pack "
                         "(docs/research.md, \"Solvable variants\")")
    parts = env_parts(rnd.game.name)
    n, dealer = rnd.players, rnd.dealer
    deck = list(rnd.deck)
    owner = [parts.deal_seat(n, dealer, i) for i in range(52)]
    number = [parts.deal_number(n, i) for i in range(52)]
    # The deal each seat's k-th card came in: a seat plays its cards deal by deal.
    deal_of = {s: [number[i] for i in range(52) if owner[i] == s] for s in range(n)}
    # Cards each seat played, per deal, in order.
    played: dict[tuple[int, int], list[int]] = {}
    count = [0] * n
    for s, m in rnd.history:
        if m == PASS:
            continue
        played.setdefault((s, deal_of[s][count[s]]), []).append(move_card(m))
        count[s] += 1
    dealt = parts.dealt(rnd)
    current = number[dealt - 1]
    seen = rnd.hand(seat)
    for cs in played.values():
        seen |= cards.mask_of(cs)
    for i in range(dealt):
        if owner[i] in (seat, -1):  # mine, or dealt face up
            seen |= 1 << deck[i]
    unknown = [c for c in cards.iter_cards(cards.FULL_DECK & ~seen)]
    need = {s: rnd.hand(s).bit_count() for s in range(n) if s != seat}
    need[-2] = 52 - dealt  # the undealt deck
    voids = parts.voids(n, rnd.rules, rnd.history)
    forbidden = {s: voids[s] for s in range(n) if s != seat}
    got = assign(unknown, need, forbidden, rng)
    # Refill every position not fixed for ``seat``.
    pools: dict[tuple[int, int], list[int]] = {}
    for (s, b), cs in played.items():
        if s != seat:
            pools[(s, b)] = list(cs)
    for s, cs in got.items():
        if s >= 0:
            pools.setdefault((s, current), []).extend(cs)
    rest = got[-2]
    rng.shuffle(rest)
    for key in pools:
        rng.shuffle(pools[key])
    new = deck[:]
    for i in range(52):
        if i >= dealt:
            new[i] = rest.pop()
            continue
        if owner[i] != seat and owner[i] != -1:
            new[i] = pools[(owner[i], number[i])].pop()
    return new
