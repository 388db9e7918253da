"""``parlour replay --review``: each move of one seat beside the engine's judgement.

For every turn of the reviewed seat that offered a choice, the engine's hints
(:func:`parlour.bots.hints.hints`, from that seat's view only) value each legal move as
the seat's estimated chance of winning the round; the review shows the move played, its
value, the best alternative and its value, and marks where the value dropped, as chess
sites mark inaccuracies (``?!``), mistakes (``?``) and blunders (``??``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass

from rich import box
from rich.table import Table
from rich.text import Text

from parlour import render
from parlour.game import Move
from parlour.match import Match

MARKS = ((0.25, "??", "blunder", "blunders"), (0.10, "?", "mistake", "mistakes"),
         (0.04, "?!", "inaccuracy", "inaccuracies"))
"""Drops in estimated win chance and how they are marked, largest first."""


@dataclass(frozen=True)
class Reviewed:
    """One reviewed turn: the move played and the engine's best, with their values."""

    round: int
    move: int  # the move's number in its round, from 1
    played: Move
    value: float
    best: Move
    best_value: float
    choices: int

    @property
    def drop(self) -> float:
        return max(0.0, self.best_value - self.value)

    @property
    def mark(self) -> str:
        return next((m for limit, m, _, _ in MARKS if self.drop >= limit), "")


def review(match: Match, seat: int, level: str = "medium", seed: int = 0,
           only_round: int | None = None, from_move: int = 1,
           progress: Callable[[], None] | None = None) -> Iterator[Reviewed]:
    """Each turn of ``seat`` with a choice, in order (``only_round``: that round only,
    from its move ``from_move``)."""
    from parlour.bots.hints import hints

    game = match.game
    for k, src in enumerate(match.rounds, 1):
        if only_round is not None and k != only_round:
            continue
        r = game.new_round(match.rules, match.players, src.dealer, src.deck)
        earlier = match.earlier_views(seat, before=k - 1)
        for i, (s, move) in enumerate(src.history, 1):
            if s == seat and i >= from_move and len(r.legal_moves()) > 1:
                values = dict(hints(game.name, r.view(seat), level=level,
                                    seed=seed + 1000 * k + i, earlier=earlier))
                best = max(values, key=lambda m: values[m])
                if progress:
                    progress()
                yield Reviewed(k, i, move, values.get(move, 0.0), best, values[best],
                               len(values))
            r.apply(move)


def turns_to_review(match: Match, seat: int, only_round: int | None, from_move: int) -> int:
    """How many turns :func:`review` will judge (for the progress bar)."""
    total = 0
    for k, src in enumerate(match.rounds, 1):
        if only_round is not None and k != only_round:
            continue
        r = match.game.new_round(match.rules, match.players, src.dealer, src.deck)
        for i, (s, move) in enumerate(src.history, 1):
            total += s == seat and i >= from_move and len(r.legal_moves()) > 1
            r.apply(move)
    return total


def review_table(game: str, rows: list[Reviewed], title: str) -> Table:
    t = Table(title=title, box=box.SIMPLE_HEAD, pad_edge=False, show_edge=False)
    for col, justify in (("round", "right"), ("move", "right"), ("played", "left"),
                         ("value", "right"), ("best", "left"), ("best value", "right"),
                         ("", "left")):
        t.add_column(col, justify=justify)  # type: ignore[arg-type]
    for row in rows:
        same = row.best == row.played or row.drop == 0
        mark = Text(row.mark, style="bold red" if row.mark.startswith("??") else "yellow")
        t.add_row(str(row.round), str(row.move),
                  render.move_text(game, row.played, you=True).plain.removeprefix("play "),
                  f"{row.value:.2f}",
                  "" if same else render.move_text(game, row.best, you=True).plain
                  .removeprefix("play "),
                  "" if same else f"{row.best_value:.2f}", mark)
    return t


def summary_text(rows: list[Reviewed]) -> str:
    if not rows:
        return "No turn of this seat offered a choice."
    found = []
    for _, mark, one, many in MARKS:
        n = sum(1 for r in rows if r.mark == mark)
        if n:
            found.append(f"{n} {one if n == 1 else many} ({mark})")
    found_text = ", ".join(found)
    best = sum(1 for r in rows if r.drop == 0)
    mean = sum(r.drop for r in rows) / len(rows)
    return (f"{len(rows)} turns reviewed: the engine's choice {best} times; mean drop "
            f"{mean:.3f} in win chance" + (f"; {found_text}." if found else "; nothing marked."))
