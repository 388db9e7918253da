"""Bots at a live table read each player across the rounds of the game (issue #15):
the server makes a bot for every decision in a worker process, so it hands the bot the
seat's own views of the finished rounds (never another seat's: FT-10, FA-7)."""

from __future__ import annotations

import pytest
from server_kit import play_bot_table, spy_jobs

pytestmark = pytest.mark.timeout(90)


def test_a_bot_is_told_the_finished_rounds_as_its_seat_saw_them(make_app):
    client = make_app()
    jobs = spy_jobs(client)
    play_bot_table(client, "fanti", 2, "easy", 2)
    asked = [(args[3], args[5]) for _, name, args in jobs if name == "choose"]
    firsts = [(v, e) for v, e in asked if not e]
    seconds = [(v, e) for v, e in asked if e]
    assert firsts and seconds and len(firsts) + len(seconds) == len(asked)
    for view, earlier in seconds:
        (before,) = earlier  # one finished round
        assert before.seat == view.seat  # the asking seat's own view of it
        assert before.hand == 0 and len(before.history) == 48  # the whole round, played out
        assert before.dealer != view.dealer
