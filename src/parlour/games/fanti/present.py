"""Fanti in the terminal: its card names, reading a card and what it takes, the table
with every collected pile, and the notes a move brings (RULINGS FA-1, FA-3, FA-5 .. FA-8).

Cards show their Fanti names (Guardian, Mystic, Scout for J, Q, K; Leaf and Star for
clubs and diamonds) and, where the player reads what to type, the standard code in grey.
A move is typed as a card and what it takes: ``5c 6h``, ``5c take 6h+4d``; a card alone
is enough when it has one way to play; ``5c discard`` puts it on the table.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from rich.console import Group, RenderableType
from rich.text import Text

from parlour import cards, speech
from parlour.cards import Card
from parlour.game import Move, move_card, move_take, play
from parlour.games.fanti import names as fanti_names
from parlour.games.fanti.rules import FANTI, LEAVES, TEN_OF_DIAMONDS, TWO_OF_CLUBS, FantiView
from parlour.present import PIECE, BadInput, Presenter, fill, seat_cells, seats_table
from parlour.speech import say

_RANK_LETTER = re.compile(r"([gms])([cdhs♣♦♥♠])", re.IGNORECASE)
_LETTER_RANK = {v.lower(): cards.RANKS[k] for k, v in fanti_names.RANK_LETTERS.items()}
_DISCARD = frozenset({"discard", "table", "drop"})


class FantiPresenter(Presenter):
    def rules_outline(self) -> list[tuple[str, str]]:
        r = "rules.fanti."
        return [("h", r + "title"), ("p", r + f"lead.{speech.current().cards}"),
                ("h", r + "cards"), ("p", r + "values"), ("h", r + "deal"),
                ("p", r + "deal.text"), ("h", r + "collecting"), ("p", r + "collecting.text"),
                *[("li", r + f"rule.{k}") for k in ("number", "ace", "scout", "guardian",
                                                    "nothing")],
                ("h", r + "last"), ("p", r + "ex5.caption"), ("h", r + "scoring"),
                ("p", r + "tie"), ("h", r + "game"), ("p", r + "game.text")]

    def rules_params(self) -> dict[str, str]:
        return {"guardian": speech.rank_name(cards.JACK), "mystic": speech.rank_name(cards.QUEEN),
                "scout": speech.rank_name(cards.KING), "leaf": speech.suit_name(cards.CLUBS),
                "star": speech.suit_name(cards.DIAMONDS)}
    show_codes = True

    def card_name(self, c: Card) -> str:
        return fanti_names.name(c)

    def styled(self, key: str) -> str:
        """Leaf cards are "clubs" in the classic names: those words have a key per style."""
        return f"{key}.{speech.current().cards}" if "leaves" in key else key

    def hand_text(self, hand: int) -> Text:
        """A hand as names with codes (names differ from what is typed)."""
        return self.cards_text(hand, codes=True, sep="   ")

    def move_text(self, move: Move, codes: bool = False, you: bool = False) -> Text:
        """``plays Leaf 5, takes 6 ♥``; ``plays 3 ♠ to the table``; a Guardian sweeps."""
        who = "you" if you else "they"
        c, take = move_card(move), move_take(move)
        if take:
            verb = "sweep" if cards.rank_of(c) == cards.JACK else "take"
            words = say(f"fanti.move.{verb}.{who}", card=PIECE[0], taken=PIECE[1])
        else:
            words = say(f"fanti.move.discard.{who}", card=PIECE[0])
        return fill(words, self.card_text(c, codes), self.cards_text(take, codes))

    def option_text(self, move: Move, pass_note: str = "") -> Text:
        c, take = move_card(move), move_take(move)
        t = self.card_text(c, codes=True)
        if take:
            t.append(" → ").append_text(fill(say("fanti.option.take", taken=PIECE[0]),
                                             self.cards_text(take, codes=True, sep=" + ")))
        else:
            t.append(" → " + say("fanti.option.discard"), style="dim")
        return t

    def move_notes(self, before: Any, move: Move, after: Any,
                   names: Sequence[str]) -> list[Text]:
        """A new deal of 4 cards each (FA-3); at the round's end, the cards left on the
        table going to the last collector (FA-8)."""
        notes = []
        if after.deck_left < before.deck_left:
            notes.append(Text(say("fanti.note.new_deal", count=after.deck_left),
                              style="italic"))
        if after.current_player < 0:
            c, take = move_card(move), move_take(move)
            left = before.table & ~take if take else before.table | 1 << c
            if left and after.last_collector >= 0:
                notes.append(Text(say("fanti.note.last_collector", count=left.bit_count(),
                                      name=names[after.last_collector]), style="italic"))
        return notes

    # --- reading typed moves -------------------------------------------------------

    def help_line(self) -> str:
        return say("fanti.help")

    def card_words(self, text: str) -> str:
        """The Fanti marks ``🍃`` (Leaf) and ``★`` (Star) and the rank letters G, M, S
        (FA-1) as standard card text: ``G★`` is the Jack of diamonds."""
        t = text.strip().replace("🍃", "C").replace("★", "D")
        if m := _RANK_LETTER.fullmatch(t):
            t = _LETTER_RANK[m.group(1).lower()] + m.group(2)
        return t

    def read_rest(self, view: Any, card: Card, rest: list[str]) -> Move:
        """What the card takes (FA-5, FA-6): named cards, ``discard``, or nothing when
        the card has one way to play."""
        if len(rest) == 1 and rest[0].lower() in _DISCARD:
            return play(card, 0)
        if rest:
            return play(card, cards.mask_of(self.parse_card(w) for w in rest))
        legal = list(view.legal)
        ways = [m for m in legal if move_card(m) == card]
        if len(ways) == 1:
            return ways[0]
        numbers = ", ".join(str(legal.index(m) + 1) for m in ways)
        raise BadInput(say("fanti.bad.ways", count=len(ways), code=cards.code(card),
                           numbers=numbers, typed=cards.code(card).lower()))

    # --- the table and scores ------------------------------------------------------

    def table(self, view: Any, names: Sequence[str]) -> RenderableType:
        """The public table (FA-7): the table cards, each seat's collected pile, the deck."""
        top = Text(say("fanti.table.table") + " ", style="bold").append_text(
            self.cards_text(view.table, codes=True))
        seats = seats_table(say("fanti.table.hand"), say("fanti.table.collected"),
                            say(f"fanti.table.leaves.{speech.current().cards}") + " 🍃",
                            say("fanti.table.specials"))
        for s in range(view.players):
            pile = view.piles[s]
            special = Text(" ").join(
                self.card_text(c) for c in (TWO_OF_CLUBS, TEN_OF_DIAMONDS) if pile >> c & 1)
            marker, label = seat_cells(names, s, view)
            if s == view.last_collector:
                label.append(" " + say("fanti.table.collected_last"), style="dim")
            seats.add_row(marker, label, str(view.hand_counts[s]), str(pile.bit_count()),
                          str((pile & LEAVES).bit_count()), special)
        deck = Text(say("fanti.table.deck", count=view.deck_left), style="dim")
        return Group(top, Text(), seats, deck)

    def view_from_json(self, data: dict[str, Any]) -> FantiView:
        """A server view (``FantiView.to_json()``) as a view again."""
        game = self.game
        last = data["last_collector"]
        return FantiView(
            seat=data["seat"] if data["seat"] is not None else -1,
            players=data["players"], dealer=data["dealer"], rules=dict(data["rules"]),
            hand=cards.mask_from_codes(data["hand"]),
            table=cards.mask_from_codes(data["table"]),
            piles=tuple(cards.mask_from_codes(p) for p in data["piles"]),
            hand_counts=tuple(data["hand_counts"]), deck_left=data["deck_left"],
            last_collector=last if last is not None else -1,
            history=tuple((m["seat"], game.move_from_json(
                {k: v for k, v in m.items() if k != "seat"})) for m in data["moves"]),
            current_player=data["current_player"],
            legal=tuple(game.move_from_json(m) for m in data["legal"]),
            score=tuple(data["score"]) if data["score"] is not None else None)


PRESENTER = FantiPresenter(FANTI)
