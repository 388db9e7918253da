"""Take a seat at a server table from the terminal, through the public protocol.

``parlour play --connect URL`` calls :func:`play_remote` with an invite link (or a
spectator link, to watch). It joins over HTTP, then speaks the WebSocket protocol of
``docs/protocol.md`` exactly as the page does: hello with the token, moves that name
the sequence number they answer, ``back`` to take the seat back from a stand-in, and
reconnection with exponential backoff after any connection error.

The table is drawn by the game's presenter from the server's view (rebuilt with
``Presenter.view_from_json``), so a remote game looks like a local one, seats counted
from 0. Messages are read by a thread of their own and typed lines by another, so
the turn timer, the stand-in and the other players' moves are shown while the person
thinks, and a line typed at any time is answered (while the computer stands in, a move
at the person's turn takes the seat back by itself, any other line asks for it once).
A refused message is answered again only once the table has moved (or, after "too
many messages", a second later), so lines that come at once never flood the server.
"""

from __future__ import annotations

import functools
import io
import json
import logging
import os
import queue
import re
import shutil
import ssl
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import httpx
from rich.console import Console, Group
from rich.text import Text

from parlour import cards, render
from parlour.delta import Mirror
from parlour.games import get_game
from parlour.i18n.translate import catalog_json, t
from parlour.present import BadInput, presenter
from parlour.speech import current, listing, number, say, tell

Output = Callable[[str], None]
INTERRUPTED = 130
"""Exit status after Ctrl-C (128 + SIGINT)."""


@dataclass
class Link:
    """An invite or spectator link, taken apart."""

    base: str
    table: str
    invite: str | None = None
    watch: str | None = None
    rejoin: str | None = None

    @property
    def ws_url(self) -> str:
        return ("wss" if self.base.startswith("https") else "ws") + self.base[
            self.base.index(":"):] + "/ws"


def parse_link(url: str) -> Link:
    """``http://host:8000/t/ID#invite=KEY`` (or ``#watch=KEY``, or a personal
    ``#rejoin=KEY``; a query works too)."""
    parts = urlsplit(url.strip())
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise ValueError(tell("remote.bad_scheme", url=repr(url)))
    segs = [s for s in parts.path.split("/") if s]
    if len(segs) != 2 or segs[0] != "t":
        raise ValueError(tell("remote.bad_path", url=repr(url)))
    keys = {k: v[0] for k, v in parse_qs(parts.fragment or parts.query).items()}
    link = Link(f"{parts.scheme}://{parts.netloc}", segs[1], keys.get("invite"),
                keys.get("watch"), keys.get("rejoin"))
    if not link.invite and not link.watch and not link.rejoin:
        raise ValueError(tell("remote.no_key"))
    return link


def _reason(e: BaseException) -> str:
    """An exception as words for a player: ``Connection refused``, not ``[Errno 111] ...``."""
    return re.sub(r"^\[Errno -?\d+\] ", "", str(e)) or type(e).__name__


def tls_context(cacert: str | Path | None) -> ssl.SSLContext | None:
    """What ``--cacert FILE`` trusts: the certificates (PEM) in FILE and nothing else, as
    ``curl --cacert`` does, for a server whose certificate a private CA signed. None
    without it: the system's and certifi's usual trust. Raises ValueError in words."""
    if cacert is None:
        return None
    try:
        return ssl.create_default_context(cafile=str(cacert))
    except (OSError, ssl.SSLError) as e:
        raise ValueError(tell("remote.bad_cacert", path=str(cacert), reason=_reason(e))
                         ) from None


def speech_headers() -> dict[str, str]:
    """The reader's language and card names, as a browser's page tells the server (its
    cookies and Accept-Language): what the server words its refusals and passes in."""
    now = current()
    return {"Accept-Language": now.lang,
            "Cookie": f"parlour_lang={now.lang}; parlour_cards={now.cards}"}


