"""Fan Tan's pieces for the research environments (``ENV``, :mod:`parlour.envs.kit`).

* Actions (53): the action id *is* the engine move -- card ``0..51`` or 52 for a pass.
* Observation (:class:`FanTanObservation`): hand, table, what fits (FT-3, FT-4), hand
  counts, passes (FT-5), seats, rules. With ``info_state`` (perfect recall of the round)
  also who played each card, in which order, how many passes came just before it, and,
  under ``strict: true``, the cards each seat is proven not to hold: every seat moves in
  turn, so the order of the plays and the passes between them give back the round's
  whole public history.
* What the public record proves (:func:`voids`): under ``strict: true`` (FT-5) a seat
  passes exactly when nothing in its hand fits, so every card that fitted at one of its
  passes is not in its hand from then on. The information-state tensor, the resampler
  and the vector environment use it.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Any

import numpy as np

from parlour import cards
from parlour.envs.encoding import Codec, Pending
from parlour.envs.kit import EnvParts
from parlour.envs.observation import (
    Field,
    ObservationEncoder,
    common,
    planes,
    rel,
    rot,
    seat_fields,
)
from parlour.game import PASS, Move, Round
from parlour.games.fantan.rules import (
    SEVEN,
    SEVEN_OF_DIAMONDS,
    SEVENS,
    UNLOCKS,
    deal_seat,
    max_round_moves,
    rows_json,
)
from parlour.match import Match

ACTIONS = 53
PASS_CAP = 52
BEHIND_CAP = 100
GAP_CAP = 8
"""``pass_gap`` saturates at ``GAP_CAP * players`` passes between two plays (only
withholding under ``strict: false`` gets there; strict rules allow fewer than ``players``)."""


class FanTanCodec(Codec):
    """Fan Tan: the action id is the move (52 cards, then pass)."""

    num_actions = ACTIONS

    def legal_actions(self, rnd: Round, pending: Pending | None) -> list[int]:
        return rnd.legal_moves()

    def decode(self, rnd: Round, pending: Pending | None,
               action: int) -> tuple[Pending | None, Move | None]:
        reason = rnd.why_illegal(action) if 0 <= action < ACTIONS else "no such action"
        if reason is not None:
            raise ValueError(f"action {action} is illegal: {reason}")
        return None, action

    def encode(self, rnd: Round, move: Move) -> list[int]:
        return [move]

    def action_name(self, action: int) -> str:
        return "pass" if action == PASS else f"play {cards.code(action)}"


def voids(players: int, rules: dict[str, Any], history: Sequence[tuple[int, Move]]) -> list[int]:
    """Per seat, the mask of cards the seat is known not to hold (FT-5, strict only)."""
    out = [0] * players
    if not rules["strict"]:
        return out
    unlock = UNLOCKS[rules["ace"] == "high"]
    any_seven = rules["opening"] == "any-seven"
    table = 0
    playable = SEVENS
    for seat, move in history:
        if move == PASS:
            out[seat] |= playable if table or any_seven else 1 << SEVEN_OF_DIAMONDS
            continue
        bit = 1 << move
        table |= bit
        playable = (playable ^ bit) | unlock[move]
    return out


def playable(table: int, rules: dict[str, Any]) -> int:
    """The cards that fit the table now (FT-3, FT-4), whoever holds them."""
    return _playable(table, rules["ace"] == "high", rules["opening"] == "any-seven")


@lru_cache(maxsize=1 << 14)
def _playable(table: int, ace_high: bool, any_seven: bool) -> int:
    if table == 0:
        return SEVENS if any_seven else 1 << SEVEN_OF_DIAMONDS
    fits = 0
    for suit in range(4):
        row = table >> (13 * suit) & 0x1FFF
        if ace_high:  # rank order 2..K, A: rotate the Ace above the King
            row = (row >> 1) | ((row & 1) << 12)
        if row == 0:
            ends = 1 << (SEVEN - 1 if ace_high else SEVEN)
        else:
            low = (row & -row).bit_length() - 1
            high = row.bit_length() - 1
            ends = (1 << (low - 1) if low > 0 else 0) | (1 << (high + 1) if high < 12 else 0)
        if ace_high:
            ends = ((ends << 1) | (ends >> 12)) & 0x1FFF
        fits |= ends << (13 * suit)
    return fits


class FanTanObservation(ObservationEncoder):
    """Fan Tan: hand, table, what fits, counts, passes, seats, rules."""

    def _fields(self, n: int, info_state: bool) -> list[Field]:
        most = -(-52 // n)
        fields = [
            Field("hand", (52,), "1 for each card in my hand (card = suit*13 + rank)"),
            Field("table", (52,), "1 for each card on the table"),
            Field("playable", (52,), "1 for each card that fits the table now (FT-3, FT-4)"),
            Field("hand_counts", (n,), f"cards in each hand / {most}"),
            Field("passes", (n,), f"passes this round / {PASS_CAP} (saturates)"),
            *seat_fields(n, f"min(gap, {BEHIND_CAP}) / {BEHIND_CAP}"),
            Field("rules", (4,), "ace high, any-seven opening, chips stakes, strict false"),
        ]
        if info_state:
            fields += [
                Field("played_by", (n, 52), "1 where that seat played that card this round"),
                Field("void", (n, 52), "1 where that seat is known not to hold that card "
                                       "(it passed while the card fitted, strict rules)"),
                Field("play_order", (52,), "(k + 1) / 52 for the k-th card played this round "
                                           "(from 0); 0 if not played"),
                Field("pass_gap", (52,), f"passes made just before that card was played, / "
                                         f"{GAP_CAP * n} (saturates)"),
            ]
        return fields

    def _encode(self, match: Match, seat: int, pending: Pending | None,
                out: np.ndarray) -> None:
        n = self.players
        rnd = match.rounds[-1]
        v = rnd.view(seat)
        rules = v.rules
        o = self.offsets
        fits = 0 if rnd.is_over else playable(v.table, rules)
        planes(out, o["hand"], [v.hand, v.table, fits])
        most = -(-52 // n)
        at = o["hand_counts"]
        out[at:at + n] = [c / most for c in rot(v.hand_counts, seat)]
        at = o["passes"]
        out[at:at + n] = [min(p, PASS_CAP) / PASS_CAP for p in rot(v.passes, seat)]
        common(out, o, match, seat, v.current_player, v.dealer, BEHIND_CAP)
        flags = (rules["ace"] == "high", rules["opening"] == "any-seven",
                 rules["stakes"] == "chips", not rules["strict"])
        out[o["rules"]:o["rules"] + 4] = flags
        if self.info_state:
            played = [0] * n
            order, gap_at = o["play_order"], o["pass_gap"]
            k = gap = 0
            cap = GAP_CAP * n
            for s, m in v.history:
                if m == PASS:
                    gap += 1
                    continue
                played[rel(seat, s, n)] |= 1 << m
                k += 1
                out[order + m] = k / 52
                out[gap_at + m] = min(gap, cap) / cap
                gap = 0
            planes(out, o["played_by"], played)
            planes(out, o["void"], rot(voids(n, rules, v.history), seat))


def _view_lines(view: Any) -> list[str]:
    return [f"passes {list(view.passes)}"]


def _table_lines(view: Any) -> list[str]:
    n = view.players
    lines = [f"  {suit}: {' '.join(row) if row else '-'}"
             for suit, row in rows_json(view.table, view.rules["ace"] == "high").items()]
    lines.append("  cards in hand: " + ", ".join(
        f"seat {s} {view.hand_counts[s]} (passes {view.passes[s]})" for s in range(n)))
    return lines


def _round_length(players: int, rules: dict[str, Any], turn_limit: int) -> int:
    """Strict rules bound a round at 52 plays and fewer than ``players`` passes between
    two plays; otherwise FT-11 bounds it (:func:`.rules.max_round_moves`); a lower turn
    limit, if any, is the bound."""
    most = 52 * players if rules["strict"] else max_round_moves(players)
    return min(most, turn_limit or most)


ENV = EnvParts(
    codec=FanTanCodec(),
    encoder=FanTanObservation,
    gym_id="parlour/FanTan-v0",
    aec_name="fantan_v0",
    deal_seat=deal_seat,
    dealt=lambda rnd: 52,
    voids=voids,
    view_lines=_view_lines,
    table_lines=_table_lines,
    card_text=cards.code,
    round_length=_round_length,
    spiel_params={"turn_limit": 1000},
    vector="parlour.games.fantan.vector",
)
