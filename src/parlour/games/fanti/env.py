"""Fanti's pieces for the research environments (``ENV``, :mod:`parlour.envs.kit`).

**Actions** (105): a play is a card and, when it can collect, one collection (FA-5,
FA-6). The collections of one card can be too many to number in advance, so a move is
chosen in steps, all by the same seat:

1. ``0..51``: the card to play. Every card in hand is legal. When that card has only
   one legal move (a discard, a single Ace, the Guardian sweep, one sum) the move is
   made at once.
2. Otherwise the seat picks the collection one table card at a time, in ascending card
   order: ``52 + c`` (:data:`TAKE_BASE`) takes table card ``c`` next; ``104``
   (:data:`STOP`) ends the collection where it is (only needed when a collection is a
   subset of another, e.g. an Ace taking one Ace or a set making 11 with that Ace). As
   soon as a single collection remains consistent with the cards chosen so far it is
   made.

Each legal move has exactly one path of action ids and every masked-in id leads to at
least one legal move. The play in progress (:class:`parlour.envs.encoding.Pending`) is
public: everyone sees the card played and what it takes (FA-7).

**Observation** (:class:`FantiObservation`): hand, table, every collected pile (FA-7),
the unseen cards, counts, the undealt deck, the last collector (FA-8), the play in
progress. With ``info_state`` (perfect recall of the round) also who played each card,
in which order, and by which play each collected card was taken: seats move in turn,
so these give back the round's whole public history.
"""

from __future__ import annotations

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
from parlour.game import Move, Round, move_card, move_take, play
from parlour.games.fanti.rules import FANTI, collections, deal_number, deal_seat, pack_mask
from parlour.match import Match

ACTIONS = 105
TAKE_BASE = 52
"""Action ``TAKE_BASE + c`` takes table card ``c``."""
STOP = 104
"""End the collection with the cards chosen so far."""
STEPS_PER_PLAY = 9
"""Most actions one play can take: the card, up to 7 table cards, stop."""
BEHIND_CAP = 25


def _next_ids(pending: Pending) -> list[int]:
    ids = set()
    for take in pending.candidates:
        rest = take & ~pending.chosen
        ids.add(STOP if rest == 0 else TAKE_BASE + (rest & -rest).bit_length() - 1)
    return sorted(ids)


class FantiCodec(Codec):
    """Fanti: the card first, then the collection card by card (module docstring)."""

    num_actions = ACTIONS

    def _takes(self, rnd: Round, card: int) -> list[int]:
        return collections(card, rnd.table, rnd.rules["guardian_takes_guardians"]) or [0]

    def legal_actions(self, rnd: Round, pending: Pending | None) -> list[int]:
        if rnd.is_over:
            return []
        if pending is None:
            return list(cards.iter_cards(rnd.hand(rnd.current_player)))
        return _next_ids(pending)

    def decode(self, rnd: Round, pending: Pending | None,
               action: int) -> tuple[Pending | None, Move | None]:
        if rnd.is_over:
            raise ValueError("the round is over")
        if pending is None:
            if not (0 <= action < 52 and rnd.hand(rnd.current_player) >> action & 1):
                raise ValueError(f"action {action} is illegal: play a card from the hand")
            takes = self._takes(rnd, action)
            if len(takes) == 1:
                return None, play(action, takes[0])
            return Pending(action, 0, -1, tuple(takes)), None
        if action not in _next_ids(pending):
            raise ValueError(f"action {action} is illegal: choose one of {_next_ids(pending)}")
        if action == STOP:
            return None, play(pending.card, pending.chosen)
        c = action - TAKE_BASE
        chosen = pending.chosen | (1 << c)
        below = (1 << (c + 1)) - 1
        left = tuple(t for t in pending.candidates if t & below == chosen)
        if len(left) == 1:
            return None, play(pending.card, left[0])
        return Pending(pending.card, chosen, c, left), None

    def encode(self, rnd: Round, move: Move) -> list[int]:
        card, take = move_card(move), move_take(move)
        path = [card]
        pending, done = self.decode(rnd, None, card)
        while done is None:
            assert pending is not None
            rest = take & ~pending.chosen
            action = STOP if rest == 0 else TAKE_BASE + (rest & -rest).bit_length() - 1
            path.append(action)
            pending, done = self.decode(rnd, pending, action)
        if done != move:
            raise ValueError(f"not a legal move here: {move}")
        return path

    def action_name(self, action: int) -> str:
        if action < 52:
            return f"play {cards.code(action)}"
        if action == STOP:
            return "stop"
        return f"take {cards.code(action - TAKE_BASE)}"


