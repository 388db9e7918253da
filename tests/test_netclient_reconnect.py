"""``parlour play --connect`` keeps going through connection errors (issue 16, defect 1):
a refused connection and a connection that drops mid-game (as a failed keepalive ping
does) are reconnected with backoff and a plain message, never a traceback."""

from __future__ import annotations

import json
import queue

from websockets.exceptions import ConnectionClosedError, ConnectionClosedOK
from websockets.frames import Close

from deal_helpers import worded
from parlour import netclient
from parlour.netclient import Link, RemoteTable


def over_state() -> dict:
    return {"table": {"game": "fanti", "status": "over", "players": 2, "rules": {},
                      "seats": [{"name": "Ann", "claimed": True}, {"name": "Term",
                                                                  "claimed": True}]},
            "you": 1, "view": None, "winners": [1], "totals": [2, 5]}


class FakeSocket:
    """Replays scripted frames; an exception in the script is raised by ``recv``."""

    def __init__(self, script: list) -> None:
        self.script = queue.Queue()
        for item in script:
            self.script.put(item)
        self.sent: list[dict] = []

    def __enter__(self) -> FakeSocket:
        return self

    def __exit__(self, *exc: object) -> None:
        return None

    def send(self, text: str) -> None:
        self.sent.append(json.loads(text))

    def recv(self, timeout: float | None = None) -> str:
        try:
            item = self.script.get(timeout=5)
        except queue.Empty:  # the script is over: the server closed, as a real one would
            raise ConnectionClosedOK(Close(1000, ""), None) from None
        if isinstance(item, BaseException):
            raise item
        return json.dumps(item)


def test_refused_and_dropped_connections_are_reconnected(monkeypatch):
    monkeypatch.setattr(netclient.time, "sleep", lambda s: None)
    keepalive = ConnectionClosedError(Close(1011, "keepalive ping timeout"), None)
    sockets = [OSError("connection refused"),
               FakeSocket([keepalive]),
               FakeSocket([{"type": "welcome", "seq": 9, "state": over_state()}])]
    used: list[FakeSocket] = []

    def connect(url: str, **kw: object) -> FakeSocket:
        item = sockets.pop(0)
        if isinstance(item, BaseException):
            raise item
        used.append(item)
        return item

    out: list[str] = []
    table = RemoteTable(Link("http://127.0.0.1:1", "T", invite="k"), {"token": "t"},
                        lambda prompt: "q", out.append, hints=False, colour=False, retries=5)
    assert table.run(connect) == 0
    assert sum("reconnecting" in line for line in out) == 2
    assert all(s.sent[0] == {"type": "hello", "table": "T", "token": "t"} for s in used)
    assert out[-1].startswith("Game over: You win")
    assert not any("Traceback" in line or "keepalive" in line for line in out)


def test_a_server_that_stays_away_ends_cleanly(monkeypatch):
    monkeypatch.setattr(netclient.time, "sleep", lambda s: None)

    def connect(url: str, **kw: object) -> FakeSocket:
        raise OSError("connection refused")

    out: list[str] = []
    table = RemoteTable(Link("http://127.0.0.1:1", "T", invite="k"), {"token": "t"},
                        lambda prompt: "q", out.append, hints=False, colour=False, retries=2)
    assert table.run(connect) == 1
    assert out[-1] == "parlour: the server cannot be reached (connection refused)"


def test_round_results_use_the_servers_itemised_score():
    """The state's ``finished`` (the server's ``score_detail()``) is what the terminal
    shows at a round's end; without it, the round is rebuilt from the revealed deck."""
    from parlour import cards
    from parlour.games.fanti.rules import FANTI
    from playout import random_playout

    m = random_playout("fanti", 2, 3, {"rounds": 1})
    detail = m.rounds[0].score_detail()
    state = {"table": {"game": "fanti", "rules": m.rules, "players": 2}, "log": [],
             "finished": {"round": 1, "detail": detail}}
    assert netclient.round_detail(state, {"kind": "round_end", "round": 1}) == detail
    r = m.rounds[0]
    rebuilt = {"table": state["table"], "finished": None,
               "revealed": [{"round": 1, "dealer": r.dealer,
                             "deck": [cards.code(c) for c in r.deck]}],
               "log": [{"kind": "move", "round": 1, "seat": s, "move": FANTI.move_to_json(mv)}
                       for s, mv in r.history]}
    assert netclient.round_detail(rebuilt, {"kind": "round_end", "round": 1}) == detail


