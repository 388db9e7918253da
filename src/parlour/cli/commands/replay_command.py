"""``parlour replay``: step through a recorded game in the terminal."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.text import Text

from parlour import record, render
from parlour.cli import review
from parlour.cli.app import app
from parlour.cli.common import (
    card_names_option,
    fail,
    lang_option,
    reason,
    speak,
    stderr,
    stdout,
    usage_errors,
)
from parlour.cli.paths import check_input
from parlour.match import Match
from parlour.speech import say, tell

YOU = "You"
"""The person's seat name in a record from an English ``parlour play``."""


class StopReplay(Exception):
    """The viewer typed q (or input ended) while stepping."""


def load_one(path: Path, index: int) -> Match:
    """Record ``index`` (from 0) of a JSON or JSON Lines file, checked; exits on failure."""
    with usage_errors():
        check_input(path)
    try:
        entries = list(record.read_entries(path))
    except OSError as e:
        fail(f"cannot read {path}: {reason(e)}", 2)
    except UnicodeDecodeError as e:
        fail(f"{path} is not a record file: it is not UTF-8 text (byte {e.start} cannot be "
             f"read; a binary file?)", 1)
    if not 0 <= index < len(entries):
        fail(f"{path} holds {len(entries)} record(s): --index must be from 0 to "
             f"{len(entries) - 1}, not {index}", 2)
    entry = entries[index]
    match = record.check_entry(entry)
    if match is None:
        fail(f"{path} record {index} is not a valid record: {entry.error}", 1)
    return match


class Replayer:
    """Prints a match move by move: all hands, or one seat's view only (``seat``)."""

    def __init__(self, match: Match, console: Console, seat: int | None, step: bool) -> None:
        self.match = match
        self.game = match.game.name
        self.out = console
        self.seat = seat
        self.step = step
        self.names = match.seats

    def run(self) -> None:
        m = self.match
        seats = say("list.join").join(tell("replay.seat", name=n, seat=s)
                                      for s, n in enumerate(self.names))
        self.out.print(Text(tell("replay.heading", title=m.game.title, players=m.players,
                                 seats=seats)))
        if self.seat is not None:
            self.out.print(Text(tell("replay.showing", seat=self.seat,
                                     name=self.names[self.seat])))
        try:
            for i, src in enumerate(m.rounds):
                self._round(i, src)
        except StopReplay:
            self.out.print(tell("replay.stopped"))
            return
        if m.is_over:
            self.out.print(render.winners_text(self.names, m.winners or [], m.totals))
        else:
            self.out.print(Text(tell("replay.unfinished"), style="bold"))

    def _round(self, i: int, src: Any) -> None:
        m = self.match
        self.out.print()
        self.out.rule(tell("session.round", number=i + 1, rounds=m.rules["rounds"],
                           dealer=self.names[src.dealer]))
        r = m.game.new_round(m.rules, m.players, src.dealer, src.deck)
        self._show(r)
        for k, (seat, move) in enumerate(src.history, 1):
            self._pause()
            before = self._view(r)
            r.apply(move)
            self.out.print()
            name = self.names[seat]
            self.out.print(Text(f"{k}. {name} ", style="bold")
                           .append_text(render.move_text(self.game, move,
                                                         you=name in (YOU, tell("seat.you")))))
            for note in render.move_notes(self.game, before, move, self._view(r), self.names):
                self.out.print(note)
            self._show(r)
        if r.is_over:
            played = m.rounds[: i + 1]
            scores = [s for x in played if (s := x.score()) is not None]
            self.out.print()
            self.out.print(render.round_result(self.game, r.score_detail(), self.names))
            winners = m.winners if i + 1 == len(m.rounds) else None
            self.out.print(render.score_sheet(self.game, m.rules, self.names, scores, winners))

    def _view(self, r: Any) -> Any:
        return r.view(self.seat if self.seat is not None else 0)

    def _show(self, r: Any) -> None:
        """The table, then every hand -- or, for one seat, only that seat's hand."""
        view = self._view(r)
        self.out.print(render.table_view(self.game, view, self.names))
        if self.seat is None:
            hands = [r.hand(s) for s in range(r.players)]
            self.out.print(render.hands_table(self.game, hands, self.names))
        else:
            name = self.names[self.seat]
            whose = (tell("session.your_hand") if name in (YOU, tell("seat.you"))
                     else tell("replay.hand", name=name))
            self.out.print(Text(whose + " ", style="bold")
                           .append_text(render.hand_text(self.game, view.hand)))

    def _pause(self) -> None:
        if not self.step:
            return
        try:
            answer = self.out.input(f"[dim]{escape(tell('replay.pause'))}[/] ")
        except EOFError:
            raise StopReplay from None
        if answer.strip().lower() in ("q", "quit"):
            raise StopReplay


