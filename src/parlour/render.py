"""Rich rendering of cards, hands, tables, moves and score sheets, for the terminal.

Everything here draws from what a seat may see: a view (``round.view(seat)``) for the
table and the counts, and a hand mask passed in explicitly. So a caller that shows one
seat's screen cannot print another seat's cards by accident (FT-10, FA-7).

Cards use a four-colour deck (clubs green, diamonds blue, hearts red, spades bold).
Fanti shows its own names (FA-1): Guardian, Mystic, Scout for J, Q, K; Leaf and Star
for clubs and diamonds; with ``codes=True`` the standard code follows in grey, so a
player knows what to type.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich import box
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from parlour import cards
from parlour.cards import Card, Mask
from parlour.game import PASS, Move, move_card, move_take
from parlour.games.fanti.rules import LEAVES, TEN_OF_DIAMONDS, TWO_OF_CLUBS

SUIT_STYLES = ("green", "blue", "red", "bold")
"""Four-colour deck: clubs, diamonds, hearts, spades."""


def _fanti(game: str) -> bool:
    return game == "fanti"


# --- cards -----------------------------------------------------------------------------


def card_text(game: str, c: Card, codes: bool = False) -> Text:
    """One card: ``7♦`` in Fan Tan; ``Leaf 2``, ``Guardian ★`` in Fanti (+ ``2C`` with codes)."""
    style = SUIT_STYLES[cards.suit_of(c)]
    if not _fanti(game):
        return Text(cards.symbol(c), style=style)
    t = Text(cards.fanti_name(c), style=style)
    if codes:
        t.append(f" {cards.code(c)}", style="dim")
    return t


def cards_text(game: str, mask: Mask, codes: bool = False, sep: str = ", ") -> Text:
    """Cards of a mask, by suit then rank; ``-`` for none."""
    if not mask:
        return Text("-", style="dim")
    return Text(sep).join(card_text(game, c, codes)
                          for c in sorted(cards.iter_cards(mask), key=cards.sort_key_by_suit))


def hand_text(game: str, hand: Mask) -> Text:
    """A hand sorted by suit. Fan Tan groups by suit (``♣ 2 5 K  ♦ 7 8``); Fanti lists names."""
    if _fanti(game):
        return cards_text(game, hand, codes=True, sep="   ")
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
    return out or Text("(empty)", style="dim")


# --- moves -----------------------------------------------------------------------------


def move_text(game: str, move: Move, codes: bool = False, you: bool = False) -> Text:
    """What a move does, e.g. ``plays 7♦``, ``passes``, ``plays Leaf 5, takes 6 ♥``.

    ``you=True`` words it for the person at the terminal: ``play 7♦``, ``pass``.
    """
    s = "" if you else "s"
    if move == PASS:
        return Text("pass" + ("" if you else "es"))
    c, take = move_card(move), move_take(move)
    t = Text(f"play{s} ").append_text(card_text(game, c, codes))
    if _fanti(game):
        if take:
            verb = "sweep" if cards.rank_of(c) == cards.JACK else "take"
            t.append(f", {verb}{s} ").append_text(cards_text(game, take, codes))
        else:
            t.append(" to the table")
    return t


def move_notes(game: str, before: Any, move: Move, after: Any,
               names: Sequence[str]) -> list[Text]:
    """What else a move brought about, from the views before and after it.

    Fanti: a new deal of 4 cards each (FA-3); at the round's end, the table's leftovers
    going to the last collector (FA-8). Fan Tan: nothing.
    """
    if not _fanti(game):
        return []
    notes = []
    if after.deck_left < before.deck_left:
        notes.append(Text(f"New deal: 4 cards each, {after.deck_left} left in the deck.",
                          style="italic"))
    if after.current_player < 0:
        c, take = move_card(move), move_take(move)
        left = before.table & ~take if take else before.table | 1 << c
        if left and after.last_collector >= 0:
            notes.append(Text(f"The {left.bit_count()} card(s) left on the table go to "
                              f"{names[after.last_collector]}, who collected last (FA-8).",
                              style="italic"))
    return notes


def option_text(game: str, move: Move, pass_note: str = "") -> Text:
    """A legal move as offered in the menu: ``7♦``, ``pass``, ``Leaf 5 5C → take 6 ♥ 6H``."""
    if move == PASS:
        return Text("pass" + (f" ({pass_note})" if pass_note else ""))
    c, take = move_card(move), move_take(move)
    t = card_text(game, c, codes=True)
    if _fanti(game):
        if take:
            t.append(" → take ").append_text(cards_text(game, take, codes=True, sep=" + "))
        else:
            t.append(" → to the table", style="dim")
    return t


def moves_table(game: str, moves: Sequence[Move], values: dict[Move, float] | None = None,
                best: Move | None = None, pass_note: str = "") -> Table:
    """The legal moves numbered from 1, with hint values when given."""
    t = Table(box=None, show_header=bool(values), pad_edge=False, padding=(0, 1))
    t.add_column("#", justify="right", style="bold cyan")
    t.add_column("move")
    if values:
        t.add_column("value", justify="right")
        t.add_column("")
    for i, m in enumerate(moves, 1):
        row: list[Any] = [f"{i}.", option_text(game, m, pass_note)]
        if values:
            v = values.get(m)
            row.append("" if v is None else f"{v:.2f}")
            row.append(Text("◀ suggested", style="bold yellow") if m == best else "")
        t.add_row(*row)
    return t


# --- tables ----------------------------------------------------------------------------


def _seat_cells(names: Sequence[str], seat: int, view: Any) -> list[Text]:
    """A seat's first two cells: a ``▶`` on the player to move, then its name."""
    turn = seat == view.current_player
    name = Text(names[seat], style="bold" if turn else "")
    if seat == view.dealer:
        name.append(" (dealer)", style="dim")
    return [Text("▶" if turn else "", style="bold yellow"), name]