def _playing_state(turn_of_other: bool) -> dict:
    """A real mid-round Fan Tan view of seat 1 (Term), at Ann's turn or at Term's."""
    from parlour.games.fantan.rules import FANTAN
    from parlour.match import Match, Shuffler

    m = Match.new(FANTAN, 3, FANTAN.rules(3, {"rounds": 1}), shuffler=Shuffler(4))
    r = m.rounds[0]
    while (r.current_player == 1) == turn_of_other:
        r.apply(r.legal_moves()[0])
    seats = [{"name": n, "claimed": True} for n in ("Ann", "Term", "Bo")]
    return {"table": {"game": "fantan", "status": "playing", "players": 3, "rules": m.rules,
                      "seats": seats},
            "you": 1, "view": r.view(1).to_json(), "commit": "c", "log": []}


def _run(states: list, answer=lambda prompt: "q") -> list[str]:
    """Each state is a welcome on a connection of its own; each connection then drops."""
    keepalive = ConnectionClosedError(Close(1011, "keepalive ping timeout"), None)
    sockets = [FakeSocket([{"type": "welcome", "seq": 9, "state": s}, keepalive])
               for s in states[:-1]]
    sockets.append(FakeSocket([{"type": "welcome", "seq": 10, "state": states[-1]}]))

    def connect(url: str, **kw: object) -> FakeSocket:
        return sockets.pop(0)

    out: list[str] = []
    table = RemoteTable(Link("http://127.0.0.1:1", "T", invite="k"), {"token": "t"},
                        answer, out.append, hints=False, colour=False, retries=5)
    assert table.run(connect) == 0
    return out


def _never(prompt: str) -> str:
    import threading
    threading.Event().wait(30)
    return "q"


def test_after_a_reconnection_the_table_and_the_turn_are_shown(monkeypatch):
    """#36 finding 7: reconnected at someone else's turn, the terminal says so and draws
    the table (before, it said "reconnecting…" and then nothing)."""
    monkeypatch.setattr(netclient.time, "sleep", lambda s: None)
    playing = _playing_state(turn_of_other=True)
    out = _run([playing, playing, over_state()], answer=_never)
    text = "\n".join(out)
    after = text.split("Reconnected.", 1)[1]
    turn = ["Ann", "Term", "Bo"][playing["view"]["current_player"]]
    assert f"It is {turn}'s turn." in after and "Your hand:" in after


def test_after_a_reconnection_at_your_turn_the_moves_are_asked_again(monkeypatch):
    monkeypatch.setattr(netclient.time, "sleep", lambda s: None)
    playing = _playing_state(turn_of_other=False)
    prompts: list[str] = []

    def answer(prompt: str) -> str:
        prompts.append(prompt)
        return _never(prompt)

    out = _run([playing, playing, over_state()], answer=answer)
    after = "\n".join(out).split("Reconnected.", 1)[1]
    assert "It is your turn." in after and "Your hand:" in after and "  1. " in after


def test_a_round_that_ends_shows_its_itemised_result(monkeypatch):
    """#36 finding 7: the server's message carries the move that ended the round; the
    round's end is in its log, and the terminal shows the result item by item (with
    the notes, such as where the last table cards went)."""
    from playout import random_playout

    monkeypatch.setattr(netclient.time, "sleep", lambda s: None)
    m = random_playout("fanti", 2, 3, {"rounds": 1})
    detail = worded(m.rounds[0])  # as the server sends it
    first = {**over_state(), "table": {**over_state()["table"], "status": "playing"},
             "view": None, "log": []}
    ended = {**over_state(), "log": [{"kind": "round_end", "round": 1}],
             "finished": {"round": 1, "detail": detail}}
    out = _run([first, ended], answer=_never)
    text = "\n".join(out)
    assert text.count("Round result") == 1 and "total" in text
    for note in detail.get("notes", []):  # e.g. where the last table cards went (FA-8)
        assert note["text"].split()[0] in text