def join(link: Link, name: str, tls: ssl.SSLContext | None = None) -> dict[str, Any]:
    """Take a seat (or a spectator pass) over HTTP, or with a rejoin link take one's
    own seat back; raises RuntimeError with the reason. ``tls``: whom to trust."""
    verify: ssl.SSLContext | bool = tls if tls is not None else True
    try:
        if link.rejoin:  # used once: the answer brings the seat's next rejoin link
            r = httpx.post(f"{link.base}/api/tables/{link.table}/rejoin",
                           json={"key": link.rejoin}, timeout=10, verify=verify,
                           headers=speech_headers())
        else:
            r = httpx.post(f"{link.base}/api/tables/{link.table}/join",
                           json={"key": link.invite or link.watch, "name": name}, timeout=10,
                           verify=verify, headers=speech_headers())
    except httpx.TransportError as e:  # nothing listens, no such host, no answer
        raise RuntimeError(tell("remote.no_server", url=link.base, reason=_reason(e))
                           ) from None
    if r.status_code != 200:
        try:
            reason = r.json().get("message", r.text)
        except ValueError:
            reason = r.text
        raise RuntimeError(tell("remote.cannot_join", reason=reason))
    return r.json()


# --- words ------------------------------------------------------------------------


def move_words(game: str, move: dict[str, Any], you: bool = False) -> str:
    """A move of the protocol (``{"play": "5C", "take": [...]}``) in the game's words:
    ``plays 7♦`` (``play 7♦`` with ``you``)."""
    g = get_game(game)
    return presenter(g).move_text(g.move_from_json(move), you=you).plain


# Names the room gives (server/intents.py, pools.py): a computer seat's "Bot 2" or
# "Computer 2", a person who gave no name "Player 2" -- neutral in the state and the
# record, said in the reader's words here as on the page (web/static/js/seatname.js).
ROOM_NAMED = re.compile(r"(?:Bot|Computer) (\d+)")
UNNAMED = re.compile(r"Player (\d+)")


def seat_name(seat: dict[str, Any]) -> str:
    """A seat's shown name: a room-given name in the reader's language, any other as given."""
    name = str(seat.get("name") or "")
    computer = ROOM_NAMED.fullmatch(name) if seat.get("kind") == "bot" else None
    person = UNNAMED.fullmatch(name)
    if computer or person:
        key = "table.computer_n" if computer else "table.player_n"
        return t(current().lang, key, domain="web", n=number(int((computer or person)[1])))
    return name


def _names(state: dict[str, Any]) -> list[str]:
    return [tell("seat.you") if i == state["you"] else seat_name(s)
            for i, s in enumerate(state["table"]["seats"])]


def event_words(e: dict[str, Any], state: dict[str, Any]) -> str:
    """One line for a logged event, in plain words (no protocol text)."""
    names = _names(state)
    game = state["table"]["game"]

    def who(s: int) -> str:
        return names[s]

    def you(s: int) -> bool:
        return s == state["you"]

    kind = e.get("kind")
    if kind == "move":
        key = {"forced": "remote.move_forced", "standin": "remote.move_standin"}.get(
            e.get("by", ""), "remote.move")
        return tell(key, name=who(e["seat"]), move=move_words(game, e["move"], you(e["seat"])))
    if kind == "deal":
        if you(e["dealer"]):
            return tell("remote.deal_you", number=e["round"])
        return tell("remote.deal", number=e["round"], name=who(e["dealer"]))
    if kind == "round_end":
        return tell("remote.round_over", number=e["round"])
    if kind == "standin":
        why = e.get("reason", "")
        reason = tell(f"remote.reason.{why}" if why in STANDIN_REASONS else "remote.reason.other")
        if you(e["seat"]):
            if why == "timeout":
                return tell("remote.timeout_you")
            return tell("remote.standin_you", reason=reason)
        return tell("remote.standin", name=who(e["seat"]), reason=reason)
    if kind == "back":
        return tell("remote.back_you") if you(e["seat"]) else tell("remote.back",
                                                                   name=who(e["seat"]))
    if kind == "join":
        return tell("remote.join", name=seat_name(e), seat=e["seat"])
    return ""


def refusal_words(msg: dict[str, Any]) -> str:
    """A refused message in the reader's words: the server words an illegal move (and, in
    English, every refusal: its sentence names the seat or the wait) in the language the
    socket said it reads; the others are the page's words for their code (``error.*``)."""
    code, message = msg.get("code", ""), msg.get("message", "")
    lang = current().lang
    if code == "illegal" or lang == "en" or f"error.{code}" not in catalog_json(lang, "web"):
        return message
    return t(lang, f"error.{code}", domain="web").rstrip(".")


def gone_words(msg: dict[str, Any]) -> str:
    """Why this seat is no longer the player's (a ``bye``), in the reader's words: the
    catalog's ``remote.why.<code>``; the server's English sentence for a code it lacks."""
    key = f"remote.why.{msg.get('why')}"
    if key in catalog_json(current().lang, "terminal"):
        return tell(key)
    return str(msg.get("reason", ""))


