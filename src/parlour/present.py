"""How a game looks and reads in the terminal: the :class:`Presenter` of a game's kit.

A game package may provide ``present.py`` with ``PRESENTER``, a :class:`Presenter`
subclass instance; the command line, ``replay`` and the remote client ask
:func:`presenter` for it and never test a game's name. This base class is a complete
presenter for any game whose moves are "play a card" or "pass" (a game without a
``present`` part gets it as is): cards as ``7♦``, hands grouped by suit, the public
view as a list of its fields, typed moves as a menu number, a card or ``p``.

What a game overrides, as it needs:

* card words: :meth:`card_name` (plain text, default ``Game.card_name``),
  :attr:`show_codes` (print the standard code after a card whose name differs);
* reading typed moves: :meth:`read_rest`
  (what may follow the card), :meth:`card_words` (the game's own marks),
  :meth:`help_line`;
* drawing: :meth:`hand_text`, :meth:`move_text`, :meth:`option_text`,
  :meth:`move_notes`, :meth:`table`, :meth:`pass_note`, :meth:`pass_offer`,
  :meth:`score_caption`
  (a round's result is drawn generically from ``Round.score_detail()``, by
  :func:`parlour.render.round_result`);
* the remote client: :meth:`view_from_json` (a server view back into the game's view
  object, so a remote game is drawn by the same code as a local one).

Every drawing method takes what one seat may see (a view, or a hand passed in
explicitly), so a screen for one seat cannot show another seat's cards (FT-10, FA-7).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from rich import box
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from parlour import cards
from parlour.cards import Card, Mask
from parlour.game import PASS, Game, Move, move_card
from parlour.speech import listing, number, say

SUIT_STYLES = ("green", "blue", "red", "bold")
"""Four-colour deck: clubs, diamonds, hearts, spades."""

PASS_WORDS = frozenset({"p", "pass"})
FILLER = frozenset({"take", "takes", "taking", "and", "with", "→", "->", "x"})
"""Words a player may put between a card and what it takes; they are skipped."""


class BadInput(ValueError):
    """Text that is not a move here; the message says why, in one line."""


class Presenter:
    """The terminal presentation of one game (see the module doc for what to override)."""

    show_codes = False
    """Whether a card's standard code follows its name where the player reads what to
    type (a game with its own card names sets this)."""

    def __init__(self, game: Game) -> None:
        self.game = game

    # --- cards ---------------------------------------------------------------------

    def card_name(self, c: Card) -> str:
        return self.game.card_name(c)

    def card_text(self, c: Card, codes: bool = False) -> Text:
        """One card in its suit's colour (and its code, with ``codes`` when the game
        shows codes)."""
        t = Text(self.card_name(c), style=SUIT_STYLES[cards.suit_of(c)])
        if codes and self.show_codes:
            t.append(f" {cards.code(c)}", style="dim")
        return t

    def cards_text(self, mask: Mask, codes: bool = False, sep: str | None = None) -> Text:
        """Cards of a mask, by suit then rank, listed the language's way; ``-`` for none."""
        if not mask:
            return Text("-", style="dim")
        return Text(say("list.join") if sep is None else sep).join(self.card_text(c, codes) for c in
                              sorted(cards.iter_cards(mask), key=cards.sort_key_by_suit))

    def hand_text(self, hand: Mask) -> Text:
        """A hand grouped by suit: ``♣ 2 5 K   ♦ 7 8``."""
        out = Text()
        for s in range(4):
            in_suit = hand & cards.SUIT_MASKS[s]
            if not in_suit:
                continue
            if out:
                out.append("   ")
            style = SUIT_STYLES[s]
            out.append(cards.SUIT_SYMBOLS[s], style=style)
            for c in cards.iter_cards(in_suit):
                out.append(" " + cards.RANKS[cards.rank_of(c)], style=style)
        return out or Text(say("hand.empty"), style="dim")

    # --- moves ---------------------------------------------------------------------

    def move_text(self, move: Move, codes: bool = False, you: bool = False) -> Text:
        """What a move does: ``plays 7♦``, ``passes`` (``play 7♦``, ``pass`` with ``you``)."""
        who = "you" if you else "they"
        if move == PASS:
            return Text(say(f"move.pass.{who}"))
        return fill(say(f"move.play.{who}", card=PIECE[0]),
                    self.card_text(move_card(move), codes))

    def option_text(self, move: Move, pass_note: str = "") -> Text:
        """A legal move as the menu offers it: ``7♦``, ``pass (1 penalty point)``."""
        if move == PASS:
            return Text(say("option.pass.note", note=pass_note) if pass_note
                        else say("option.pass"))
        return self.card_text(move_card(move), codes=True)

    def move_notes(self, before: Any, move: Move, after: Any,
                   names: Sequence[str]) -> list[Text]:
        """What else a move brought about (a new deal, cards changing hands); none here."""
        return []

    def pass_note(self, view: Any) -> str:
        """What a pass costs now, shown beside it in the menu ("" when nothing)."""
        return ""

    def pass_offer(self, view: Any) -> str:
        """What a pass costs now, as the sentence beside the web table's Pass button
        (``view`` is the seat's, on its turn, with a pass among its legal moves).
        The server asks this; it never words a game's pass itself. From the catalog
        keys of :meth:`pass_offer_keys` when the game gives them."""
        keys = self.pass_offer_keys(view)
        if keys:
            return "".join(say(k) for k in keys)
        note = self.pass_note(view)
        return f"Pass: {note}" if note else "Pass"

    def pass_offer_keys(self, view: Any) -> list[str]:
        """The ``game`` catalog keys whose words, joined, are :meth:`pass_offer` (so a
        page can say them in its own language); none: the words are the game's own."""
        return []

    def pot(self, view: Any) -> int | None:
        """The chips in the pot as ``view`` sees them (0 once the round is over), or None
        in a game or under rules without one; the web table shows it."""
        return None

    # --- reading typed moves -------------------------------------------------------

    def help_line(self) -> str:
        return say("help.moves")

    def rules_outline(self) -> list[tuple[str, str]]:
        """The rules page's words for ``parlour rules`` in the reader's language, in
        order: ``("h", key)`` a heading, ``("p", key)`` a paragraph (the ``game``
        catalog's ``rules.{game}.*`` keys, the web page's own; its worked examples are
        drawn cards, left to the page). Empty: the rulebook's English text instead."""
        return []

    def rules_params(self) -> dict[str, str]:
        """The names the rules' words take (``{guardian}``, ``{leaf}``...) in the
        reader's language and card style; ``{cXX}`` card names are filled by the caller."""
        return {}

    def card_words(self, text: str) -> str:
        """Typed card text in the standard form :func:`parlour.cards.parse` reads; a game
        with its own marks or letters translates them here."""
        return text

    def parse_card(self, text: str) -> Card:
        """A card as a person types it (RULINGS C-1: ``7d``, ``10H``, ``T♥``, ``q♠``)."""
        try:
            return cards.parse(self.card_words(text))
        except ValueError:
            raise BadInput(say("bad.not_a_card", typed=text)) from None

    def read_move(self, view: Any, text: str) -> Move:
        """The move meant by ``text`` for the seat of ``view`` (whose turn it is); it
        still has to pass the rules (``why_illegal``). Raises :class:`BadInput`."""
        t = text.strip()
        legal = list(view.legal)
        if not t:
            raise BadInput(self.help_line())
        low = t.lower()
        if low.isdigit():
            i = int(low)
            if not 1 <= i <= len(legal):
                raise BadInput(say("bad.no_move", count=len(legal), number=i))
            return legal[i - 1]
        if low in PASS_WORDS:
            return PASS
        tokens = [w for w in re.split(r"[\s,+]+", t) if w and w.lower() not in FILLER]
        card = self.parse_card(tokens[0])
        if not view.hand >> card & 1:
            raise BadInput(say("bad.not_held", code=cards.code(card)))
        return self.read_rest(view, card, tokens[1:])

    def read_rest(self, view: Any, card: Card, rest: list[str]) -> Move:
        """The move of ``card`` given the words typed after it (none, in most games)."""
        if rest:
            raise BadInput(say("bad.one_card"))
        return card

    # --- the table -----------------------------------------------------------------

    def table(self, view: Any, names: Sequence[str]) -> RenderableType:
        """The public part of a view: here every seat's hand size, when the view has
        ``hand_counts``, and its other public fields as ``name: value`` lines."""
        data = view.to_json()
        lines = [Text(f"{k}: {v}") for k, v in data.items()
                 if k not in ("game", "seat", "players", "dealer", "rules", "hand", "legal",
                              "moves", "current_player", "hand_counts", "score")]
        seats = seats_table(say("table.cards")) if "hand_counts" in data else seats_table()
        for s in range(view.players):
            cells = seat_cells(names, s, view)
            if "hand_counts" in data:
                cells.append(Text(str(data["hand_counts"][s])))
            seats.add_row(*cells)
        return Group(*lines, seats)

    def view_from_json(self, data: dict[str, Any]) -> Any | None:
        """The game's view object from a server view's JSON (``to_json()``), or None when
        the game cannot rebuild one (the remote client then prints the JSON fields)."""
        return None

    # --- scores --------------------------------------------------------------------

    def signed_scores(self, rules: dict[str, Any]) -> bool:
        """Whether scores are net winnings, a positive one written ``+3`` (the web
        table's score sheet and log)."""
        return False

    def score_caption(self, rules: dict[str, Any]) -> str:
        return say("score.caption.lower" if self.game.lower_wins(rules)
                   else "score.caption.higher")

    def expected_text(self, rules: dict[str, Any], value: float) -> str:
        """An expected round score in the game's currency: ``5.31 penalty points``."""
        return say("moves.points.lower" if self.game.lower_wins(rules)
                   else "moves.points.higher", value=f"{value:.2f}")

    def worded(self, detail: dict[str, Any] | None,
               names: Sequence[str] | None = None) -> dict[str, Any] | None:
        """``Round.score_detail()`` with its words: every item's ``what`` and ``detail``,
        every note's ``text`` and every payment's ``what``, from the ``game`` catalogs
        in the current language (:mod:`parlour.speech`), keyed by the ``key`` the engine
        gives with the facts in ``params``. Seats are named by ``names`` (``Seat N`` when
        none is given, for a page to put names in). An item without a ``key`` keeps the
        words its game wrote."""
        if detail is None:
            return None
        out = {**detail, "seats": [{**e, "items": [self._words(i, names, True)
                                                    for i in e["items"]]}
                                   for e in detail["seats"]],
               "notes": [self._words(n, names, False) for n in detail.get("notes", [])]}
        if detail.get("chips"):
            out["chips"] = {**detail["chips"], "payments": [
                self._words(p, names, False, "what") for p in detail["chips"]["payments"]]}
        return out

    def _words(self, entry: dict[str, Any], names: Sequence[str] | None, item: bool,
               field: str = "text") -> dict[str, Any]:
        key = entry.get("key")
        if key is None:
            return dict(entry)
        key = self.styled(key)
        raw = entry.get("params") or {}
        count = raw.get("count")
        words = {k: self._param(k, v, names) for k, v in raw.items() if k != "count"}
        if not item:
            return {**entry, field: say(key, count=count, **words)}
        return {**entry, "what": say(key + ".what", **words),
                "detail": say(key + ".detail", count=count, **words)}

    def styled(self, key: str) -> str:
        """The catalog key of words that differ by card-name style (a game's own
        names); most words read the same in both."""
        return key

    def _param(self, name: str, value: Any, names: Sequence[str] | None) -> str:
        """One fact in words: card codes as names, seats as names, numbers as the
        language writes them."""
        if name == "card" or name.endswith("_card"):
            return self.card_name(cards.from_code(value))
        if name == "cards":
            return say("list.join").join(self.card_name(cards.from_code(c)) for c in value)
        if name == "seat":
            return seat_word(value, names)
        if name == "seats":
            return listing([seat_word(s, names) for s in value])
        if isinstance(value, int):
            return number(value)
        return str(value)

