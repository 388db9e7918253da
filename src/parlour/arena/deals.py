"""Frozen evaluation deal sets: the same cards for everyone who reports a result.

A deal set is a tournament seed and a number of deals (``arena.lineup.deal_seed``):
``parlour tournament GAME --deals standard-1000`` plays exactly those deals, with the
bots seeded from the same seed. Each set publishes the SHA-256 of its deals -- every
deal's first dealer at the table size and its first deck, in order -- per table size,
and the arena checks it before the first game, so a result on ``standard-1000`` is a
result on the published cards or it is refused (docs/arena.md, "Deal sets").
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field

from parlour.arena.jobs import derive_deck_seed
from parlour.arena.lineup import deal_seed
from parlour.match import Shuffler


@dataclass(frozen=True)
class DealSet:
    """A named, frozen set of deals (module docstring)."""

    name: str
    seed: int
    deals: int
    sha256: dict[int, str] = field(default_factory=dict)
    """The published hash of the deals at each table size."""


def deals_hash(seed: int, deals: int, players: int) -> str:
    """SHA-256 of the deals: one line per deal, ``dealer:card,card,...`` (its first
    dealer at ``players`` seats, then its first deck)."""
    h = hashlib.sha256()
    for d in range(deals):
        ds = deal_seed(seed, d)
        dealer = Shuffler(ds).seat(players)
        deck = Shuffler(derive_deck_seed(ds)).deck()
        h.update(f"{dealer}:{','.join(map(str, deck))}\n".encode())
    return h.hexdigest()


SETS: dict[str, DealSet] = {s.name: s for s in (
    DealSet("standard-100", 2026, 100, {
        2: "62988b13b4514cc7b07243851c8eabdb75100667640779c6560ffd9b1d21c952",
        3: "8e002e54ead0c45748cb0a3af84b7bc66eec8c4776f135905c9d415cee693fdc",
        4: "3751eb308924b456b68e20f08b3ffe80770913107411f796caa4a8946f471507",
        5: "e6604f37698a9dbf9dc738a5dc30a78e14c121235a5f1774914589db59cf8450",
        6: "3fd556aa90495d20fdf1f4a49de240c948cc444eee2f055cb3f373b3da688349",
        7: "c7a5d75b707eef8bff738db24af5d61fd5c8cebcfb5820499a275bc03e0c5e4b",
        8: "1a3aab00c4fe5d12e48547e2f9268338fdb96337d25dc69a83ae03b508a014c8",
    }),
    DealSet("standard-1000", 2026, 1000, {
        2: "d7826632dea6ace1b1f59434751eded25556fee05f857e36f6df71ab68394294",
        3: "f6750ef6fe2dbc208f2cc68fd5c9b83ee778534ad8305d31cbe37b0cbd4e404b",
        4: "91534a90045bbbb8aef84812cfda6c69541a6be4fdebd19ebfd4a27fecc2f2cf",
        5: "30560273f9cc7626955855dfeab150fadd5655e0e395964dfb6149840030c681",
        6: "1448a75d62328829fba8769b61ef99764f6b010b0acd3e50ef9640786c2dabd8",
        7: "073fb45fc475b5f609f147719f9a745b2f25ca931599af2d553d525e509b698c",
        8: "8f16445ec5412c598848fceb66da8c34664bc7c0d38f692408ac945341bee3a0",
    }),
)}
"""The published deal sets (seed 2026); docs/arena.md lists the same hashes."""


def deal_set(name: str) -> DealSet:
    """A published deal set by name (ValueError listing them otherwise)."""
    found = SETS.get(name.strip().lower())
    if found is None:
        raise ValueError(f"no deal set {name!r}; published: {', '.join(SETS)}")
    return found


def check(found: DealSet, players: int) -> str:
    """The hash of the set's deals at ``players``, after checking it against the
    published one (ValueError if it differs, or if none is published for the size)."""
    published = found.sha256.get(players)
    if published is None:
        sizes = ", ".join(str(n) for n in sorted(found.sha256)) or "none"
        raise ValueError(f"{found.name} publishes no hash for {players} players "
                         f"(table sizes: {sizes})")
    got = deals_hash(found.seed, found.deals, players)
    if got != published:
        raise ValueError(f"the deals of {found.name} at {players} players are not the "
                         f"published ones (sha256 {got[:12]}..., published "
                         f"{published[:12]}...): this parlour deals differently")
    return got