STANDIN_REASONS = ("timeout", "disconnected", "left")
"""Why the computer stands in for a seat (the server's ``standin`` events), each worded."""


def render_text(renderable: Any, colour: bool) -> str:
    """A Rich renderable as text (ANSI colours with ``colour``)."""
    width = shutil.get_terminal_size((100, 24)).columns
    console = Console(file=io.StringIO(), width=width, force_terminal=colour,
                      color_system="standard" if colour else None, highlight=False)
    console.print(renderable)
    return console.file.getvalue().rstrip("\n")  # type: ignore[attr-defined]


def table_renderable(state: dict[str, Any]) -> Any:
    """The table as the game's presenter draws it (the same picture as local play), then
    this seat's hand; the view's fields as lines when the game cannot rebuild its view."""
    v = state["view"]
    p = presenter(state["table"]["game"])
    view = p.view_from_json(v)
    if view is None:
        return Group(*(Text(f"{k}: {value}") for k, value in v.items()))
    parts: list[Any] = [p.table(view, _names(state))]  # (Fan Tan chips: with the pot)
    if state["you"] is not None:
        parts.append(Text(tell("session.your_hand") + " ", style="bold").append_text(
            p.hand_text(view.hand)))
    return Group(*parts)


def table_text(state: dict[str, Any], colour: bool = False) -> str:
    return render_text(table_renderable(state), colour)


def round_detail(state: dict[str, Any], e: dict[str, Any]) -> dict[str, Any] | None:
    """The itemised score of the round an event ended: the server's, or rebuilt from the
    revealed deck and the round's logged moves (all public once the round is over)."""
    if e.get("detail"):
        return e["detail"]
    k = e.get("round")
    done = state.get("finished")  # the server's Round.score_detail() of the last round
    if isinstance(done, dict) and done.get("round") == k and done.get("detail"):
        return done["detail"]
    deal = next((d for d in state.get("revealed") or [] if d.get("round") == k), None)
    if deal is None:
        return None
    g = get_game(state["table"]["game"])
    try:
        r = g.new_round(state["table"]["rules"], state["table"]["players"], deal["dealer"],
                        [cards.from_code(c) for c in deal["deck"]])
        for m in state.get("log") or []:
            if m.get("kind") == "move" and m.get("round") == k:
                r.apply(g.move_from_json(m["move"]))
    except (ValueError, KeyError, TypeError):
        return None
    return r.score_detail()


# --- playing ----------------------------------------------------------------------

Event = tuple[str, Any]


