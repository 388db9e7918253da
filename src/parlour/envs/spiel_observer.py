"""OpenSpiel observers: strings and tensors of one player's information.

Two kinds, as OpenSpiel asks for them with ``IIGObservationType``:

* **observation** (``perfect_recall=False``): the tensor is the shared observation
  vector (:mod:`.observation`); the string is the same view in words.
* **information state** (``perfect_recall=True``): the string is the player's whole
  history -- for every round its dealer, the cards dealt face up, the cards it was
  dealt (per deal), every public move and the score -- plus a play in progress. ISMCTS keys its
  tree on this string. The tensor is the observation vector plus a fixed-size summary
  of the round's history (each game's ``info_state`` fields: who played each card,
  and in Fan Tan which cards each seat is proven not to hold).

Only the observing player's private information is ever included
(``PrivateInfoType.SINGLE_PLAYER``); other private-information types are refused.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pyspiel

from parlour import cards
from parlour.envs.kit import env_parts
from parlour.envs.spiel_state import Spec, SpielCore
from parlour.match import Match


def _cards(mask: int) -> str:
    return " ".join(cards.codes(mask)) or "-"


def dealt_to(game: str, n: int, dealer: int, deck: list[int] | tuple[int, ...],
             seat: int, upto: int) -> list[int]:
    """The cards of ``deck[:upto]`` dealt to ``seat`` (-1: face up), one mask per deal."""
    parts = env_parts(game)
    out: list[int] = []
    for i in range(upto):
        if parts.deal_seat(n, dealer, i) != seat:
            continue
        b = parts.deal_number(n, i)
        while len(out) <= b:
            out.append(0)
        out[b] |= 1 << deck[i]
    return out


def info_state_string(core: SpielCore, player: int) -> str:
    """Everything ``player`` has seen, in order (see the module docstring)."""
    spec = core.spec
    m = core.match
    parts = [f"seat {player} of {spec.players}"]
    if m is None:
        return parts[0]
    game = m.game
    for k, rnd in enumerate(m.rounds):
        upto = spec.parts.dealt(rnd)
        mine = dealt_to(game.name, m.players, rnd.dealer, rnd.deck, player, upto)
        parts.append(f"round {k + 1} dealer {rnd.dealer}")
        face_up = dealt_to(game.name, m.players, rnd.dealer, rnd.deck, -1, upto)
        if face_up:
            parts.append(f"opening table {_cards(face_up[0])}")
        parts.append("dealt me " + " | ".join(_cards(x) for x in mine))
        parts.append("moves " + " ".join(f"{s}:{game.format_move(x)}" for s, x in rnd.history))
        score = rnd.score()
        if score is not None:
            parts.append(f"score {score}")
    if core.deck:
        nxt = m.next_dealer
        mine = dealt_to(game.name, m.players, nxt, core.deck, player, len(core.deck))
        parts.append(f"dealing card {len(core.deck)}, mine so far "
                     + " | ".join(_cards(x) for x in mine))
    if core.pending is not None:
        parts.append(f"choosing {cards.code(core.pending.card)} "
                     f"taking {_cards(core.pending.chosen)}")
    if core.truncated:
        parts.append("stopped at the turn limit")
    return "\n".join(parts)


def observation_string(core: SpielCore, player: int) -> str:
    """What ``player`` sees now (no history)."""
    m: Match | None = core.match
    if m is None or not m.rounds:
        return f"seat {player}: before the deal"
    rnd = m.rounds[-1]
    v = rnd.view(player)
    parts = [f"seat {player} round {len(m.rounds)}/{m.rules['rounds']} dealer {v.dealer} "
             f"totals {m.totals}",
             f"hand {_cards(v.hand)}", f"table {_cards(v.table)}",
             f"hand counts {list(v.hand_counts)}"]
    parts += core.spec.parts.view_lines(v)
    parts.append(f"to move {v.current_player}")
    if core.pending is not None:
        parts.append(f"choosing {cards.code(core.pending.card)} "
                     f"taking {_cards(core.pending.chosen)}")
    if core.deck:
        parts.append(f"dealing card {len(core.deck)}")
    return "\n".join(parts)


class ParlourObserver:
    """An OpenSpiel ``PyObserver``: ``tensor``, ``dict``, ``set_from``, ``string_from``."""

    def __init__(self, spec: Spec, iig_obs_type: Any, params: Any) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported: {params}")
        from parlour.envs.observation import encoder_for

        perfect_recall = bool(iig_obs_type.perfect_recall) if iig_obs_type else False
        if iig_obs_type is not None and (
                iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER
                or not iig_obs_type.public_info):
            raise ValueError("only public information plus the observing player's own "
                             "private information is supported")
        self.perfect_recall = perfect_recall
        self.encoder = encoder_for(spec.game.name, spec.players, info_state=perfect_recall)
        self.tensor = np.zeros(self.encoder.size, np.float32)
        self.dict = {f.name: self.encoder.slice(self.tensor, f.name) for f in self.encoder.fields}

    def set_from(self, state: Any, player: int) -> None:
        core: SpielCore = state.core
        self.tensor.fill(0.0)
        self.encoder.encode(core.match, player, core.pending, out=self.tensor)

    def string_from(self, state: Any, player: int) -> str:
        core: SpielCore = state.core
        if self.perfect_recall:
            return info_state_string(core, player)
        return observation_string(core, player)
