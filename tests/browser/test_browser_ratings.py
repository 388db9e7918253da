"""Ratings in Chromium (issue 32): two people play a rated Fanti game to the end; both
ratings change and show on the leaderboard and on each profile, with the replay link."""

from __future__ import annotations

import pytest
from browser_kit import me, open_custom, play_until_over, start

pytestmark = pytest.mark.timeout(420)


def test_a_rated_fanti_game_between_two_browsers(new_page, rated_url, artifacts):
    anna, ben = new_page(), new_page()
    anna.goto(rated_url + "/")
    open_custom(anna)
    anna.click("label[for=game-fanti]")
    anna.fill("#name", "Anna")
    anna.select_option("#players", "2")
    anna.select_option("#seat-1", "person")
    anna.fill("#rule-rounds", "1")
    anna.check("#rated")
    anna.click("[data-action=create]")
    anna.wait_for_url("**/t/*")
    table = anna.url.rsplit("/", 1)[1]
    ben.goto(anna.input_value("[data-link=invite]"))
    ben.fill("#join-name", "Ben")
    ben.click("[data-action=join]")
    ben.wait_for_selector(".waiting")
    anna.wait_for_selector(".seat-list li:nth-child(2) .dot.connected")
    start(anna)
    ben.wait_for_selector(".hand .card")
    try:
        play_until_over([anna, ben], limit=180)
    except AssertionError:
        anna.screenshot(path=str(artifacts / "rated-stuck-anna.png"), full_page=True)
        ben.screenshot(path=str(artifacts / "rated-stuck-ben.png"), full_page=True)
        raise
    ratings = [me(p)["ratings"]["fanti"] for p in (anna, ben)]
    assert [r["games"] for r in ratings] == [1, 1]
    assert all(r["provisional"] for r in ratings)
    winners = anna.evaluate(f"fetch('/api/tables/{table}/record').then((r) => r.json())")["winners"]
    if len(winners) == 1:  # a shared win leaves equal players at 1500 (surer of it)
        assert ratings[winners[0]]["rating"] > 1500 > ratings[1 - winners[0]]["rating"]

    anna.goto(rated_url + "/leaderboard/fanti")
    anna.wait_for_selector("[data-leader-row]")
    rows = {r.get_attribute("data-name"): r for r in anna.query_selector_all("[data-leader-row]")}
    assert set(rows) == {"Anna", "Ben"}
    assert rows["Anna"].query_selector("[data-rating]").get_attribute("data-rating") == str(
        ratings[0]["rating"])
    anna.screenshot(path=str(artifacts / "web-leaderboard.png"), full_page=True)

    for page, name, other, mine in ((anna, "Anna", "Ben", ratings[0]),
                                    (ben, "Ben", "Anna", ratings[1])):
        page.goto(f"{rated_url}/u/{name}")
        shown = page.wait_for_selector("[data-rating][data-game=fanti]")
        assert shown.get_attribute("data-rating") == str(mine["rating"])
        assert shown.inner_text() == f"{mine['rating']}?"  # provisional after one game
        assert page.query_selector(".rating-chart .line")  # the chart over time
        assert page.query_selector(f"[data-opponent='{other}']")
        link = page.query_selector(f"[data-replay='{table}']")
        assert link is not None and link.get_attribute("href") == f"/replay/{table}"
        assert page.errors == []
    anna.screenshot(path=str(artifacts / "web-profile.png"), full_page=True)
    phone = new_page(viewport={"width": 390, "height": 844})
    phone.goto(f"{rated_url}/u/Anna")
    phone.wait_for_selector("[data-rating][data-game=fanti]")
    width = phone.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"the profile runs {width - 390} px off a phone"
    phone.screenshot(path=str(artifacts / "web-profile-phone.png"), full_page=True)
    phone.goto(f"{rated_url}/leaderboard/fanti")
    phone.wait_for_selector("[data-leader-row]")
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    phone.screenshot(path=str(artifacts / "web-leaderboard-phone.png"), full_page=True)
    ben.click(f"[data-replay='{table}']")
    ben.wait_for_url(f"**/replay/{table}")
    ben.wait_for_selector(".replay-hands .card", timeout=20_000)
    assert anna.errors == [] and ben.errors == [] and phone.errors == []
