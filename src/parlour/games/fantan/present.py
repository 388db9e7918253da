"""Fan Tan in the terminal: the four rows, seats with cards and passes, what a pass
costs, and the pot under chips (RULINGS FT-2, FT-5, FT-7, FT-8, FT-10).

Cards are the standard ``7♦``; a move is a card or ``p`` (pass), as the base
:class:`~parlour.present.Presenter` reads them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.text import Text

from parlour import cards
from parlour.cards import Mask
from parlour.game import PASS
from parlour.games.fantan.rules import FANTAN, SEVENS, FanTanView, pack_mask, pot_in_play
from parlour.present import SUIT_STYLES, Presenter, seat_cells, seats_table
from parlour.speech import say


def rows_text(table: Mask, ace_high: bool, cell: int = 3) -> Text:
    """The four rows, each in rank order (FT-2), a dot where a card is still missing.

    ``cell`` is the width of a rank: 3 (``  A  2 ... 10  J``) or, on a narrow terminal,
    2, where the 10 is written ``T`` so every row still fits on one line."""
    order = list(range(1, 13)) + [0] if ace_high else list(range(13))
    out = Text()
    for s in range(4):
        style = SUIT_STYLES[s]
        out.append(f"{cards.SUIT_SYMBOLS[s]} ", style=style)
        for r in order:
            c = cards.card(r, s)
            label = cards.RANKS[r] if table >> c & 1 else "·"
            if cell < 3 and label == "10":
                label = "T"
            out.append(f"{label:>{cell}}", style=style if table >> c & 1 else "dim")
        if s < 3:
            out.append("\n")
    return out


class Rows:
    """The rows as a renderable that fits the width it is given (41 columns, or 28)."""

    def __init__(self, table: Mask, ace_high: bool) -> None:
        self.table, self.ace_high = table, ace_high

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        yield rows_text(self.table, self.ace_high, 3 if options.max_width >= 41 else 2)


class FanTanPresenter(Presenter):
    def rules_outline(self) -> list[tuple[str, str]]:
        r = "rules.fantan."
        return [("h", r + "title"), ("p", r + "lead"), ("h", r + "rows"),
                ("p", r + "rows.text"), ("p", r + "ex1.caption"), ("h", r + "turn"),
                ("li", r + "turn.play"), ("li", r + "turn.pass"), ("li", r + "turn.end"),
                ("h", r + "starts"), ("p", r + "starts.text"), ("h", r + "scoring"),
                ("p", r + "scoring.points"), ("p", r + "scoring.chips"), ("h", r + "holding"),
                ("p", r + "holding.text"), ("h", r + "game"), ("p", r + "game.text")]
    def table(self, view: Any, names: Sequence[str]) -> RenderableType:
        """The public table (FT-10): the rows, then every seat's card count and passes."""
        seats = seats_table(say("table.cards"), say("fantan.table.passes"))
        for s in range(view.players):
            seats.add_row(*seat_cells(names, s, view), str(view.hand_counts[s]),
                          str(view.passes[s]))
        parts: list[RenderableType] = [Rows(view.table, view.rules["ace"] == "high"), Text(),
                                       seats]
        if view.rules["stakes"] == "chips" and view.winner < 0:  # FT-7: the pot in play
            pot = pot_in_play(view.players, view.dealer, view.passes,
                              pack_mask(view.rules).bit_count())
            parts.append(Text(say("fantan.table.pot", count=pot), style="dim"))
        return Group(*parts)

    def pass_note(self, view: Any) -> str:
        """What a pass costs now (FT-5, FT-7, FT-8)."""
        stakes = "chips" if view.rules["stakes"] == "chips" else "points"
        plays = [m for m in view.legal if m != PASS]
        if not plays:
            return say(f"fantan.pass.cost.{stakes}")
        note = say(f"fantan.pass.withholding.{stakes}")
        if stakes == "chips" and any(1 << m & SEVENS for m in plays):
            note += say("fantan.pass.sevens")
        return note

    def pass_offer_keys(self, view: Any) -> list[str]:
        """The web table's words for a pass now (FT-5, FT-7, FT-8): its price, and the
        fine when a playable card is held back."""
        stakes = "chips" if view.rules["stakes"] == "chips" else "points"
        keys = [f"fantan.offer.{stakes}"]
        if any(m != PASS for m in view.legal):  # withholding a playable card (FT-8)
            keys.append(f"fantan.offer.fine.{stakes}")
        return keys

    def pot(self, view: Any) -> int | None:
        """Under chips, the pot in play (FT-7): antes and passes; 0 once the round is over
        (the winner took it)."""
        if view.rules["stakes"] != "chips":
            return None
        return 0 if view.current_player < 0 else pot_in_play(
            view.players, view.dealer, view.passes, pack_mask(view.rules).bit_count())

    def signed_scores(self, rules: dict[str, Any]) -> bool:
        return rules["stakes"] == "chips"  # net chips won or lost (FT-7)

    def score_caption(self, rules: dict[str, Any]) -> str:
        if rules.get("stakes") == "chips":
            return say("fantan.score.caption.chips")
        return say("score.caption.lower")

    def expected_text(self, rules: dict[str, Any], value: float) -> str:
        if rules.get("stakes") == "chips":  # net chips won (+) or lost (-), FT-7
            return say("fantan.points.chips", value=f"{value:+.2f}")
        return say("moves.points.lower", value=f"{value:.2f}")

    def view_from_json(self, data: dict[str, Any]) -> FanTanView:
        """A server view (``FanTanView.to_json()``) as a view again."""
        game = self.game
        return FanTanView(
            seat=data["seat"] if data["seat"] is not None else -1,
            players=data["players"], dealer=data["dealer"], rules=dict(data["rules"]),
            hand=cards.mask_from_codes(data["hand"]),
            table=cards.mask_from_codes(data["table"]),
            hand_counts=tuple(data["hand_counts"]), passes=tuple(data["passes"]),
            history=tuple((m["seat"], game.move_from_json(
                {k: v for k, v in m.items() if k != "seat"})) for m in data["moves"]),
            current_player=data["current_player"],
            legal=tuple(game.move_from_json(m) for m in data["legal"]),
            score=tuple(data["score"]) if data["score"] is not None else None,
            winner=data["winner"] if data["winner"] is not None else -1)


PRESENTER = FanTanPresenter(FANTAN)
