"""Fixed-shape observation vectors of one seat's view, shared by every interface.

An observation is built only from ``round.view(seat)`` (FT-10, FA-7), the match's
public totals and the public half-chosen Fanti play, never from the state itself, so
it cannot carry another seat's cards. All values lie in ``[0, 1]`` (``float32``).
Seats are *relative*: index 0 is the observing seat, 1 the next seat clockwise, and
so on, so one policy serves every seat.

The layout is the concatenation of :attr:`ObservationEncoder.fields` in order; each
field's ``doc`` says what it holds (``docs/research.md`` prints the full table).
Counts are scaled to ``[0, 1]`` by a stated cap and saturate there.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from parlour import cards
from parlour.envs.encoding import Pending
from parlour.envs.knowledge import fantan_playable, fantan_voids
from parlour.match import Match

FANTAN_PASS_CAP = 52
FANTAN_BEHIND_CAP = 100
FANTI_BEHIND_CAP = 25


@dataclass(frozen=True)
class Field:
    """One named slice of the observation vector."""

    name: str
    shape: tuple[int, ...]
    doc: str

    @property
    def size(self) -> int:
        return int(np.prod(self.shape))


def _rel(seat: int, s: int, n: int) -> int:
    return (s - seat) % n


def _planes(out: np.ndarray, at: int, masks: list[int]) -> None:
    """Write card masks as consecutive 52-wide 0/1 planes from ``out[at]`` (one numpy
    call for all of them: much faster than setting bits one by one)."""
    big = 0
    for i, m in enumerate(masks):
        big |= m << (52 * i)
    width = 52 * len(masks)
    raw = np.frombuffer(big.to_bytes((width + 7) // 8, "little"), np.uint8)
    out[at:at + width] = np.unpackbits(raw, bitorder="little")[:width]


def _behind(match: Match, seat: int, cap: int) -> list[float]:
    """Each seat's distance to the best game total so far, scaled (0 = leading)."""
    totals = _rot(match.totals, seat)
    if match.game.lower_wins(match.rules):
        best = min(totals)
        return [min(t - best, cap) / cap for t in totals]
    best = max(totals)
    return [min(best - t, cap) / cap for t in totals]


def _rounds_left(match: Match) -> float:
    total = match.rules["rounds"]
    return max(total - len(match.rounds), 0) / total


class ObservationEncoder:
    """The observation layout of one game at one player count."""

    game: str
    fields: list[Field]

    def __init__(self, players: int, info_state: bool = False) -> None:
        self.players = players
        self.info_state = info_state
        self.fields = self._fields(players, info_state)
        self.size = sum(f.size for f in self.fields)
        self.offsets: dict[str, int] = {}
        at = 0
        for f in self.fields:
            self.offsets[f.name] = at
            at += f.size

    def _fields(self, n: int, info_state: bool) -> list[Field]:
        raise NotImplementedError

    def encode(self, match: Match | None, seat: int, pending: Pending | None = None,
               out: np.ndarray | None = None) -> np.ndarray:
        """The observation of ``seat``; zeros before the first deal. Writes into
        ``out`` when given (it must be zeroed), else into a new array."""
        if out is None:
            out = np.zeros(self.size, np.float32)
        if match is None or not match.rounds:
            return out
        self._encode(match, seat, pending, out)
        return out

    def _encode(self, match: Match, seat: int, pending: Pending | None,
                out: np.ndarray) -> None:
        raise NotImplementedError

    def slice(self, out: np.ndarray, name: str) -> np.ndarray:
        """The part of ``out`` that holds field ``name`` (a view, shaped)."""
        f = next(f for f in self.fields if f.name == name)
        at = self.offsets[name]
        return out[at:at + f.size].reshape(f.shape)


def _seat_fields(n: int, cap_doc: str) -> list[Field]:
    return [
        Field("to_move", (n,), "1 at the seat to move (all 0 when the round is over)"),
        Field("dealer", (n,), "1 at this round's dealer"),
        Field("behind", (n,), f"distance to the best game total so far, {cap_doc}"),
        Field("rounds_left", (1,), "rounds still to be dealt after this one / rounds"),
    ]


