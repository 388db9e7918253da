"""Fixed-shape observation vectors of one seat's view, shared by every interface.

An observation is built only from ``round.view(seat)`` (FT-10, FA-7), the match's
public totals and the public half-chosen Fanti play, never from the state itself, so
it cannot carry another seat's cards. All values lie in ``[0, 1]`` (``float32``).
Seats are *relative*: index 0 is the observing seat, 1 the next seat clockwise, and
so on, so one policy serves every seat.

Each game's encoder lives in its ``env`` part; this module holds the shared frame
and helpers. The layout is the concatenation of :attr:`ObservationEncoder.fields` in order; each
field's ``doc`` says what it holds (``docs/research.md`` prints the full table).
Counts are scaled to ``[0, 1]`` by a stated cap and saturate there.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from parlour.envs.encoding import Pending
from parlour.match import Match


@dataclass(frozen=True)
class Field:
    """One named slice of the observation vector."""

    name: str
    shape: tuple[int, ...]
    doc: str

    @property
    def size(self) -> int:
        return int(np.prod(self.shape))


def rel(seat: int, s: int, n: int) -> int:
    """Seat ``s`` as seen from ``seat``: 0 itself, 1 the next seat clockwise, ..."""
    return (s - seat) % n


def planes(out: np.ndarray, at: int, masks: list[int]) -> None:
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
    totals = rot(match.totals, seat)
    if match.game.lower_wins(match.rules):
        best = min(totals)
        return [min(t - best, cap) / cap for t in totals]
    best = max(totals)
    return [min(best - t, cap) / cap for t in totals]


def _rounds_left(match: Match) -> float:
    total = match.rules["rounds"]
    return max(total - len(match.rounds), 0) / total


class ObservationEncoder:
    """The observation layout of one game at one player count; each game's ``env``
    part subclasses it (``_fields`` and ``_encode``)."""

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


def seat_fields(n: int, cap_doc: str) -> list[Field]:
    """The fields every game's observation shares (seats, totals, rounds left)."""
    return [
        Field("to_move", (n,), "1 at the seat to move (all 0 when the round is over)"),
        Field("dealer", (n,), "1 at this round's dealer"),
        Field("behind", (n,), f"distance to the best game total so far, {cap_doc}"),
        Field("rounds_left", (1,), "rounds still to be dealt after this one / rounds"),
    ]


def rot(xs: list[int] | tuple[int, ...], seat: int) -> list[int]:
    """A per-seat list in relative order: the observing seat first."""
    return [*xs[seat:], *xs[:seat]]


def common(out: np.ndarray, o: dict[str, int], match: Match, seat: int,
            current: int, dealer: int, cap: int) -> None:
    n = match.players
    if current >= 0:
        out[o["to_move"] + rel(seat, current, n)] = 1.0
    out[o["dealer"] + rel(seat, dealer, n)] = 1.0
    out[o["behind"]:o["behind"] + n] = _behind(match, seat, cap)
    out[o["rounds_left"]] = _rounds_left(match)


def encoder_for(game_name: str, players: int, info_state: bool = False) -> ObservationEncoder:
    """The observation encoder of a game at a player count (from its ``env`` part)."""
    from parlour.envs.kit import env_parts

    return env_parts(game_name).encoder(players, info_state)


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