# --- pieces the games' presenters share ---------------------------------------------


PIECE = ("\u27e80\u27e9", "\u27e81\u27e9", "\u27e82\u27e9")
"""Marks put into catalog words where :func:`fill` puts coloured pieces (``⟨0⟩``..)."""


def fill(words: str, *parts: Text) -> Text:
    """Catalog words with :data:`PIECE` marks replaced by coloured pieces (cards in
    their suits' colours), in whatever order the language puts them."""
    out = Text()
    for i, piece in enumerate(re.split("\u27e8(\\d)\u27e9", words)):
        if i % 2:
            out.append_text(parts[int(piece)])
        else:
            out.append(piece)
    return out


def seat_word(seat: int, names: Sequence[str] | None) -> str:
    """A seat by its player's name, or ``Seat N`` (the page puts names in)."""
    if names is not None and 0 <= seat < len(names):
        return names[seat]
    return f"Seat {seat}"


def seat_cells(names: Sequence[str], seat: int, view: Any) -> list[Text]:
    """A seat's first two cells: a ``▶`` on the player to move, then its name."""
    turn = seat == view.current_player
    name = Text(names[seat], style="bold" if turn else "")
    if seat == view.dealer:
        name.append(" " + say("table.dealer"), style="dim")
    return [Text("▶" if turn else "", style="bold yellow"), name]


def seats_table(*columns: str) -> Table:
    """A table of seats with these columns after the turn mark and the name."""
    t = Table(box=box.SIMPLE_HEAD, pad_edge=False, show_edge=False)
    t.add_column("", width=1)
    t.add_column(say("table.player"))
    for i, c in enumerate(columns):
        t.add_column(c, justify="left" if i == len(columns) - 1 and i >= 3 else "right")
    return t


def presenter(game: str | Game) -> Presenter:
    """The presenter of a game (by name or object): its kit's ``present.PRESENTER``, or
    the base :class:`Presenter` when the game has none."""
    from parlour.games import get_kit

    kit = get_kit(game if isinstance(game, str) else game.name)
    found = kit.attr("present", "PRESENTER")
    if found is None:
        found = _FALLBACK.get(kit.name)
        if found is None:
            found = _FALLBACK[kit.name] = Presenter(kit.game)
    return found


_FALLBACK: dict[str, Presenter] = {}