class FanTanObservation(ObservationEncoder):
    """Fan Tan: hand, table, what fits, counts, passes, seats, rules."""

    game = "fantan"

    def _fields(self, n: int, info_state: bool) -> list[Field]:
        most = -(-52 // n)
        fields = [
            Field("hand", (52,), "1 for each card in my hand (card = suit*13 + rank)"),
            Field("table", (52,), "1 for each card on the table"),
            Field("playable", (52,), "1 for each card that fits the table now (FT-3, FT-4)"),
            Field("hand_counts", (n,), f"cards in each hand / {most}"),
            Field("passes", (n,), f"passes this round / {FANTAN_PASS_CAP} (saturates)"),
            *_seat_fields(n, f"min(gap, {FANTAN_BEHIND_CAP}) / {FANTAN_BEHIND_CAP}"),
            Field("rules", (4,), "ace high, any-seven opening, chips stakes, strict false"),
        ]
        if info_state:
            fields += [
                Field("played_by", (n, 52), "1 where that seat played that card this round"),
                Field("void", (n, 52), "1 where that seat is known not to hold that card "
                                       "(it passed while the card fitted, strict rules)"),
            ]
        return fields

    def _encode(self, match: Match, seat: int, pending: Pending | None,
                out: np.ndarray) -> None:
        n = self.players
        rnd = match.rounds[-1]
        v = rnd.view(seat)
        rules = v.rules
        o = self.offsets
        playable = 0 if rnd.is_over else fantan_playable(v.table, rules)
        _planes(out, o["hand"], [v.hand, v.table, playable])
        most = -(-52 // n)
        at = o["hand_counts"]
        out[at:at + n] = [c / most for c in _rot(v.hand_counts, seat)]
        at = o["passes"]
        out[at:at + n] = [min(p, FANTAN_PASS_CAP) / FANTAN_PASS_CAP
                          for p in _rot(v.passes, seat)]
        _common(out, o, match, seat, v.current_player, v.dealer, FANTAN_BEHIND_CAP)
        flags = (rules["ace"] == "high", rules["opening"] == "any-seven",
                 rules["stakes"] == "chips", not rules["strict"])
        out[o["rules"]:o["rules"] + 4] = flags
        if self.info_state:
            played = [0] * n
            for s, m in v.history:
                if m < 52:
                    played[_rel(seat, s, n)] |= 1 << m
            voids = _rot(fantan_voids(n, rules, v.history), seat)
            _planes(out, o["played_by"], played)
            _planes(out, o["void"], voids)


def _rot(xs: list[int] | tuple[int, ...], seat: int) -> list[int]:
    """A per-seat list in relative order: the observing seat first."""
    return [*xs[seat:], *xs[:seat]]


def _common(out: np.ndarray, o: dict[str, int], match: Match, seat: int,
            current: int, dealer: int, cap: int) -> None:
    n = match.players
    if current >= 0:
        out[o["to_move"] + _rel(seat, current, n)] = 1.0
    out[o["dealer"] + _rel(seat, dealer, n)] = 1.0
    out[o["behind"]:o["behind"] + n] = _behind(match, seat, cap)
    out[o["rounds_left"]] = _rounds_left(match)


class FantiObservation(ObservationEncoder):
    """Fanti: hand, table, every collected pile, what is unseen, the play in progress."""

    game = "fanti"

    def _fields(self, n: int, info_state: bool) -> list[Field]:
        fields = [
            Field("hand", (52,), "1 for each card in my hand"),
            Field("table", (52,), "1 for each card on the table"),
            Field("piles", (n, 52), "1 for each card in each seat's collected pile (FA-7)"),
            Field("unseen", (52,), "1 for each card in no place I can see: other hands "
                                   "or the undealt deck"),
            Field("hand_counts", (n,), "cards in each hand / 4"),
            Field("deck_left", (1,), "cards not yet dealt / 48"),
            Field("last_collector", (n,), "1 at the seat that collected last (FA-8)"),
            *_seat_fields(n, f"min(gap, {FANTI_BEHIND_CAP}) / {FANTI_BEHIND_CAP}"),
            Field("pending_card", (52,), "the card being played while its collection is "
                                         "chosen step by step (encoding.py)"),
            Field("pending_take", (52,), "the table cards chosen so far for it"),
            Field("rules", (2,), "ties shared, guardian_takes_guardians false"),
        ]
        if info_state:
            fields.append(Field("played_by", (n, 52),
                                "1 where that seat played that card this round"))
        return fields

    def _encode(self, match: Match, seat: int, pending: Pending | None,
                out: np.ndarray) -> None:
        n = self.players
        rnd = match.rounds[-1]
        v = rnd.view(seat)
        o = self.offsets
        piles = _rot(v.piles, seat)
        seen = v.hand | v.table
        for p in piles:
            seen |= p
        _planes(out, o["hand"], [v.hand, v.table, *piles, cards.FULL_DECK & ~seen])
        at = o["hand_counts"]
        out[at:at + n] = [c / 4 for c in _rot(v.hand_counts, seat)]
        out[o["deck_left"]] = v.deck_left / 48
        if v.last_collector >= 0:
            out[o["last_collector"] + _rel(seat, v.last_collector, n)] = 1.0
        _common(out, o, match, seat, v.current_player, v.dealer, FANTI_BEHIND_CAP)
        if pending is not None:
            _planes(out, o["pending_card"], [1 << pending.card, pending.chosen])
        out[o["rules"]] = v.rules["ties"] == "shared"
        out[o["rules"] + 1] = not v.rules["guardian_takes_guardians"]
        if self.info_state:
            played = [0] * n
            for s, m in v.history:
                played[_rel(seat, s, n)] |= 1 << (m & 63)
            _planes(out, o["played_by"], played)


def encoder_for(game_name: str, players: int, info_state: bool = False) -> ObservationEncoder:
    """The observation encoder of a game at a player count."""
    cls: Any = FanTanObservation if game_name == "fantan" else FantiObservation
    return cls(players, info_state)



def layout_markdown(game_name: str, players: int, info_state: bool = False) -> str:
    """The observation layout as a Markdown table (``docs/research.md`` prints it)."""
    enc = encoder_for(game_name, players, info_state)
    rows = ["| indices | field | shape | meaning |", "|---|---|---|---|"]
    for f in enc.fields:
        at = enc.offsets[f.name]
        shape = "×".join(map(str, f.shape))
        rows.append(f"| {at}–{at + f.size - 1} | `{f.name}` | {shape} | {f.doc} |")
    rows.append(f"| | total | {enc.size} | |")
    return "\n".join(rows)
