"""Take a seat at a server table from the terminal, through the public protocol.

``parlour play --connect URL`` calls :func:`play_remote` with an invite link (or a
spectator link, to watch). It joins over HTTP, then speaks the WebSocket protocol of
``docs/protocol.md`` exactly as the page does: hello with the token, moves that name
the sequence number they answer, and reconnection with exponential backoff.
"""

from __future__ import annotations

import io
import json
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qs, urlsplit

import httpx
from rich.console import Console
from rich.text import Text

from parlour import cards
from parlour.games import get_game
from parlour.present import presenter

Output = Callable[[str], None]


@dataclass
class Link:
    """An invite or spectator link, taken apart."""

    base: str
    table: str
    invite: str | None = None
    watch: str | None = None

    @property
    def ws_url(self) -> str:
        return ("wss" if self.base.startswith("https") else "ws") + self.base[
            self.base.index(":"):] + "/ws"


def parse_link(url: str) -> Link:
    """``http://host:8000/t/ID#invite=KEY`` (or ``#watch=KEY``; a query works too)."""
    parts = urlsplit(url.strip())
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise ValueError(f"not a table link: {url!r} (expected http://HOST/t/ID#invite=KEY)")
    segs = [s for s in parts.path.split("/") if s]
    if len(segs) != 2 or segs[0] != "t":
        raise ValueError(f"not a table link: {url!r} (expected a path /t/ID)")
    keys = {k: v[0] for k, v in parse_qs(parts.fragment or parts.query).items()}
    link = Link(f"{parts.scheme}://{parts.netloc}", segs[1], keys.get("invite"), keys.get("watch"))
    if not link.invite and not link.watch:
        raise ValueError("the link has no #invite= or #watch= key")
    return link


def join(link: Link, name: str) -> dict[str, Any]:
    """Take a seat (or a spectator pass) over HTTP; raises RuntimeError with the reason."""
    key = link.invite or link.watch
    r = httpx.post(f"{link.base}/api/tables/{link.table}/join",
                   json={"key": key, "name": name}, timeout=10)
    if r.status_code != 200:
        try:
            reason = r.json().get("message", r.text)
        except ValueError:
            reason = r.text
        raise RuntimeError(f"cannot join: {reason}")
    return r.json()


# --- words ------------------------------------------------------------------------


def move_words(game: str, move: dict[str, Any]) -> str:
    """A move of the protocol (``{"play": "5C", "take": [...]}``) in the game's words."""
    g = get_game(game)
    return presenter(g).move_text(g.move_from_json(move), you=True).plain


def event_words(e: dict[str, Any], state: dict[str, Any]) -> str:
    seats = state["table"]["seats"]
    game = state["table"]["game"]

    def who(s: int) -> str:
        return "you" if s == state["you"] else seats[s]["name"]

    kind = e.get("kind")
    if kind == "move":
        tail = {"forced": " (nothing fits: automatic pass)",
                "standin": " (the computer, standing in)"}.get(e.get("by", ""), "")
        return f"{who(e['seat'])}: {move_words(game, e['move'])}{tail}"
    if kind == "deal":
        return f"Round {e['round']}: {who(e['dealer'])} deals (commitment {e['commit'][:12]}...)"
    if kind == "round_end":
        return f"Round {e['round']} over: {e['score']}"
    if kind == "standin":
        return f"{who(e['seat'])}: the computer plays for this seat ({e['reason']})"
    if kind == "back":
        return f"{who(e['seat'])} is back"
    if kind == "join":
        return f"{e['name']} takes seat {e['seat'] + 1}"
    return ""


def table_text(state: dict[str, Any]) -> str:
    """The table as the game's presenter draws it (the same picture as local play), then
    this seat's hand; the view's fields as lines when the game cannot rebuild its view."""
    v = state["view"]
    game = state["table"]["game"]
    names = [s["name"] + (" (you)" if i == state["you"] else "")
             for i, s in enumerate(state["table"]["seats"])]
    p = presenter(game)
    view = p.view_from_json(v)
    console = Console(file=io.StringIO(), width=100, color_system=None, highlight=False)
    if view is None:
        for k, value in v.items():
            console.print(f"  {k}: {value}", markup=False)
    else:
        console.print(p.table(view, names))
        console.print(Text("Your hand: ").append_text(p.hand_text(view.hand)))
    return console.file.getvalue().rstrip("\n")  # type: ignore[attr-defined]


# --- playing ----------------------------------------------------------------------


