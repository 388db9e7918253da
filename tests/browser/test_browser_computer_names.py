"""A computer seat's name in the reader's language (js/seatname.js): the room names a
computer seat "Bot 2" (a custom table) or "Computer 2" (the pool), and the table's state
and its record keep that neutral name; every page shows it from the catalog
(``table.computer_n``), with the same number -- the seats, the log, the end screen, the
replay -- never the English (in English, "Bot 2" as well)."""

from __future__ import annotations

import httpx
import pytest
from browser_kit import OVER, create_with_form, play_until_over, start
from test_browser_i18n import bots_ready, no_keys

from parlour.i18n import catalog_json

pytestmark = [pytest.mark.browser, pytest.mark.timeout(400)]


@pytest.mark.parametrize("code", ["en", "fa"])
def test_a_computer_seat_is_named_in_the_readers_language(new_page, live_url, code):
    bots_ready(live_url)
    shown = catalog_json(code, "web")["table.computer_n"].format(n="2")
    page = new_page(locale={"fa": "fa-IR"}.get(code, code))
    table = create_with_form(page, live_url, "fanti", {"fa": "آنا"}.get(code, "Ann"), rounds=1,
                             seats=["bot:easy"])
    start(page)
    assert page.inner_text('.seat[data-seat="1"] .seat-name') == shown
    info = httpx.get(f"{live_url}/api/tables/{table}", timeout=10).json()
    assert info["seats"][1]["name"] == "Bot 2"  # the state keeps the room's neutral name
    play_until_over([page], limit=200)
    page.wait_for_selector(OVER)
    text = no_keys(page)
    assert shown in page.inner_text(".placings") and shown in page.inner_text(".sheet thead")
    assert shown in page.locator(".log").last.inner_text()  # the log's latest lines
    if code != "en":  # English words it "Bot 2" too; every other language its own way
        assert "Bot 2" not in text
    record = page.evaluate(f"fetch('/api/tables/{table}/record').then((r) => r.json())")
    assert record["seats"][1] == "Bot 2"  # and so does the record (docs/web.md)
    page.goto(f"{live_url}/replay/{table}")
    page.wait_for_selector(".replay-seat")
    assert shown in page.inner_text("main")
    assert code == "en" or "Bot 2" not in page.inner_text("main")


def test_a_person_who_gave_no_name_is_a_player_in_the_readers_language(new_page, live_url):
    """Quick play seats a person who gave no name as "Player 1" (the state and the record
    keep it); a Persian page shows its own word for a player with the number."""
    bots_ready(live_url)
    shown = catalog_json("fa", "web")["table.player_n"].format(n="1")
    page = new_page(locale="fa-IR")
    page.context.add_cookies([{"name": "parlour_lang", "value": "fa", "url": live_url}])
    page.goto(live_url + "/")
    page.click("[data-action=quick-play][data-game=fanti]")
    page.wait_for_url("**/t/*")
    page.wait_for_selector(".hand .card")
    table = page.url.rsplit("/", 1)[1]
    assert shown in page.inner_text('.seat[data-seat="0"] .seat-name')
    assert "Player 1" not in page.inner_text("main")
    info = httpx.get(f"{live_url}/api/tables/{table}", timeout=10).json()
    assert info["seats"][0]["name"] == "Player 1"
