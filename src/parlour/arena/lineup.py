"""Line-ups, seat rotations and seeds for duplicate deals.

A tournament plays every *deal* (the decks of a game and its first dealer) once per
seat rotation: in rotation ``r`` of ``n`` seats, seat ``s`` is taken by line-up entry
``(s + r) % n``, so every entry meets the same cards from every seat. A bot is
seeded by the tournament seed, the deal and its seat -- not by its rotation -- so
identical bots play identical games in every rotation and score exactly 1/n.
"""

from __future__ import annotations

import hashlib


def lineup(bots: list[str], players: int) -> list[str]:
    """The bot in each line-up entry: the list, extended to ``players`` entries by
    repeating its last bot (``hard,heuristic`` at 4 players is hard against three
    heuristic bots). More bots than players is an error."""
    names = [b.strip() for b in bots if b.strip()]
    if not names:
        raise ValueError("name at least one bot")
    if len(names) > players:
        raise ValueError(f"{len(names)} bots for {players} seats")
    return names + [names[-1]] * (players - len(names))


def seat_entries(players: int, rotation: int) -> list[int]:
    """The line-up entry in each seat for one rotation."""
    return [(s + rotation) % players for s in range(players)]


def derive_seed(*parts: object) -> int:
    """A 63-bit seed from any parts, the same in every process and on every machine."""
    text = ":".join(str(p) for p in parts).encode()
    return int.from_bytes(hashlib.blake2b(text, digest_size=8).digest(), "big") >> 1


def deal_seed(seed: int, deal: int) -> int:
    """The seed of the shuffler for one deal."""
    return derive_seed("deal", seed, deal)


def bot_seed(seed: int, deal: int, seat: int) -> int:
    """The seed of the bot in ``seat`` for one deal (the same in every rotation)."""
    return derive_seed("bot", seed, deal, seat)
