"""Rich rendering of cards, hands, tables, moves and score sheets, for the terminal.

Each function takes the game's name and draws with that game's presenter
(:func:`parlour.present.presenter`: the ``present`` part of its kit), so this module
knows no game. Everything here draws from what a seat may see: a view
(``round.view(seat)``) for the table and the counts, and a hand mask passed in
explicitly. So a caller that shows one seat's screen cannot print another seat's cards
by accident (FT-10, FA-7).

Cards use a four-colour deck (clubs green, diamonds blue, hearts red, spades bold).
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
from parlour.game import Move
from parlour.present import SUIT_STYLES, presenter
from parlour.speech import listing, number, say

__all__ = ["SUIT_STYLES", "card_text", "cards_text", "hand_text", "move_text", "move_notes",
           "option_text", "moves_table", "table_view", "hands_table", "score_caption",
           "score_sheet", "round_result", "with_names", "winners_text",
           "WINNER_MARK"]


# --- cards and moves: the game's presenter ---------------------------------------------


def card_text(game: str, c: Card, codes: bool = False) -> Text:
    """One card: ``7♦`` in Fan Tan; ``Leaf 2``, ``Guardian ★`` in Fanti (+ ``2C`` with codes)."""
    return presenter(game).card_text(c, codes)


def cards_text(game: str, mask: Mask, codes: bool = False, sep: str | None = None) -> Text:
    """Cards of a mask, by suit then rank; ``-`` for none."""
    return presenter(game).cards_text(mask, codes, sep)


def hand_text(game: str, hand: Mask) -> Text:
    """A hand sorted by suit, as the game shows it."""
    return presenter(game).hand_text(hand)


def move_text(game: str, move: Move, codes: bool = False, you: bool = False) -> Text:
    """What a move does, e.g. ``plays 7♦``, ``passes``, ``plays Leaf 5, takes 6 ♥``.

    ``you=True`` words it for the person at the terminal: ``play 7♦``, ``pass``.
    """
    return presenter(game).move_text(move, codes, you)


def move_notes(game: str, before: Any, move: Move, after: Any,
               names: Sequence[str]) -> list[Text]:
    """What else a move brought about, from the views before and after it."""
    return presenter(game).move_notes(before, move, after, names)


def option_text(game: str, move: Move, pass_note: str = "") -> Text:
    """A legal move as offered in the menu: ``7♦``, ``pass``, ``Leaf 5 5C → take 6 ♥ 6H``."""
    return presenter(game).option_text(move, pass_note)


def moves_table(game: str, moves: Sequence[Move], values: dict[Move, Any] | None = None,
                best: Move | None = None, pass_note: str = "",
                rules: dict[str, Any] | None = None) -> Table:
    """The legal moves numbered from 1, with hint values when given: a number per
    move, or a :class:`parlour.bots.hints.Hint` (its expected score in the game's
    currency where it has one, its chance to win, and whether it is as good as the
    suggested move)."""
    t = Table(box=None, show_header=bool(values), pad_edge=False, padding=(0, 1))
    t.add_column("#", justify="right", style="bold cyan")
    t.add_column(say("moves.move"))
    rich = bool(values) and all(hasattr(v, "value") for v in values.values())  # type: ignore[union-attr]
    points = rich and any(v.points is not None for v in values.values())  # type: ignore[union-attr]
    if values:
        if points:
            t.add_column(say("moves.expected"), justify="right")
        t.add_column(say("moves.chance") if rich else say("moves.value"), justify="right")
        t.add_column("")
    for i, m in enumerate(moves, 1):
        row: list[Any] = [f"{i}.", option_text(game, m, pass_note)]
        if values:
            v = values.get(m)
            if points:
                row.append("" if v is None or v.points is None
                           else presenter(game).expected_text(rules or {}, v.points))
            if rich:
                row.append("" if v is None else f"{100 * v.value:.0f}%")
            else:
                row.append("" if v is None else f"{v:.2f}")
            if m == best:
                row.append(Text("◀ " + say("moves.suggested"), style="bold yellow"))
            elif rich and v is not None and v.equal_to_best:
                row.append(Text("= " + say("moves.equal"), style="yellow"))
            else:
                row.append("")
        t.add_row(*row)
    return t


# --- tables ----------------------------------------------------------------------------


def table_view(game: str, view: Any, names: Sequence[str]) -> RenderableType:
    """The public part of a view, drawn for the game it belongs to."""
    return presenter(game).table(view, names)


def hands_table(game: str, hands: Sequence[Mask], names: Sequence[str]) -> Table:
    """Every seat's hand (for replays that show all hands, never for a seat's own screen)."""
    t = Table(box=None, show_header=False, pad_edge=False, padding=(0, 1))
    t.add_column(say("table.player"), style="bold")
    t.add_column(say("table.hand"))
    for s, h in enumerate(hands):
        t.add_row(names[s], hand_text(game, h))
    return t


# --- scores ----------------------------------------------------------------------------


def score_caption(game: str, rules: dict[str, Any]) -> str:
    return presenter(game).score_caption(rules)


WINNER_MARK = "🏆"
"""Marks the winners on the score sheet (not ★, which is a suit in Fanti, FA-1)."""


def score_sheet(game: str, rules: dict[str, Any], names: Sequence[str],
                scores: Sequence[Sequence[int]], winners: Sequence[int] | None = None
                ) -> RenderableType:
    """Rounds down, seats across, a total row; the winners marked once the game is over."""
    t = Table(title=say("sheet.title"), box=box.SIMPLE_HEAVY, show_edge=False)
    t.add_column(say("sheet.round"), justify="right")
    for s, n in enumerate(names):
        mark = f" {WINNER_MARK}" if winners and s in winners else ""
        t.add_column(n + mark, justify="right")
    totals = [0] * len(names)
    for i, row in enumerate(scores, 1):
        t.add_row(number(i), *(number(v) for v in row))
        for s, v in enumerate(row):
            totals[s] += v
    t.add_section()
    t.add_row(Text(say("sheet.total"), style="bold"),
              *(Text(number(v), style="bold") for v in totals))
    caption = score_caption(game, rules)
    if winners:
        caption += say("sheet.winners", count=len(winners), mark=WINNER_MARK)
    return Group(t, Text(f"({caption})", style="dim"))


_SEAT = re.compile(r"\bSeat (\d+)\b")


def with_names(text: str, names: Sequence[str]) -> str:
    """The engine's ``Seat N`` placeholders replaced by the players' names."""
    return _SEAT.sub(lambda m: names[int(m.group(1))] if int(m.group(1)) < len(names)
                     else m.group(0), text)


def round_result(game: str, detail: dict[str, Any], names: Sequence[str]) -> RenderableType:
    """A finished round's score item by item, from ``Round.score_detail()``: each seat's
    items and total, what each seat still held (where the game says), the notes (ties and
    the rule applied, leftovers), and under chips the pot and every payment."""
    p = presenter(game)
    detail = p.worded(detail, names) or detail
    unit = "chips" if detail.get("chips") else "points"
    t = Table(title=say("result.title"), box=box.SIMPLE_HEAD, pad_edge=False, show_edge=False)
    t.add_column(say("table.player"), style="bold")
    t.add_column(say("result.for"))
    t.add_column("", style="dim")
    t.add_column(say(f"result.{unit}"), justify="right")
    for k, entry in enumerate(detail["seats"]):
        if k:
            t.add_section()
        name = names[entry["seat"]]
        for j, item in enumerate(entry["items"]):
            t.add_row(name if j == 0 else "", item["what"], item["detail"],
                      _signed(item["points"], unit))
        held = entry.get("hand")
        if held:
            t.add_row("", say("result.still_held"), p.cards_text(cards.mask_from_codes(held)),
                      "")
        t.add_row("", Text(say("sheet.total"), style="bold"), "",
                  Text(_signed(entry["total"], unit), style="bold"))
    parts: list[RenderableType] = [t]
    for note in detail.get("notes", []):
        parts.append(Text(say("result.sentence", text=with_names(note["text"], names)),
                          style="italic"))
    chips = detail.get("chips")
    if chips:
        parts.append(Text(say("result.pot", count=chips["pot"]), style="italic"))
        for pay in chips["payments"]:
            parts.append(Text(say("result.pays", count=pay["chips"], payer=names[pay["from"]],
                                  payee=names[pay["to"]], what=pay["what"]), style="dim"))
    return Group(*parts)


def _signed(points: int, unit: str) -> str:
    text = number(abs(points))
    if points < 0:
        return "-" + text
    return "+" + text if unit == "chips" and points else text


def winners_text(names: Sequence[str], winners: Sequence[int], totals: Sequence[int],
                 you: int | None = None) -> Text:
    """``Ann wins with a total of 12.``; ``you``: the seat of the person reading, so
    their own win is said to them."""
    if len(winners) > 1:
        words = say("winners.shared", names=listing([names[s] for s in winners]),
                    total=number(totals[winners[0]]))
    elif winners[0] == you or (you is None and names[winners[0]] == "You"):
        words = say("winners.you", total=number(totals[winners[0]]))
    else:
        words = say("winners.one", name=names[winners[0]], total=number(totals[winners[0]]))
    return Text(words, style="bold green")
