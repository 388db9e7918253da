"""OpenSpiel observers: strings and tensors of one player's information.

Two kinds, as OpenSpiel asks for them with ``IIGObservationType``:

* **observation** (``perfect_recall=False``): the tensor is the shared observation
  vector (:mod:`.observation`); the string is the same view in words.
* **information state** (``perfect_recall=True``): the string is the player's whole
  history -- for every round its dealer, the cards dealt face up, the cards it was
  dealt (per deal), every public move and the score -- plus a play in progress. ISMCTS keys its
  tree on this string. The tensor is perfect recall of the whole game too: one block per
  round of the rules (``rounds`` blocks, a fixed size for the game instance); block 0 is
  the round in play -- the observation vector plus a fixed-size summary of the round's
  history (each game's ``info_state`` fields: who played each card, in which order, and
  in Fan Tan the passes between and which cards each seat is proven not to hold) -- and
  block ``1 + j`` is finished round ``j`` encoded the same way as the player saw it at
  its end (its dealer, the cards left in its hand, every play), zeros until it is over.

Three kinds of private information, as OpenSpiel's ``IIGObservationType`` names them:

* ``SINGLE_PLAYER`` (the default): the observing player's own, as above;
* ``NONE`` (public information only): the same tensors and strings from seat 0's
  side with the fields that hold the observer's hidden cards left at zero (the env
  part's ``private_fields``: the hand, and Fanti's ``unseen``) and no hand in the
  string, so every player gets the same public observation;
* ``ALL_PLAYERS``: every seat's tensor one after the other (seat 0 first, each in its
  own relative order) and every seat's string: the whole state as the players see it.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pyspiel

from parlour import cards
from parlour.envs.kit import env_parts
from parlour.envs.spiel_state import Spec, SpielCore
from parlour.game import move_card
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


def cut_pack_dealt(rnd: Any, seat: int) -> tuple[int, int]:
    """A cut pack's one deal (FT-12, FA-11) as ``(dealt to seat, face up)``: a seat was
    dealt its hand and the cards it has played; the face-up cards are the pack's others
    that no seat holds or played (what the deal laid on the table)."""
    played = [0] * rnd.players
    for s, move in rnd.history:
        if move_card(move) < 52:
            played[s] |= 1 << move_card(move)
    held = 0
    for s in range(rnd.players):
        held |= rnd.hand(s) | played[s]
    return rnd.hand(seat) | played[seat], rnd.game.pack(rnd.rules) & ~held


def info_state_string(core: SpielCore, player: int) -> str:
    """Everything ``player`` has seen, in order (see the module docstring)."""
    spec = core.spec
    m = core.match
    parts = [f"seat {player} of {spec.players}"]
    if m is None:
        return parts[0]
    game = m.game
    for k, rnd in enumerate(m.rounds):
        parts.append(f"round {k + 1} dealer {rnd.dealer}")
        if spec.grouped:
            me, up = cut_pack_dealt(rnd, player)
            mine, face_up = [me], [up] if up else []
        else:
            upto = spec.parts.dealt(rnd)
            mine = dealt_to(game.name, m.players, rnd.dealer, rnd.deck, player, upto)
            face_up = dealt_to(game.name, m.players, rnd.dealer, rnd.deck, -1, upto)
        if face_up:
            parts.append(f"opening table {_cards(face_up[0])}")
        parts.append("dealt me " + " | ".join(_cards(x) for x in mine))
        parts.append("moves " + " ".join(f"{s}:{game.format_move(x)}" for s, x in rnd.history))
        score = rnd.score()
        if score is not None:
            parts.append(f"score {score}")
    if core.deck and spec.grouped:
        parts.append(f"dealing, {len(core.deck)} cards drawn")
    elif core.deck:
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
        kind = PRIVATE.SINGLE_PLAYER if iig_obs_type is None else iig_obs_type.private_info
        if iig_obs_type is not None and not iig_obs_type.public_info:
            raise ValueError("an observer without public information is not supported")
        self.perfect_recall = perfect_recall
        self.kind = kind
        self.players = spec.players
        self.encoder = encoder_for(spec.game.name, spec.players, info_state=perfect_recall)
        size = self.encoder.size
        self.blocks = int(spec.rules["rounds"]) if perfect_recall else 1
        if self.blocks > 1:  # perfect recall of the earlier rounds too
            size *= self.blocks
        self.block = self.encoder.size
        if kind == PRIVATE.ALL_PLAYERS:
            self.tensor = np.zeros(size * spec.players, np.float32)
            self.dict = {f"seat_{s}": self.tensor[s * size:(s + 1) * size]
                         for s in range(spec.players)}
        else:
            self.tensor = np.zeros(size, np.float32)
            self.dict = {f.name: self.encoder.slice(self.tensor, f.name)
                         for f in self.encoder.fields}
            for j in range(1, self.blocks):
                self.dict[f"round_{j}"] = self.tensor[j * self.block:(j + 1) * self.block]
        self.private = [f for f in spec.parts.private_fields if f in self.encoder.offsets]

    def set_from(self, state: Any, player: int) -> None:
        core: SpielCore = state.core
        self.tensor.fill(0.0)
        if self.kind == PRIVATE.ALL_PLAYERS:
            size = self.tensor.size // self.players
            for s in range(self.players):
                self._encode(core, s, self.tensor[s * size:(s + 1) * size])
            return
        seat = 0 if self.kind == PRIVATE.NONE else player
        self._encode(core, seat, self.tensor)
        if self.kind == PRIVATE.NONE:
            for j in range(self.blocks):
                block = self.tensor[j * self.block:(j + 1) * self.block]
                for name in self.private:
                    self.encoder.slice(block, name)[...] = 0.0

    def _encode(self, core: SpielCore, seat: int, out: np.ndarray) -> None:
        """Block 0: the round in play; block ``1 + j``: finished round ``j`` at its end."""
        b = self.block
        self.encoder.encode(core.match, seat, core.pending, out=out[:b])
        m = core.match
        if self.blocks == 1 or m is None:
            return
        done = len(m.rounds) - (0 if m.rounds[-1].is_over else 1)
        for j in range(min(done, self.blocks - 1)):
            self.encoder.encode(_Upto(m, j + 1), seat, None, out=out[(j + 1) * b:(j + 2) * b])

    def string_from(self, state: Any, player: int) -> str:
        core: SpielCore = state.core
        text = info_state_string if self.perfect_recall else observation_string
        if self.kind == PRIVATE.ALL_PLAYERS:
            return "\n".join(text(core, s) for s in range(self.players))
        if self.kind == PRIVATE.NONE:
            return public_string(text(core, 0))
        return text(core, player)


PRIVATE = pyspiel.PrivateInfoType


class _Upto:
    """A match as it stood at the end of its first ``k`` rounds (what an encoder reads)."""

    def __init__(self, match: Match, k: int) -> None:
        self.game, self.rules, self.players = match.game, match.rules, match.players
        self.rounds = match.rounds[:k]
        totals = [0] * match.players
        for r in self.rounds:
            for i, v in enumerate(r.score() or [0] * match.players):
                totals[i] += v
        self.totals = totals


def public_string(text: str) -> str:
    """Seat 0's string without what only seat 0 knows (its hand, what it was dealt)."""
    keep = []
    for line in text.split("\n"):
        if line.startswith(("hand ", "dealt me")) and not line.startswith("hand counts"):
            continue
        if line.startswith("seat 0 "):
            line = "public " + line[len("seat 0 "):]
        keep.append(line.split(", mine so far")[0])
    return "\n".join(keep)