class RemoteTable:
    """One person's (or spectator's) session at a server table, across reconnections."""

    def __init__(self, link: Link, auth: dict[str, str], input_fn: Callable[[str], str],
                 out: Output, hints: bool, colour: bool, retries: int) -> None:
        self.link, self.auth, self.input_fn, self.out = link, auth, input_fn, out
        self.hints, self.colour, self.retries = hints, colour, retries
        self.events: queue.Queue[Event] = queue.Queue()
        self.state: dict[str, Any] | None = None
        self.mirror = Mirror()  # the state, from the server's snapshots and deltas
        self.ws: Any = None
        self.seq = -1
        self.received_at = 0.0
        self.answered = -1  # the seq a move was sent for (at most one move per state)
        self.back_sent = -1  # the seq a 'back' was sent at (at most one while standing in)
        self.quiet_until = 0.0  # after "too many messages": ask for no line before this
        self.shown = -1  # the seq whose table was last drawn
        self.requests: queue.Queue[str] = queue.Queue()  # prompts for the line reader
        self.pending = False  # a line has been asked for and not yet received
        self.waiting_shown = False
        self.done = False
        self.sent_away = False
        self.reconnected = False  # the next full state follows a dropped connection
        self.rounds_shown: int | None = None  # the last round whose result was shown
        self.headers = speech_headers()  # taken here: the helper threads speak no language

    # --- threads ---------------------------------------------------------------------

    def _read_lines(self) -> None:
        """Ask for a line whenever the session wants one; EOF ends the session."""
        while not self.done:
            prompt = self.requests.get()
            try:
                line = self.input_fn(prompt)
            except (EOFError, KeyboardInterrupt):
                self.events.put(("eof", None))
                return
            self.events.put(("line", line))

    def _read_socket(self, ws: Any) -> None:
        from websockets.exceptions import ConnectionClosed

        try:
            while True:
                self.events.put(("msg", json.loads(ws.recv())))
        except (ConnectionClosed, OSError, TimeoutError, ValueError) as e:
            self.events.put(("closed", e))

    # --- the session -----------------------------------------------------------------

    def run(self, connect: Callable[..., Any]) -> int:
        from websockets.exceptions import InvalidHandshake, WebSocketException

        threading.Thread(target=self._read_lines, daemon=True).start()
        failures = 0
        while True:
            try:
                with connect(self.link.ws_url, open_timeout=10, max_size=2 ** 22,
                             additional_headers=self.headers) as ws:
                    failures = 0
                    self.ws = ws
                    threading.Thread(target=self._read_socket, args=(ws,), daemon=True).start()
                    ws.send(json.dumps({"type": "hello", "table": self.link.table, **self.auth}))
                    result = self._session(ws)
                if result is not None:
                    self.done = True
                    return result
            except (OSError, InvalidHandshake, WebSocketException, TimeoutError) as e:
                failures += 1
                if failures > self.retries:
                    self.out("parlour: " + tell("remote.unreachable", reason=_reason(e)))
                    self.done = True
                    return 1
            self.reconnected = True
            delay = min(5.0, 0.1 * 2 ** max(failures, 1))
            self.out(tell("remote.lost", seconds=f"{delay:.1f}"))
            time.sleep(delay)

    def _session(self, ws: Any) -> int | None:
        """Handle messages and typed lines until the game ends (an exit code) or the
        connection drops (None: reconnect)."""
        while True:
            try:
                kind, data = self.events.get(timeout=1.0)
            except queue.Empty:
                self._maybe_ask()  # a turn held back by the rate limit is asked now
                continue
            if kind == "closed":
                return None
            if kind == "eof":
                return 0
            if kind == "line":
                self.pending = False
                result = self._line(ws, data)
            else:
                result = self._message(data)
            if result is not None:
                return result
            self._maybe_ask()

    def _message(self, msg: dict[str, Any]) -> int | None:
        kind = msg.get("type")
        if kind == "error":
            code = msg.get("code")
            if code != "stale":  # a line typed as the table moved on: its new state is coming
                self.out(tell("remote.refused", reason=refusal_words(msg)))
            if self.state is None and code in ("unauthorised", "not_found", "expired"):
                return 1
            if code == "rate_limited":  # answer again, but not at once: that is the flood
                self.quiet_until = time.monotonic() + 1.0
            if code not in ("stale", "not_your_turn", "not_playing"):
                self.answered = -1  # nothing changed: the same turn may be answered again
        elif kind == "bye":
            if msg.get("reconnect", True) is False:
                self.sent_away = True  # the seat is not kept for this client any more
                self.out(tell("remote.sent_away", reason=gone_words(msg)))
                return 0
            self.out(tell("remote.restarting"))
        elif kind == "hint" and self.state is not None:
            game = self.state["table"]["game"]
            rules = self.state["table"].get("rules") or {}
            for m in msg.get("moves", []):
                if m.get("points") is not None:  # the game counts hints in points
                    words = tell("session.hint_points", chance=f"{100 * m['value']:.0f}%",
                                 points=presenter(game).expected_text(rules, m["points"]))
                else:
                    words = tell("session.hint_value", value=f"{m['value']:.2f}")
                first = m is msg["moves"][0]
                equal = f" = {say('moves.equal')}" if m.get("equal") and not first else ""
                self.out(tell("remote.hint", move=move_words(game, m["move"], you=True),
                              value=words + equal))
        elif kind == "rematch":
            self.out(tell("remote.rematch", url=f"{self.link.base}{msg['url']}"))
            return 0
        was_standing_in = self._standing_in()  # (before the mirror changes the state in place)
        if not self.mirror.take(msg):  # a version was missed: ask for the whole state
            self.ws.send(json.dumps({"type": "sync"}))
            return None
        if "state" in msg or "delta" in msg:
            self.state, self.seq = self.mirror.state, msg["seq"]
            self.received_at = time.monotonic()
            event = msg.get("event")
            if not self._standing_in():
                self.back_sent = -1
                if was_standing_in and (event or {}).get("kind") != "back":
                    self.out(tell("remote.back_you"))  # taken back by a move
            if event and (text := event_words(event, self.state)):
                self.out(text)
            self._round_results()
            if self.reconnected and "state" in msg:
                self.reconnected = False
                self._redraw()
        return self._status()

    def _round_results(self) -> None:
        """Each round that ended since the last state, item by item (with where the last
        table cards went, in the result's notes). The server's message carries the move
        that ended the round; the round's end is in the log it holds."""
        assert self.state is not None
        ended = [e for e in self.state.get("log") or [] if e.get("kind") == "round_end"]
        if self.rounds_shown is None:  # joining: rounds already over are not news
            self.rounds_shown = max((e.get("round", 0) for e in ended), default=0)
            return
        for e in ended:
            if e.get("round", 0) <= self.rounds_shown:
                continue
            self.rounds_shown = e["round"]
            detail = round_detail(self.state, e)
            if detail is not None:
                self.out(render_text(render.round_result(
                    self.state["table"]["game"], detail, _names(self.state)), self.colour))
            else:
                self.out(tell("remote.round_over", number=e["round"]))

    def _redraw(self) -> None:
        """After a reconnection: the table as it stands now and whose turn it is (a move
        sent on the lost connection may never have arrived, so the turn is asked again)."""
        s = self.state
        assert s is not None
        self.shown = self.answered = -1
        self.out(tell("remote.reconnected"))
        if s["table"]["status"] != "playing" or s.get("view") is None:
            return
        if not self._my_turn():
            self.out(table_text(s, self.colour))
            turn = s["view"].get("current_player")
            if isinstance(turn, int):
                self.out(tell("remote.turn_of", name=_names(s)[turn]))
        else:
            self.out(tell("remote.your_turn"))

    def _status(self) -> int | None:
        state = self.state
        if state is None:
            return None
        status = state["table"]["status"]
        if status == "waiting" and not self.waiting_shown:
            self.out(tell("remote.waiting", seats=listing([
                seat_name(s) if s["claimed"] else tell("remote.free_seat")
                for s in state["table"]["seats"]])))
            self.waiting_shown = True
        if status in ("over", "expired"):
            if state.get("winners"):
                names = _names(state)
                winners = state["winners"]
                totals = listing([tell("remote.total", name=n, total=number(t))
                                  for n, t in zip(names, state["totals"], strict=False)])
                won = render.winners_text(names, winners, state["totals"], you=state["you"])
                self.out(tell("remote.game_over_totals", winners=won.plain, totals=totals))
            else:
                self.out(tell("remote.game_over"))
            return 0
        return None

    # --- the person's part -----------------------------------------------------------

    def _my_turn(self) -> bool:
        s = self.state
        return bool(s and s["you"] is not None and s["view"] is not None
                    and s["table"]["status"] == "playing" and s.get("commit")
                    and s["view"]["current_player"] == s["you"])

    def _standing_in(self) -> bool:
        s = self.state
        return bool(s and s["you"] is not None and s["table"]["seats"][s["you"]].get("auto"))

    def _time_left(self) -> float | None:
        d = (self.state or {}).get("deadline")
        if not d or d.get("seat") != (self.state or {}).get("you") or d.get("left") is None:
            return None
        return max(0.0, d["left"] - (time.monotonic() - self.received_at))

    def _maybe_ask(self) -> None:
        """Show the turn and ask for a line at the person's turn; while the computer
        stands in, ask for a line that takes the seat back."""
        if self.state is None:
            return
        if time.monotonic() < self.quiet_until:
            return
        if self._standing_in():
            if self.back_sent != self.seq:  # else the seat is on its way back
                self._ask(tell("remote.ask_back"))
            return
        if not self._my_turn() or self.answered == self.seq:
            return
        legal = self.state["view"]["legal"]
        if (self.state.get("pass") or {}).get("auto"):
            return  # the server passes for the person (forced, announced)
        left = self._time_left()
        ways = tell("remote.ways_hints" if self.hints else "remote.ways")
        prompt = (tell("remote.prompt", ways=ways) if left is None else
                  tell("remote.prompt_timer", seconds=f"{left:.0f}", ways=ways))
        if self.shown != self.seq:  # a new turn: the table, the moves, the timer
            self.shown = self.seq
            self.out(table_text(self.state, self.colour))
            game = self.state["table"]["game"]
            for i, m in enumerate(legal, 1):
                self.out(f"  {i}. {move_words(game, m, you=True).removeprefix('play ')}")
            if self.state.get("pass") and self.state["pass"].get("withholding"):
                self.out(f"  ({self.state['pass']['text']})")
            if self.pending:  # a line is already awaited: say what it is for now
                self.out(prompt.rstrip())
        self._ask(prompt)

    def _ask(self, prompt: str) -> None:
        """Have the line reader ask for one line (unless one is awaited already)."""
        if not self.pending:
            self.pending = True
            self.requests.put(prompt)

    def _line(self, ws: Any, text: str) -> int | None:
        low = text.strip().lower()
        if low in ("q", "quit"):
            return 0
        if self._standing_in():
            # A move at this turn takes the seat back by itself (the server logs it so);
            # anything else asks for the seat once, then waits for the table's answer.
            if (low not in ("back", "", "h", "hint") and self._my_turn()
                    and self.answered != self.seq):
                choice = self._choice(text)
                if choice is not None:
                    self.answered = self.seq
                    ws.send(json.dumps({"type": "move", "seq": self.seq, "move": choice}))
                    return None
            if self.back_sent != self.seq:
                self.back_sent = self.seq
                ws.send(json.dumps({"type": "back"}))
            return None
        if low == "back" or not low:
            if self._my_turn():
                self.shown = -1  # show the turn again
            return None
        if not self._my_turn():
            self.out(tell("remote.not_your_turn"))
            return None
        if self.hints and low in ("h", "hint"):
            ws.send(json.dumps({"type": "hint", "seq": self.seq}))
            return None
        choice = self._choice(text)
        if choice is not None:
            self.answered = self.seq
            ws.send(json.dumps({"type": "move", "seq": self.seq, "move": choice}))
        return None

    def _choice(self, text: str) -> dict[str, Any] | None:
        """The legal move meant by a typed line, or None after saying why not."""
        assert self.state is not None
        game = get_game(self.state["table"]["game"])
        p = presenter(game)
        view = p.view_from_json(self.state["view"])
        legal = self.state["view"]["legal"]
        try:
            if view is None:
                if text.strip().isdigit() and 1 <= int(text) <= len(legal):
                    return legal[int(text) - 1]
                raise BadInput(tell("remote.type_number"))
            return game.move_to_json(p.read_move(view, text))
        except ValueError as e:  # BadInput, or a move the view cannot hold
            self.out(f"  {e}")
            self.out("  " + tell("remote.type_again"))
        return None


