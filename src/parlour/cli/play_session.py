"""The interactive loop of ``parlour play``: one person against computer players.

:class:`PlaySession` deals the rounds of a :class:`~parlour.match.Match`, asks the
person for a move at their turn, lets each bot choose from its own view, and prints
what happens. The person sees only their own view (FT-10, FA-7). Reading input is a
function passed in, so tests can script it; end of input raises ``EOFError`` and
Ctrl-C ``KeyboardInterrupt``, both left to the caller (which saves the record).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import Any

from rich.console import Console
from rich.text import Text

from parlour import refusals, render
from parlour.cli.move_input import HELP_WORDS, QUIT_WORDS, BadInput, help_line, read_move
from parlour.game import PASS, Move
from parlour.match import Match, Shuffler
from parlour.present import presenter
from parlour.speech import say, tell

HintsFn = Callable[..., list[Any]]
"""``parlour.bots.hints.rich_hints`` (or anything that returns its ``Hint`` list)."""


class QuitGame(Exception):
    """The person asked to stop (``q``)."""


def pass_note(game: str, view: Any) -> str:
    """What a pass costs now, as the menu states it (the game's presenter says)."""
    return presenter(game).pass_note(view)


class PlaySession:
    """A whole game at the terminal. ``human`` is the person's seat; ``bots[s]`` plays seat s."""

    def __init__(self, match: Match, human: int, bots: Sequence[Any], shuffler: Shuffler,
                 console: Console, read: Callable[[str], str],
                 hints: HintsFn | None = None, hint_seed: int = 0,
                 pace: float = 0.0, on_change: Callable[[], object] | None = None) -> None:
        self.match = match
        self.on_change = on_change  # called after every deal and move (the autosave)
        self.game = match.game.name
        self.human = human
        self.bots = bots
        self.shuffler = shuffler
        self.out = console
        self.read = read
        self.hints = hints
        self.hint_seed = hint_seed
        self.pace = pace
        self.names = match.seats

    # --- the game ------------------------------------------------------------------

    def run(self) -> None:
        """Play to the end of the game (or until the person quits or input ends)."""
        m = self.match
        while not m.is_over:
            if m.needs_deal:
                m.deal(self.shuffler.deck())
                self._changed()
            r = m.rounds[-1]
            self._round_start(len(m.rounds), r)
            while not r.is_over:
                seat = r.current_player
                before = r.view(seat)
                move = self._human_move(r) if seat == self.human else self._bot_move(r, seat)
                r.apply(move)
                self._changed()
                self._after_move(before, move, r)
            self._round_end(r)
        self._game_end()

    def _changed(self) -> None:
        if self.on_change is not None:
            self.on_change()

    def _round_start(self, number: int, r: Any) -> None:
        """The round's heading; when a computer player moves first (or the round is
        resumed part-way), the table as it stands, so the first moves have a picture."""
        m = self.match
        self.out.print()
        title = tell("session.round", number=number, rounds=m.rules["rounds"],
                     dealer=self.names[r.dealer])
        if r.history:
            title += tell("session.resumed", count=len(r.history))
        self.out.rule(title)
        if r.current_player != self.human:
            self._show_table(r.view(self.human))

    def _show_table(self, view: Any) -> None:
        self.out.print(render.table_view(self.game, view, self.names))
        self.out.print(Text(tell("session.your_hand") + " ", style="bold").append_text(
            render.hand_text(self.game, view.hand)))

    def _bot_move(self, r: Any, seat: int) -> Move:
        started = time.monotonic()
        if self.out.is_terminal and self.pace > 0:
            with self.out.status(tell("session.thinking", name=self.names[seat]),
                                 spinner="dots"):
                move = self.bots[seat].choose(r.view(seat))
                self._wait(started)
        else:
            move = self.bots[seat].choose(r.view(seat))
            self._wait(started)
        self.out.print(Text(f"{self.names[seat]} ", style="bold")
                       .append_text(render.move_text(self.game, move)))
        return move

    def _wait(self, since: float) -> None:
        """Sleep what is left of the pace since ``since`` (a slow bot is its own pause)."""
        left = self.pace - (time.monotonic() - since)
        if left > 0:
            time.sleep(left)

    def _after_move(self, before: Any, move: Move, r: Any) -> None:
        for note in render.move_notes(self.game, before, move, r.view(self.human), self.names):
            self.out.print(note)

    def _round_end(self, r: Any) -> None:
        m = self.match
        self.out.print()
        self.out.print(render.round_result(self.game, r.score_detail(), self.names))
        self.out.print(render.score_sheet(self.game, m.rules, self.names, m.scores(),
                                          m.winners))

    def _game_end(self) -> None:
        m = self.match
        self.out.print(render.winners_text(self.names, m.winners or [], m.totals, self.human))

    # --- the person's turn -----------------------------------------------------------

    def _human_move(self, r: Any) -> Move:
        view = r.view(self.human)
        self.out.print()
        self._show_table(view)
        if list(view.legal) == [PASS]:
            note = pass_note(self.game, view)
            self.out.print(Text(tell("session.forced_pass", note=note), style="yellow"))
            self._wait(time.monotonic())
            return PASS
        values, best = self._hint_values(view, len(r.history))
        self.out.print(render.moves_table(self.game, view.legal, values, best,
                                          pass_note(self.game, view), view.rules))
        while True:
            text = self.read(tell("session.prompt") + " ")
            low = text.strip().lower()
            if low in QUIT_WORDS:
                raise QuitGame
            if low in HELP_WORDS:
                self.out.print(help_line(self.game))
                continue
            try:
                move = read_move(self.game, view, text)
            except BadInput as e:
                self._reject(str(e))
                continue
            refused = r.refusal(move)
            if refused is None:
                self.out.print(Text(tell("session.you") + " ", style="bold").append_text(
                    render.move_text(self.game, move, you=True)))
                return move
            self._reject(refusals.worded(refused))  # in --lang, with card names

    def _reject(self, reason: str) -> None:
        self.out.print(Text("✗ ", style="bold red").append(reason), soft_wrap=True)

    def _hint_values(self, view: Any, ply: int) -> tuple[dict[Move, Any] | None, Move | None]:
        if self.hints is None:
            return None, None
        try:
            ranked = self.hints(self.game, view, level="hard",
                                seed=self.hint_seed + 1000 * len(self.match.rounds) + ply,
                                earlier=self.match.earlier_views(self.human))
        except Exception as e:  # a failing helper must not end the person's game
            self.out.print(Text(tell("session.no_hints", reason=str(e)), style="dim"))
            self.hints = None
            return None, None
        if not ranked:
            return None, None
        top = ranked[0]
        best = top.move
        if top.points is not None:
            words = tell("session.hint_points", chance=f"{100 * top.value:.0f}%",
                         points=presenter(self.game).expected_text(view.rules, top.points))
        else:
            words = tell("session.hint_value", value=f"{top.value:.2f}")
        line = Text(tell("session.hint") + " ", style="bold yellow").append_text(
            render.option_text(self.game, best)).append("  " + words)
        equal = [h.move for h in ranked[1:] if h.equal_to_best]
        if equal:
            line.append("; " + tell("session.hint_equal", moves=say("list.join").join(
                render.option_text(self.game, m).plain for m in equal)))
        self.out.print(line)
        return {h.move: h for h in ranked}, best


def describe_seats(names: Sequence[str], human: int, bot_names: Sequence[str | None]) -> str:
    """``You are seat 0. Opponents: Bot 1 (greedy), Bot 2 (random).``"""
    others = [f"{names[s]} ({b})" for s, b in enumerate(bot_names) if s != human]
    return tell("session.seats", seat=human, opponents=say("list.join").join(others))

