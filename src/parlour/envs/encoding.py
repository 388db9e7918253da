"""Action encodings: engine moves as small fixed sets of action ids.

Every research interface (PettingZoo, Gymnasium, OpenSpiel, the vector environments)
speaks these ids, so a policy trained on one runs on the others. Each game's
:class:`Codec` lives in its ``env`` part (``games/<name>/env.py``, whose docstring says
what its ids mean); :func:`codec_for` finds it. A move that needs several choices (a
Fanti collection) is chosen in several actions by the same seat; :class:`Pending` holds
the choice in progress. It is public information and immutable, so copying a state
copies it by reference.
"""

from __future__ import annotations

from dataclasses import dataclass

from parlour.game import Move, Round


@dataclass(frozen=True)
class Pending:
    """A Fanti play half chosen: the card, the table cards chosen so far, the last of
    them (``-1`` before the first) and the collections still possible."""

    card: int
    chosen: int
    last: int
    candidates: tuple[int, ...]


class Codec:
    """How one game's moves map to action ids; use :func:`codec_for`."""

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


def codec_for(game_name: str) -> Codec:
    """The codec of a game (from its ``env`` part)."""
    from parlour.envs.kit import env_parts

    return env_parts(game_name).codec
