"""What a game gives the research environments: its ``env`` part (:mod:`parlour.kit`).

A game package's ``env.py`` holds ``ENV``, an :class:`EnvParts`; PettingZoo, Gymnasium,
OpenSpiel, the resampler and the text picture read everything game-specific from it,
so a game with an ``env`` part gets every interface without a line changed here.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from parlour.cards import Card, Mask
from parlour.game import Move, Round
from parlour.games import get_kit

if TYPE_CHECKING:
    from parlour.envs.encoding import Codec
    from parlour.envs.observation import ObservationEncoder


def _no_voids(players: int, rules: dict[str, Any],
              history: Sequence[tuple[int, Move]]) -> list[Mask]:
    return [0] * players


@dataclass(frozen=True)
class EnvParts:
    """One game's pieces for the research environments."""

    codec: Codec
    """Action ids <-> engine moves (:mod:`parlour.envs.encoding`)."""
    encoder: Callable[[int, bool], ObservationEncoder]
    """``encoder(players, info_state)``: the observation layout (:mod:`.observation`)."""
    gym_id: str
    """The Gymnasium id, ``"parlour/Name-v0"``."""
    aec_name: str
    """The PettingZoo module name under :mod:`parlour.envs` (``"name_v0"``)."""
    deal_seat: Callable[[int, int, int], int]
    """``deal_seat(players, dealer, position)``: who deck card ``position`` goes to
    (-1: face up on the table); the rules module's own function."""
    dealt: Callable[[Round], int]
    """How many deck cards a round in play has dealt so far."""
    deal_number: Callable[[int, int], int] = lambda players, position: 0
    """``deal_number(players, position)``: which deal of the round a position is in."""
    voids: Callable[[int, dict[str, Any], Sequence[tuple[int, Move]]], list[Mask]] = _no_voids
    """``voids(players, rules, history)``: per seat, the cards the public record proves
    it does not hold; the resampler never deals them there."""
    private_fields: tuple[str, ...] = ("hand",)
    """The observation fields that depend on the observer's own hidden cards; OpenSpiel's
    public-information observer leaves them out (zeros)."""
    view_lines: Callable[[Any], list[str]] = lambda view: []
    """The game's own lines of a view in words (OpenSpiel observation strings)."""
    table_lines: Callable[[Any], list[str]] = lambda view: []
    """The public table drawn for ``render_mode="ansi"`` (FT-10, FA-7: no hidden card)."""
    card_text: Callable[[Card], str] = lambda c: ""
    """A card as a player reads it in the text picture."""
    round_length: Callable[[int, dict[str, Any], int], int] = lambda n, rules, limit: limit
    """``round_length(players, rules, turn_limit)``: most actions in a round (OpenSpiel)."""
    spiel_params: dict[str, Any] = field(default_factory=dict)
    """Extra OpenSpiel game parameters with their defaults (e.g. ``turn_limit``)."""
    vector: str | None = None
    """The module holding the game's compiled vector environment (``VECTOR``, a
    :class:`parlour.envs.vector.VectorGame`), imported only when one is made."""


def env_parts(game: str) -> EnvParts:
    """The env part of a game, or a ValueError saying the game has none."""
    parts: EnvParts = get_kit(game).need("env", "ENV", "the research environments")
    return parts
