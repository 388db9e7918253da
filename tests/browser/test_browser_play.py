"""End-to-end in real Chromium: people create tables, play, reload and watch."""

from __future__ import annotations

import re
import time

import httpx
import pytest
from browser_kit import OVER, TURN, create_by_api, create_with_form, play_until_over, start

from parlour import cards

pytestmark = [pytest.mark.browser, pytest.mark.timeout(150)]


def test_fantan_against_three_bots_to_the_end(new_page, live_url, artifacts):
    page = new_page()
    frames: list[str] = []
    page.on("websocket", lambda ws: ws.on("framereceived", lambda f: frames.append(str(f))))
    table = create_with_form(page, live_url, "fantan", "Anna", rounds=1)
    # You and computers from the custom form: the game starts without asking (#33).
    page.wait_for_selector(".hand .card")
    assert page.query_selector("[data-action=start]") is None
    page.wait_for_selector(TURN)
    # Own hand sorted by suit; unplayable cards say why, in the engine's words (FT-4).
    hand = [c.get_attribute("data-card") for c in page.query_selector_all(".hand .card")]
    keys = [(("CDHS".index(c[-1])), cards.RANKS.index(c[:-1])) for c in hand]
    assert keys == sorted(keys)
    # At a first turn at most 8 cards can fit (a 7 or the next card out, per suit end;
    # only 7D while the table is empty, FT-4), so 5 of the 13 cards at least are blocked.
    blocked = page.query_selector_all(".hand [data-legal=false]")
    assert len(blocked) >= 5
    for card in blocked:
        assert card.get_attribute("title")
        assert "not playable" in card.get_attribute("aria-label")
    # Keyboard: focus a lit card and press Enter.
    page.focus(".hand [data-legal=true]")
    played = page.evaluate("document.activeElement.dataset.card")
    page.keyboard.press("Enter")
    page.wait_for_selector(f".rows [data-card='{played}']")
    shot = {"done": False}

    def midplay(p, turns):
        if not shot["done"] and turns >= 3:
            p.screenshot(path=str(artifacts / "fantan-midplay.png"), full_page=True)
            shot["done"] = True

    play_until_over([page], after_turn=midplay)
    assert shot["done"]
    assert page.query_selector(".sheet tfoot")
    page.wait_for_selector(".deal-check.ok")
    link = page.get_attribute("[data-action=record]", "href")
    rec = httpx.get(live_url + link).json()
    assert rec["format"] == "parlour-record/1" and rec["rules"]["rounds"] == 1
    page.screenshot(path=str(artifacts / "fantan-over.png"), full_page=True)
    assert frames and table in page.url
    page.click("[data-action=rematch]")  # same seats, a new table, dealt at once
    page.wait_for_url(lambda url: "/t/" in url and table not in url)
    page.wait_for_selector(".hand .card")
    assert "Anna (you)" in page.inner_text(".seats-ring")
    page.goto(f"{live_url}/verify#table={table}")
    page.wait_for_selector(".verdict.ok")
    assert "matches" in page.inner_text("table.verify")  # words, not "ok"
    assert not re.search(r"[0-9a-f]{16}", page.inner_text("table.verify"))  # no hash shown
    assert page.errors == []


def fanti_deck() -> list[str]:
    """Table 2C 4H 6D 9S; seat 0 holds 5H (collects 2C+4H or 6D), 9S... (FA-3, FA-5)."""
    table = ["2C", "4H", "6D", "9S"]
    seat0 = ["5H", "KC", "QD", "8S"]
    seat1 = ["KD", "QS", "3C", "4C"]  # none of these can take 6D next (FA-5)
    head = table + [c for pair in zip(seat0, seat1, strict=True) for c in pair]
    return head + [c for c in cards.ALL_CODES if c not in head]


def test_fanti_choosing_between_collections(new_page, live_url, artifacts):
    page = new_page()
    create_by_api(page, live_url, game="fanti", players=2, rules={"rounds": 1}, name="Anna",
                  seats=[{"kind": "person"}, {"kind": "bot", "bot": "greedy"}],
                  test={"seed": 3, "decks": [fanti_deck()], "dealer": 1})
    start(page)
    page.wait_for_selector(TURN)
    assert "Deck" in page.inner_text(".deck-pile")
    assert page.query_selector(".fanti-table [data-card='6D']")
    page.click(".hand [data-card='5H']")
    options = page.query_selector_all("[data-take]")
    assert sorted(o.get_attribute("data-take") for o in options) == ["2C,4H", "6D"]
    # the choice is said once: by the panel, not again by a first game's tip (#33 Words)
    assert page.inner_text("main").count("Star 6") == 1, page.inner_text("main")
    assert page.is_disabled("[data-action=confirm]")
    assert page.query_selector(".fanti-table [data-card='6D'].can-take")
    page.click("[data-take='6D']")
    assert page.query_selector(".fanti-table [data-card='6D'].lit")
    page.click("[data-action=undo]")  # undo before confirm: nothing was sent
    assert page.query_selector("[data-take]") is None
    assert page.query_selector(TURN)
    page.click(".hand [data-card='5H']")
    page.click("[data-take='2C,4H']")
    page.click("[data-action=confirm]")
    page.wait_for_selector(".fanti-table [data-card='2C']", state="detached")
    assert page.query_selector(".fanti-table [data-card='6D']")
    assert re.search(r"collecting Leaf 2, Hearts 4", page.inner_text(".log"))
    page.screenshot(path=str(artifacts / "fanti-midplay.png"), full_page=True)
    play_until_over([page])
    assert page.errors == []