def _seats_table(*columns: str) -> Table:
    t = Table(box=box.SIMPLE_HEAD, pad_edge=False, show_edge=False)
    t.add_column("", width=1)
    t.add_column("player")
    for c in columns:
        t.add_column(c, justify="left" if c == "specials" else "right")
    return t


def fantan_rows(table: Mask, ace_high: bool) -> Text:
    """The four rows of Fan Tan, each in rank order, a dot where a card is still missing."""
    order = list(range(1, 13)) + [0] if ace_high else list(range(13))
    out = Text()
    for s in range(4):
        style = SUIT_STYLES[s]
        out.append(f"{cards.SUIT_SYMBOLS[s]} ", style=style)
        for r in order:
            c = cards.card(r, s)
            label = cards.RANKS[r] if table >> c & 1 else "·"
            out.append(f"{label:>3}", style=style if table >> c & 1 else "dim")
        if s < 3:
            out.append("\n")
    return out


def fantan_table(view: Any, names: Sequence[str]) -> RenderableType:
    """Fan Tan's public table (FT-10): the rows, then every seat's card count and passes."""
    seats = _seats_table("cards", "passes")
    for s in range(view.players):
        seats.add_row(*_seat_cells(names, s, view), str(view.hand_counts[s]), str(view.passes[s]))
    return Group(fantan_rows(view.table, view.rules["ace"] == "high"), Text(), seats)


def fanti_table(view: Any, names: Sequence[str]) -> RenderableType:
    """Fanti's public table (FA-7): the table cards, each seat's collected pile, the deck."""
    top = Text("Table: ", style="bold").append_text(cards_text("fanti", view.table, codes=True))
    seats = _seats_table("hand", "collected", "Leaf 🍃", "specials")
    for s in range(view.players):
        pile = view.piles[s]
        special = Text(" ").join(
            card_text("fanti", c) for c in (TWO_OF_CLUBS, TEN_OF_DIAMONDS) if pile >> c & 1)
        marker, label = _seat_cells(names, s, view)
        if s == view.last_collector:
            label.append(" (collected last)", style="dim")
        seats.add_row(marker, label, str(view.hand_counts[s]), str(pile.bit_count()),
                      str((pile & LEAVES).bit_count()), special)
    deck = Text(f"Deck: {view.deck_left} cards left", style="dim")
    return Group(top, Text(), seats, deck)


