"""The page keeps its state from the server's deltas (issue #13, finding 15): a delta it
never received makes it ask for the whole state (``sync``), and it plays on from the
``snapshot`` to the end of the game."""

from __future__ import annotations

import json

import httpx
import pytest
from browser_kit import OVER, create_by_api, play_until_over, start

from parlour import record

pytestmark = [pytest.mark.browser, pytest.mark.timeout(150)]


def test_a_lost_delta_brings_a_snapshot_and_the_game_goes_on(new_page, live_url):
    page = new_page()
    dropped: list[dict] = []
    after: list[str] = []  # the types of the messages that reached the page after the loss
    asked: list[dict] = []

    def route(ws):
        server = ws.connect_to_server()

        def to_server(message):
            msg = json.loads(message)
            if msg.get("type") == "sync":
                asked.append(msg)
            server.send(message)

        def to_page(message):
            msg = json.loads(message)
            if not dropped and msg.get("type") == "update" and (
                    msg.get("event") or {}).get("kind") == "move":
                dropped.append(msg)  # lost on the way: the page never sees it
                return
            if dropped:
                after.append(msg["type"])
            ws.send(message)

        ws.on_message(to_server)
        server.on_message(to_page)

    page.route_web_socket("**/ws", route)
    table = create_by_api(page, live_url, game="fantan", players=4, rules={"rounds": 1},
                          name="Anna", seats=[{"kind": "person"}] + [
                              {"kind": "bot", "bot": "easy"}] * 3, test={"seed": 5})
    start(page)  # a table of you and computers starts itself
    play_until_over([page])
    assert dropped and asked == [{"type": "sync"}], (len(dropped), asked)
    assert "snapshot" in after
    page.wait_for_selector(OVER)
    # the page shows the game as it ended: every seat's total as the record says
    rec = record.load(httpx.get(f"{live_url}/api/tables/{table}/record").json())
    text = page.inner_text(OVER)
    for total in rec.totals:
        assert str(total) in text
    assert page.errors == []