def play_remote(url: str, *, hints: bool = False, name: str | None = None,
                input_fn: Callable[[str], str] = input, output: Output | None = None,
                retries: int = 15, pace: float | None = None,
                cacert: str | Path | None = None) -> int:
    """Play (or watch) a server table from its link; returns a process exit code.

    ``pace`` is accepted for symmetry with local play; the server paces its bots.
    ``cacert``: a PEM file of the CA to trust for an https link (``--cacert``)."""
    from websockets.sync.client import connect

    logging.getLogger("websockets").addHandler(logging.NullHandler())
    logging.getLogger("websockets").propagate = False  # keepalive failures are handled here
    colour = output is None and sys.stdout.isatty() and "NO_COLOR" not in os.environ
    out: Output = output or print
    try:
        tls = tls_context(cacert)
        link = parse_link(url)
        joined = join(link, name or "", tls)  # no name: the room's "Player N", worded by each reader
    except (ValueError, RuntimeError, httpx.HTTPError) as e:
        out(f"parlour: {e}")
        return 1
    if tls is not None and link.ws_url.startswith("wss:"):
        connect = functools.partial(connect, ssl=tls)
    rejoin = joined.get("rejoin_url") or None  # absolute, or a path on this server
    if rejoin and not rejoin.startswith(("http://", "https://")):
        rejoin = f"{link.base}{rejoin}"
    if joined["role"] == "seat":
        auth = {"token": joined["token"]}
        out(tell("remote.back_in" if link.rejoin else "remote.sit", seat=joined["seat"],
                 url=f"{link.base}/t/{link.table}"))
        if rejoin:
            out(tell("remote.rejoin_link", url=rejoin))
    else:
        auth = {"watch": joined["watch"]}
        out(tell("remote.watching", url=f"{link.base}/t/{link.table}"))
    table = RemoteTable(link, auth, input_fn, out, hints, colour, retries)
    try:
        code = table.run(connect)
    except KeyboardInterrupt:
        table.done = True
        code = INTERRUPTED
    status = (table.state or {}).get("table", {}).get("status")
    if rejoin and not table.sent_away and status not in ("over", "expired"):
        out(tell("remote.seat_kept", command=f"parlour play --connect '{rejoin}'"))
    return code