def table_view(game: str, view: Any, names: Sequence[str]) -> RenderableType:
    """The public part of a view, drawn for the game it belongs to."""
    return fanti_table(view, names) if _fanti(game) else fantan_table(view, names)


def hands_table(game: str, hands: Sequence[Mask], names: Sequence[str]) -> Table:
    """Every seat's hand (for replays that show all hands, never for a seat's own screen)."""
    t = Table(box=None, show_header=False, pad_edge=False, padding=(0, 1))
    t.add_column("player", style="bold")
    t.add_column("hand")
    for s, h in enumerate(hands):
        t.add_row(names[s], hand_text(game, h))
    return t


# --- scores ----------------------------------------------------------------------------


def score_caption(game: str, rules: dict[str, Any]) -> str:
    if _fanti(game):
        return "points: highest total wins"
    if rules.get("stakes") == "chips":
        return "net chips: highest total wins"
    return "penalty points: lowest total wins"


def score_sheet(game: str, rules: dict[str, Any], names: Sequence[str],
                scores: Sequence[Sequence[int]], winners: Sequence[int] | None = None
                ) -> RenderableType:
    """Rounds down, seats across, a total row; winners starred once the game is over."""
    t = Table(title="Score sheet", box=box.SIMPLE_HEAVY, show_edge=False)
    t.add_column("round", justify="right")
    for s, n in enumerate(names):
        star = " ★" if winners and s in winners else ""
        t.add_column(n + star, justify="right")
    totals = [0] * len(names)
    for i, row in enumerate(scores, 1):
        t.add_row(str(i), *(str(v) for v in row))
        for s, v in enumerate(row):
            totals[s] += v
    t.add_section()
    t.add_row(Text("total", style="bold"), *(Text(str(v), style="bold") for v in totals))
    return Group(t, Text(f"({score_caption(game, rules)})", style="dim"))


def round_summary(game: str, view: Any, names: Sequence[str]) -> Table:
    """How a finished round scored, seat by seat, from a view at its end (FA-9, FT-7)."""
    score = view.score
    t = Table(title="Round result", box=box.SIMPLE_HEAD, pad_edge=False, show_edge=False)
    t.add_column("player")
    if _fanti(game):
        for col in ("collected", "Leaf 🍃", "2🍃", "10★", "points"):
            t.add_column(col, justify="right")
        for s in range(view.players):
            pile = view.piles[s]
            t.add_row(names[s], str(pile.bit_count()), str((pile & LEAVES).bit_count()),
                      "✓" if pile >> TWO_OF_CLUBS & 1 else "",
                      "✓" if pile >> TEN_OF_DIAMONDS & 1 else "", str(score[s]))
        return t
    unit = "chips" if view.rules["stakes"] == "chips" else "points"
    for col in ("cards left", "passes", unit):
        t.add_column(col, justify="right")
    for s in range(view.players):
        label = names[s] + (" (out first)" if s == view.winner else "")
        t.add_row(label, str(view.hand_counts[s]), str(view.passes[s]), str(score[s]))
    return t


def winners_text(names: Sequence[str], winners: Sequence[int], totals: Sequence[int]) -> Text:
    who = " and ".join(names[s] for s in winners)
    verb = "win" if len(winners) > 1 or names[winners[0]] == "You" else "wins"
    shared = " (shared)" if len(winners) > 1 else ""
    return Text(f"{who} {verb}{shared} with a total of {totals[winners[0]]}.", style="bold green")
