"""Scripted Fan Tan rounds whose every number can be worked out by hand.

Both are 8-player rounds dealt by seat 3 (RULINGS FT-1: seats 4-7 get 7 cards, seats
0-3 get 6). Seat 0 holds the diamond run from 7D and leads (FT-4); seat 7 plays the
diamonds down; every other seat only passes, and every card they hold that is not a 7
stays dead all round, because its row never starts. With ``strict: false`` (FT-5) a
pass made while holding a 7 is a withholding (FT-8).
"""

from __future__ import annotations

from typing import Any

from deal_helpers import fantan_deck
from parlour import cards
from parlour.game import PASS, Move
from parlour.games.fantan.rules import FANTAN, FanTanRound

PLAYERS, DEALER = 8, 3
DIAMONDS_DOWN = ["6D", "5D", "4D", "3D", "2D", "AD", "KD"]

A_HANDS = {
    0: ["7D", "8D", "9D", "10D", "JD", "QD"],
    1: ["7H"], 2: ["6H"], 3: ["8H"],
    4: ["7S", "6S"], 5: ["8S"], 6: ["7C", "6C", "8C"],
    7: DIAMONDS_DOWN,
}
"""Scenario A: seat 0 withholds 8D once and still wins; seat 1 withholds 7H (6H with seat
2, 8H with seat 3) six times; seat 4 withholds 7S holding 6S itself (8S with seat 5);
seat 6 withholds 7C holding both 6C and 8C."""

B_HANDS = {
    0: ["7D", "8D", "9D", "10D", "JD", "QD"],
    1: ["7H", "7S"], 2: ["6H", "8H", "6S", "8S", "6C", "8C"], 3: ["7C"],
    7: DIAMONDS_DOWN,
}
"""Scenario B: seat 0 plays out in six turns; seats 1 and 3 withhold their 7s five times,
and every 6 and 8 they wait on is in seat 2, which collects 150 chips of fines."""


def _script(winner_plays: list[str], down: list[str]) -> list[tuple[int, str]]:
    moves: list[tuple[int, str]] = []
    for c, own in enumerate(winner_plays):
        moves.append((0, own))
        if c == len(winner_plays) - 1:
            break
        for seat in range(1, PLAYERS):
            moves.append((seat, down[c] if seat == 7 else "pass"))
    return moves


A_MOVES = _script(["7D", "pass", "8D", "9D", "10D", "JD", "QD"], DIAMONDS_DOWN)
B_MOVES = _script(["7D", "8D", "9D", "10D", "JD", "QD"], DIAMONDS_DOWN)


def rules(stakes: str = "points", rounds: int = 1, ace: str = "low",
          strict: bool = False) -> dict[str, Any]:
    return FANTAN.rules(PLAYERS, {"rounds": rounds, "stakes": stakes, "ace": ace,
                                  "strict": strict, "opening": "seven-of-diamonds"})


def move(text: str) -> Move:
    return PASS if text == "pass" else cards.from_code(text)


def deck(hands: dict[int, list[str]]) -> list[int]:
    return fantan_deck(PLAYERS, DEALER, hands)


def play(hands: dict[int, list[str]], moves: list[tuple[int, str]],
         **rule_args: Any) -> FanTanRound:
    """The round dealt from ``hands`` with ``moves`` applied, checking each seat's turn."""
    r = FANTAN.new_round(rules(**rule_args), PLAYERS, DEALER, deck(hands))
    for seat, text in moves:
        assert r.current_player == seat, (seat, text)
        r.apply(move(text))
    return r


def record_moves(moves: list[tuple[int, str]]) -> list[dict[str, Any]]:
    """The moves as a record lists them."""
    return [{"seat": s, "pass": True} if t == "pass" else {"seat": s, "play": t}
            for s, t in moves]
