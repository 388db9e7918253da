"""Action encodings: engine moves as small fixed sets of action ids.

Every research interface (PettingZoo, Gymnasium, OpenSpiel) speaks these ids, so a
policy trained on one runs on the others.

**Fan Tan** (53 actions): the action id *is* the engine move -- card ``0..51``
(``suit * 13 + rank``, :mod:`parlour.cards`) or ``52`` for a pass.

**Fanti** (105 actions): a play is a card and, when it can collect, one collection
(FA-5, FA-6). A table can hold so many cards that the collections of one card are
too many to number in advance, so a move is chosen in steps, all by the same seat:

1. ``0..51``: the card to play. Every card in hand is legal. When that card has only
   one legal move (a discard, a single Ace, the Guardian sweep, one sum) the move is
   made at once.
2. Otherwise the seat picks the collection one table card at a time, in ascending
   card order: ``52 + c`` takes table card ``c`` next; ``104`` ("stop") ends the
   collection where it is (only needed when a collection is a subset of another,
   e.g. an Ace taking one Ace or a set that makes 10 with that Ace). As soon as a
   single collection remains consistent with the cards chosen so far it is made.

Each legal move has exactly one path of action ids and every masked-in id leads to at
least one legal move, so the mask never offers an illegal action and never hides a
legal move. :class:`Pending` holds the choice in progress; it is public information
(everyone sees the card played and what it takes), and it is immutable, so copying a
state copies it by reference.
"""

from __future__ import annotations

from dataclasses import dataclass

from parlour import cards
from parlour.game import PASS, Move, Round, move_card, move_take, play
from parlour.games.fanti.rules import collections

FANTAN_ACTIONS = 53
FANTI_ACTIONS = 105
TAKE_BASE = 52
"""Fanti: action ``TAKE_BASE + c`` takes table card ``c``."""
STOP = 104
"""Fanti: end the collection with the cards chosen so far."""


@dataclass(frozen=True)
class Pending:
    """A Fanti play half chosen: the card, the table cards chosen so far, the last of
    them (``-1`` before the first) and the collections still possible."""

    card: int
    chosen: int
    last: int
    candidates: tuple[int, ...]


class Codec:
    """How one game's moves map to action ids. Subclasses: :class:`FanTanCodec`,
    :class:`FantiCodec`; use :func:`codec_for`."""

    num_actions: int

    def legal_actions(self, rnd: Round, pending: Pending | None) -> list[int]:
        """The legal action ids of the seat to move, ascending."""
        raise NotImplementedError

    def decode(self, rnd: Round, pending: Pending | None,
               action: int) -> tuple[Pending | None, Move | None]:
        """Apply one action id: ``(pending, None)`` while the choice goes on, or
        ``(None, move)`` once it names a whole engine move. Raises ``ValueError`` for
        an id that is not legal now."""
        raise NotImplementedError

    def encode(self, rnd: Round, move: Move) -> list[int]:
        """The action ids that make ``move`` (a legal engine move) from no pending
        choice."""
        raise NotImplementedError

    def action_name(self, action: int) -> str:
        """A short unique text for an action id (``play 7D``, ``take 4C``, ``pass``)."""
        raise NotImplementedError


class FanTanCodec(Codec):
    """Fan Tan: the action id is the move (52 cards, then pass)."""

    num_actions = FANTAN_ACTIONS

    def legal_actions(self, rnd: Round, pending: Pending | None) -> list[int]:
        return rnd.legal_moves()

    def decode(self, rnd: Round, pending: Pending | None,
               action: int) -> tuple[Pending | None, Move | None]:
        reason = rnd.why_illegal(action) if 0 <= action < FANTAN_ACTIONS else "no such action"
        if reason is not None:
            raise ValueError(f"action {action} is illegal: {reason}")
        return None, action

    def encode(self, rnd: Round, move: Move) -> list[int]:
        return [move]

    def action_name(self, action: int) -> str:
        return "pass" if action == PASS else f"play {cards.code(action)}"


def _next_ids(pending: Pending) -> list[int]:
    ids = set()
    for take in pending.candidates:
        rest = take & ~pending.chosen
        ids.add(STOP if rest == 0 else TAKE_BASE + (rest & -rest).bit_length() - 1)
    return sorted(ids)


class FantiCodec(Codec):
    """Fanti: the card first, then the collection card by card (module docstring)."""

    num_actions = FANTI_ACTIONS

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


_CODECS: dict[str, Codec] = {"fantan": FanTanCodec(), "fanti": FantiCodec()}


def codec_for(game_name: str) -> Codec:
    """The codec of a game (``"fantan"`` or ``"fanti"``)."""
    return _CODECS[game_name]