def _review(match: Match, seat: int | None, level: str, only_round: int | None,
            from_move: int) -> None:
    from parlour.bots.hints import BUDGETS

    if level not in BUDGETS:
        fail(f"--level must be one of {', '.join(BUDGETS)}, not {level!r}", 2)
    if only_round is not None and not 1 <= only_round <= len(match.rounds):
        fail(f"--round must be from 1 to {len(match.rounds)}, not {only_round}", 2)
    if from_move < 1:
        fail(f"--move must be 1 or more, not {from_move}", 2)
    if seat is None:
        human = (match.meta or {}).get("human_seat")
        seat = human if isinstance(human, int) and 0 <= human < match.players else 0
    out = stdout()
    total = review.turns_to_review(match, seat, only_round, from_move)
    rows: list[review.Reviewed] = []
    bar = Progress(TextColumn("reviewing"), BarColumn(), MofNCompleteColumn(),
                   TimeRemainingColumn(), console=stderr(), transient=True)
    try:
        with bar:
            task = bar.add_task("review", total=total)
            rows = list(review.review(match, seat, level, 0, only_round, from_move,
                                      lambda: bar.advance(task)))
    except KeyboardInterrupt:
        raise typer.Exit(130) from None
    who = match.seats[seat]
    out.print(review.review_table(match.game.name, rows,
                                  f"{who} (seat {seat}): each move against the engine "
                                  f"({level}), values = estimated chance to win the round"))
    out.print(review.summary_text(rows), soft_wrap=True)


@app.command("replay", short_help="Step through a recorded game, or review its moves.")
def replay_command(
    file: Annotated[Path, typer.Argument(
        metavar="FILE", help="A JSON or JSON Lines record file.")],
    index: Annotated[int, typer.Option(
        "--index", "-i", help="Which record of the file, from 0.")] = 0,
    seat: Annotated[int | None, typer.Option(
        "--seat", help="Show only this seat's view (its own hand, the public table).",
    )] = None,
    step: Annotated[bool, typer.Option(
        "--step", help="Wait for Enter between moves (q quits).")] = False,
    review_moves: Annotated[bool, typer.Option(
        "--review", help="Judge each move of one seat (--seat; default: the person's seat "
                         "in a game from parlour play, else 0) against the engine's best.")
    ] = False,
    level: Annotated[str, typer.Option(
        "--level", metavar="easy|medium|hard|expert",
        help="Review: the engine's search budget (hard and expert also have a time limit, "
             "so their values may vary run to run).")] = "medium",
    round_: Annotated[int | None, typer.Option(
        "--round", metavar="K", help="Review: only round K (from 1).")] = None,
    move: Annotated[int, typer.Option(
        "--move", metavar="M", help="Review: start at move M of the round (from 1).")] = 1,
    lang: Annotated[str | None, lang_option()] = None,
    card_names: Annotated[str, card_names_option()] = "game",
) -> None:
    """Replay a recorded game: every move with the table after it, hands and score sheets; or review one seat's moves.

    Invalid records are reported, not replayed (exit status 1). With --review each move of the seat is shown beside the engine's value, the best alternative, and a mark where the value dropped (?! inaccuracy, ? mistake, ?? blunder).
    """
    with usage_errors():
        speak(lang, card_names)
    match = load_one(file, index)
    if seat is not None and not 0 <= seat < match.players:
        fail(f"--seat must be from 0 to {match.players - 1}, not {seat}", 2)
    if review_moves:
        _review(match, seat, level, round_, move)
        return
    try:
        Replayer(match, stdout(), seat, step).run()
    except KeyboardInterrupt:
        raise typer.Exit(130) from None