class FantiObservation(ObservationEncoder):
    """Fanti: hand, table, every collected pile, what is unseen, the play in progress."""

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
            *seat_fields(n, f"min(gap, {BEHIND_CAP}) / {BEHIND_CAP}"),
            Field("pending_card", (52,), "the card being played while its collection is "
                                         "chosen step by step (games/fanti/env.py)"),
            Field("pending_take", (52,), "the table cards chosen so far for it"),
            Field("rules", (2,), "ties shared, guardian_takes_guardians false"),
        ]
        if info_state:
            fields += [
                Field("played_by", (n, 52), "1 where that seat played that card this round"),
                Field("play_order", (52,), "(k + 1) / 48 for the k-th card played this round "
                                           "(from 0); 0 if not played"),
                Field("taken_at", (52,), "(k + 1) / 49 for a card collected by the k-th play; "
                                         "1 for the leftovers given to the last collector "
                                         "(FA-8); 0 if not collected"),
            ]
        return fields

    def _encode(self, match: Match, seat: int, pending: Pending | None,
                out: np.ndarray) -> None:
        n = self.players
        rnd = match.rounds[-1]
        v = rnd.view(seat)
        o = self.offsets
        piles = rot(v.piles, seat)
        seen = v.hand | v.table
        for p in piles:
            seen |= p
        planes(out, o["hand"], [v.hand, v.table, *piles, pack_mask(v.rules) & ~seen])
        at = o["hand_counts"]
        out[at:at + n] = [c / 4 for c in rot(v.hand_counts, seat)]
        out[o["deck_left"]] = v.deck_left / 48
        if v.last_collector >= 0:
            out[o["last_collector"] + rel(seat, v.last_collector, n)] = 1.0
        common(out, o, match, seat, v.current_player, v.dealer, BEHIND_CAP)
        if pending is not None:
            planes(out, o["pending_card"], [1 << pending.card, pending.chosen])
        out[o["rules"]] = v.rules["ties"] == "shared"
        out[o["rules"] + 1] = not v.rules["guardian_takes_guardians"]
        if self.info_state:
            played = [0] * n
            order, taken_at = o["play_order"], o["taken_at"]
            collected = 0
            for k, (s, m) in enumerate(v.history):
                c, take = move_card(m), move_take(m)
                played[rel(seat, s, n)] |= 1 << c
                out[order + c] = (k + 1) / 48
                if take:
                    collected |= take | 1 << c
                    for t in cards.iter_cards(take):
                        out[taken_at + t] = (k + 1) / 49
            leftovers = 0
            for p in v.piles:
                leftovers |= p
            for t in cards.iter_cards(leftovers & ~collected):
                out[taken_at + t] = 1.0
            planes(out, o["played_by"], played)


def _view_lines(view: Any) -> list[str]:
    return [*(f"pile {s} {' '.join(cards.codes(p)) or '-'}" for s, p in enumerate(view.piles)),
            f"deck left {view.deck_left} last collector {view.last_collector}"]


def _table_lines(view: Any) -> list[str]:
    table = " ".join(FANTI.card_name(c) for c in cards.iter_cards(view.table))
    return [f"  table: {table or '-'}",
            "  collected: " + ", ".join(f"seat {s} {view.piles[s].bit_count()}"
                                        for s in range(view.players))
            + f"; deck left {view.deck_left}"]


ENV = EnvParts(
    codec=FantiCodec(),
    encoder=FantiObservation,
    gym_id="parlour/Fanti-v0",
    aec_name="fanti_v0",
    deal_seat=deal_seat,
    dealt=lambda rnd: rnd.dealt,
    deal_number=deal_number,
    view_lines=_view_lines,
    table_lines=_table_lines,
    card_text=FANTI.card_name,
    private_fields=("hand", "unseen"),
    round_length=lambda players, rules, turn_limit: 48 * STEPS_PER_PLAY,
    vector="parlour.games.fanti.vector",
)