def test_two_people_through_the_invite_link_with_a_reload(new_page, live_url, artifacts):
    anna = new_page()
    create_with_form(anna, live_url, "fantan", "Anna", rounds=1, seats=["person", "bot:easy"])
    invite = anna.input_value("[data-link=invite]")
    ben = new_page()
    ben.goto(invite)
    ben.fill("#join-name", "Ben")
    ben.click("[data-action=join]")
    ben.wait_for_selector(".waiting")
    assert "#invite" not in ben.url  # the key leaves the address bar once used
    anna.wait_for_selector(".seat-list li:nth-child(2) .dot.connected")
    assert "Ben" in anna.inner_text(".waiting")
    start(anna)
    ben.wait_for_selector(".hand .card")
    reloaded = {"done": False}

    def reload_ben(p, turns):
        if p is ben and not reloaded["done"] and turns >= 4:
            count = len(ben.query_selector_all(".hand .card"))
            ben.reload()
            ben.wait_for_selector(".hand .card")
            assert "Ben (you)" in ben.inner_text(".seats-ring")
            assert abs(len(ben.query_selector_all(".hand .card")) - count) <= 1
            reloaded["done"] = True

    play_until_over([anna, ben], after_turn=reload_ben)
    assert reloaded["done"]
    assert anna.inner_text(".game-over h2") and ben.inner_text(".game-over h2")
    assert anna.errors == [] and ben.errors == []


def test_spectator_link_shows_no_hand(new_page, live_url):
    r = httpx.post(live_url + "/api/tables", json={
        "game": "fanti", "players": 3, "rules": {"rounds": 1},
        "seats": [{"kind": "bot", "bot": "random"}] * 3}).json()
    page = new_page()
    page.goto(r["watch_url"])
    page.wait_for_selector(".seats-ring")
    assert page.query_selector(".mine") is None and page.query_selector(".hand") is None
    assert "watching" in page.inner_text(".felt").lower()
    page.wait_for_selector(OVER, timeout=60000)
    assert page.query_selector("[data-action=rematch]") is None


def test_phone_size_and_four_colour(new_page, live_url, artifacts):
    page = new_page(viewport={"width": 375, "height": 740}, is_mobile=True, has_touch=True,
                    device_scale_factor=2)
    create_with_form(page, live_url, "fantan", "Pip", rounds=1)
    start(page)
    page.click("#four-colour")
    assert page.evaluate("document.body.classList.contains('four-colour')")
    page.wait_for_selector(TURN)
    page.tap(".hand [data-legal=true]")
    page.wait_for_selector(".rows .card")
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 376, f"the page is {width} px wide on a 375 px phone"
    page.screenshot(path=str(artifacts / "fantan-phone.png"), full_page=True)
    assert page.errors == []


@pytest.mark.parametrize("game", ["fantan", "fanti"])
def test_nothing_runs_off_a_320_px_phone(new_page, live_url, game):
    """The smallest phones in use are 320 px wide: the side boxes (score sheet, chat,
    links) once sized their column to their widest content and ran 8 px off it."""
    page = new_page(viewport={"width": 320, "height": 640}, is_mobile=True, has_touch=True)
    create_with_form(page, live_url, game, "Pip", rounds=1, seats=["bot:easy"] * 3)
    start(page)
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 320, f"the {game} table is {width} px wide on a 320 px phone"
    assert page.errors == []


@pytest.mark.parametrize("path", ["/verify", "/replay"])
def test_record_files_of_every_shape_get_plain_words(new_page, live_url, tmp_path, path):
    """The file pages read what the command line writes: JSON Lines of several records
    (the first is shown, and the page says so), a list, and refuse the rest in words --
    not a browser's JSON error ("Unexpected token ...") nor the framework's."""
    from typer.testing import CliRunner

    import parlour.cli.commands  # noqa: F401  (registers the commands)
    from parlour.cli import app

    many = tmp_path / "three.jsonl"
    res = CliRunner().invoke(app, ["simulate", "fanti", "--players", "2", "--games", "3",
                                   "--bots", "random", "--seed", "4", "--out", str(many)])
    assert res.exit_code == 0, res.output
    (tmp_path / "text.json").write_text("not json at all")
    (tmp_path / "empty.json").write_text("[]")
    (tmp_path / "deep.json").write_text("[" * 100_000 + "]" * 100_000)
    expected = {"three.jsonl": "This file holds 3 records; the first is",
                "text.json": "This file is not a game record (it is not JSON).",
                "empty.json": "This file holds an empty list, not a game record.",
                "deep.json": "nested too deeply"}
    page = new_page()
    said = {}
    for name, words in expected.items():
        page.goto(live_url + path)
        page.set_input_files("input[type=file]", str(tmp_path / name))
        deadline = time.monotonic() + 10
        while words not in said.get(name, "") and time.monotonic() < deadline:
            page.wait_for_timeout(100)
            said[name] = " ".join(page.inner_text("main").split())
        assert words in said[name], said[name]
    for text in said.values():
        assert "Unexpected token" not in text and "error parsing the body" not in text
    assert page.errors == []
