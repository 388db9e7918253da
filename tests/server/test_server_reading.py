"""Bots at a live table read each player across the rounds of the game (issue #15):
the server makes a bot for every decision in a worker process, so it hands the bot the
seat's own views of the finished rounds (never another seat's: FT-10, FA-7)."""

from __future__ import annotations

import pytest
from server_kit import Seat, service

pytestmark = pytest.mark.timeout(90)


def test_a_bot_is_told_the_finished_rounds_as_its_seat_saw_them(make_app):
    client = make_app()
    svc = service(client)
    asked = []
    real = svc.pool.run

    async def run(priority, name, *args):
        if name == "choose":
            game, bot, seed, view, seconds, earlier = args
            asked.append((view, earlier))
        return await real(priority, name, *args)

    svc.pool.run = run
    j = client.post("/api/tables", json={"game": "fanti", "players": 2, "rules": {"rounds": 2},
                                         "seats": [{"kind": "bot", "bot": "easy"}] * 2}).json()
    watcher = Seat(client, j["table"], watch=j["watch"])
    watcher.until_state(lambda s: s["table"]["status"] == "over")
    watcher.close()
    firsts = [(v, e) for v, e in asked if not e]
    seconds = [(v, e) for v, e in asked if e]
    assert firsts and seconds and len(firsts) + len(seconds) == len(asked)
    for view, earlier in seconds:
        (before,) = earlier  # one finished round
        assert before.seat == view.seat  # the asking seat's own view of it
        assert before.hand == 0 and len(before.history) == 48  # the whole round, played out
        assert before.dealer != view.dealer