def choose(state: dict[str, Any], input_fn: Callable[[str], str], out: Output,
           hints: bool) -> dict[str, Any] | str | None:
    """Ask for a move: a legal move (dict), ``"hint"``, or None to quit."""
    game = state["table"]["game"]
    legal = state["view"]["legal"]
    for i, m in enumerate(legal, 1):
        out(f"  {i}) {move_words(game, m)}")
    if state.get("pass") and state["pass"].get("withholding"):
        out(f"  ({state['pass']['text']})")
    prompt = "your move (number or card" + (", h for a hint" if hints else "") + ", q to quit): "
    while True:
        try:
            text = input_fn(prompt).strip()
        except EOFError:
            return None
        if text.lower() in ("q", "quit"):
            return None
        if hints and text.lower() in ("h", "hint"):
            return "hint"
        if text.isdigit() and 1 <= int(text) <= len(legal):
            return legal[int(text) - 1]
        if text.lower() in ("p", "pass") and {"pass": True} in legal:
            return {"pass": True}
        try:
            code = cards.code(cards.parse(text))
        except ValueError:
            out("  type a number from the list, or a card such as 7D")
            continue
        matching = [m for m in legal if m.get("play") == code]
        if len(matching) == 1:
            return matching[0]
        if matching:
            out("  that card can collect in several ways: type its number")
        else:
            reason = state.get("reasons", {}).get(code, "not playable now")
            out(f"  {code}: {reason}")


def _session(ws: Any, link: Link, auth: dict[str, str], input_fn: Callable[[str], str],
             out: Output, hints: bool) -> int | None:
    """One connection; returns an exit code when done, None to reconnect."""
    ws.send(json.dumps({"type": "hello", "table": link.table, **auth}))
    state: dict[str, Any] | None = None
    seq = -1
    answered = -1
    waiting_shown = False
    while True:
        msg = json.loads(ws.recv())
        kind = msg["type"]
        if kind == "error":
            out(f"server: {msg['message']}")
            if state is None and msg["code"] in ("unauthorised", "not_found", "expired"):
                return 1
            if msg["code"] in ("unavailable", "conflict", "server_error"):
                answered = -1  # not saved: ask again (the state may still be the same)
        elif kind == "bye":
            out(f"server: {msg['reason']}")
            return None
        elif kind == "hint":
            for m in msg["moves"]:
                out(f"  hint: {move_words(state['table']['game'], m['move'])} "  # type: ignore[index]
                    f"(value {m['value']})")
        elif kind == "rematch":
            out(f"rematch: {link.base}{msg['url']}")
            return 0
        if "state" in msg:
            state, seq = msg["state"], msg["seq"]
            if msg.get("event") and (text := event_words(msg["event"], state)):
                out(text)
        if state is None:
            continue
        status = state["table"]["status"]
        if status == "waiting" and not waiting_shown:
            out("waiting for the host to start: " + ", ".join(
                s["name"] if s["claimed"] else "(free)" for s in state["table"]["seats"]))
            waiting_shown = True
        if status in ("over", "expired"):
            if state["winners"] is not None:
                names = [state["table"]["seats"][w]["name"] for w in state["winners"]]
                out(f"game over: totals {state['totals']}; winner(s): {', '.join(names)}")
            return 0
        v = state["view"]
        if (state["you"] is None or v is None or status != "playing" or not state["commit"]
                or v["current_player"] != state["you"] or answered == seq
                or v["legal"] == [{"pass": True}]):
            continue
        out(table_text(state))
        choice = choose(state, input_fn, out, hints)
        if choice is None:
            return 0
        if choice == "hint":
            ws.send(json.dumps({"type": "hint", "seq": seq}))
            continue
        answered = seq
        ws.send(json.dumps({"type": "move", "seq": seq, "move": choice}))


def play_remote(url: str, *, hints: bool = False, name: str | None = None,
                input_fn: Callable[[str], str] = input, output: Output = print,
                retries: int = 15) -> int:
    """Play (or watch) a server table from its link; returns a process exit code."""
    from websockets.exceptions import ConnectionClosed, InvalidHandshake
    from websockets.sync.client import connect

    try:
        link = parse_link(url)
        joined = join(link, name or "Terminal player")
    except (ValueError, RuntimeError, httpx.HTTPError) as e:
        output(f"parlour: {e}")
        return 1
    if joined["role"] == "seat":
        auth = {"token": joined["token"]}
        output(f"You sit in seat {joined['seat'] + 1} at {link.base}/t/{link.table}")
    else:
        auth = {"watch": joined["watch"]}
        output(f"Watching {link.base}/t/{link.table}")
    failures = 0
    while True:
        try:
            with connect(link.ws_url, open_timeout=10, max_size=2 ** 22) as ws:
                failures = 0
                result = _session(ws, link, auth, input_fn, output, hints)
            if result is not None:
                return result
        except (OSError, ConnectionClosed, InvalidHandshake, TimeoutError) as e:
            failures += 1
            if failures > retries:
                output(f"parlour: the server cannot be reached ({e})")
                return 1
            delay = min(5.0, 0.1 * 2 ** failures)
            output(f"connection lost; reconnecting in {delay:.1f} s")
            time.sleep(delay)
