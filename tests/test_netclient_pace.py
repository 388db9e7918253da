"""``parlour play --connect`` answers each state of the table once, however fast lines
come (a script, a pipe, typing ahead): one 'back' while the computer stands in, no move
sent again after the table moved on, a pause after "too many messages". Before, every
line while standing in sent 'back' and a stale move and was asked again at once: a pipe
sent hundreds of messages in a stand-in's 0.6 s and the server closed the socket."""

from __future__ import annotations

import json
import queue

from parlour import netclient
from parlour.netclient import Link, RemoteTable


def table(*, standing_in: bool, turn: int) -> dict:
    seats = [{"name": "Ann", "claimed": True, "auto": None},
             {"name": "Term", "claimed": True, "auto": "timeout" if standing_in else None}]
    return {"type": "state", "seq": 7, "v": 1, "state": {
        "table": {"game": "fanti", "status": "playing", "players": 2, "rules": {},
                  "seats": seats},
        "you": 1, "commit": "c", "deadline": None, "log": [],
        "view": {"current_player": turn, "legal": [{"play": "5C", "take": []}]}}}


class Wire:
    def __init__(self) -> None:
        self.sent: list[dict] = []

    def send(self, text: str) -> None:
        self.sent.append(json.loads(text))


def session(first: dict) -> tuple[RemoteTable, Wire, list[str]]:
    said: list[str] = []
    rt = RemoteTable(Link("http://x", "T", invite="k"), {"token": "t"}, input, said.append,
                     False, False, 3)
    rt.ws = Wire()
    rt.rounds_shown = 0
    rt._message(first)
    rt.shown = rt.seq  # the table is drawn (not what these tests look at)
    return rt, rt.ws, said


def asked(rt: RemoteTable) -> list[str]:
    out = []
    while True:
        try:
            out.append(rt.requests.get_nowait())
        except queue.Empty:
            return out


def test_lines_while_standing_in_ask_for_the_seat_once():
    rt, wire, _ = session(table(standing_in=True, turn=0))
    rt._maybe_ask()
    assert len(asked(rt)) == 1  # "Type a move or 'back'..."
    for _ in range(50):  # fifty lines at once, before the table answers
        rt.pending = False
        rt._line(wire, "1")
        rt._maybe_ask()
    assert wire.sent == [{"type": "back"}]
    assert asked(rt) == []  # nothing more is asked until the seat is back


def test_a_stale_refusal_is_silent_and_waits_for_the_next_state():
    rt, wire, said = session(table(standing_in=False, turn=1))
    rt.answered = rt.seq  # the move for seq 7 went out; the table had moved on
    rt.pending = False
    rt._message({"type": "error", "code": "stale",
                 "message": "stale: this answers seq 7, but the table is at seq 8"})
    rt._maybe_ask()
    assert asked(rt) == [] and wire.sent == []
    assert not any("stale" in line or "seq" in line for line in said)


def test_too_many_messages_waits_a_second_before_asking_again(monkeypatch):
    clock = [100.0]
    monkeypatch.setattr(netclient.time, "monotonic", lambda: clock[0])
    rt, wire, said = session(table(standing_in=False, turn=1))
    rt.answered = rt.seq
    rt.pending = False
    rt._message({"type": "error", "code": "rate_limited",
                 "message": "too many messages: at most 10 a second"})
    assert any("too many messages" in line for line in said)
    rt._maybe_ask()
    assert asked(rt) == []  # not at once: that is what the limit refused
    clock[0] += 1.1
    rt._maybe_ask()
    assert len(asked(rt)) == 1  # the same turn is asked again


def test_a_move_that_takes_the_seat_back_says_so():
    """The server takes the seat back with the person's move (no 'back' event): the
    client says so from the change of the seat, read before the delta changes the state
    in place (it was read after, and never seen, in a live game)."""
    rt, _, said = session(table(standing_in=True, turn=1))
    delta = {"type": "update", "seq": 8, "v": 2,
             "event": {"kind": "move", "seat": 1, "by": "person",
                       "move": {"play": "5C", "take": []}},
             "delta": [["=", ["table", "seats", 1, "auto"], None],
                       ["=", ["view", "current_player"], 0]]}
    rt._message(delta)
    assert said[-2:] == ["You are back in your seat.", "You play Leaf 5 to the table"]
