"""Between visits in real Chromium (issue 32): a correspondence game left and taken up
again "days" later (a fake clock) from the front page's "Your move" list, the room's
numbers, and a system notification in a background tab when it becomes your turn."""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest
from browser_kit import TURN, open_custom, serve_in_thread, take_turn
from playwright.sync_api import Error as PlaywrightError

pytestmark = [pytest.mark.browser, pytest.mark.timeout(180)]
DAY = 86_400


@pytest.fixture
def server(tmp_path) -> Iterator[str]:
    """A server of its own: this test moves its clock (bots move after 1 s)."""
    from parlour.server import Settings

    settings = Settings(db_url=f"sqlite:///{tmp_path}/t.sqlite3", bot_delay=1.0,
                        round_pause=0.3, testing=True, bot_workers=0, grace=1.0,
                        room_counts_every=0.0, max_seats_per_address=8)
    yield from serve_in_thread(settings)


@pytest.fixture
def clock(monkeypatch):
    """The server's wall clock (``time.time``: the server runs in this process),
    moved forward by the test; stored deadlines are absolute times on it."""
    offset = [0.0]
    real = time.time
    monkeypatch.setattr(time, "time", lambda: real() + offset[0])
    return offset


def test_a_correspondence_game_left_and_taken_up_days_later(new_page, server, clock):
    anna = new_page()
    anna.goto(server + "/")
    open_custom(anna)
    anna.click("label[for=game-fanti]")
    anna.fill("#name", "Anna")
    anna.select_option("#players", "2")
    anna.select_option("#seat-1", "person")
    anna.fill("#rule-rounds", "1")
    anna.select_option("#timer", "days:1")
    assert "1 day for each move" in anna.inner_text("#timer")
    anna.click("[data-action=create]")
    anna.wait_for_url("**/t/*")
    table = anna.url.rsplit("/", 1)[1]
    invite = anna.input_value(".waiting [data-link=invite]")
    ben = new_page()
    ben.goto(invite)
    ben.fill("#join-name", "Ben")
    ben.click("[data-action=join]")
    ben.wait_for_selector(".waiting")
    anna.click("[data-action=start]:not([disabled])")
    anna.wait_for_selector(".hand .card")
    ben.wait_for_selector(".hand .card")
    mover, other = (anna, ben) if anna.query_selector(TURN) else (ben, anna)
    mover.wait_for_selector(TURN)
    # the clock reads in hours (it is drawn a moment after the turn is shown)
    mover.wait_for_function(
        "() => (document.querySelector('[data-clock]')?.innerText || '').includes('h left')")
    # Both leave; the front page lists the game under the mover's "Your move" only.
    for p in (anna, ben):
        p.goto(server + "/")
    mover.wait_for_selector(f"[data-your-move] [data-your-move-table='{table}']")
    assert "1 day a move" in mover.inner_text("[data-your-move]")
    other.wait_for_selector("[data-room]")
    assert other.query_selector("[data-your-move]") is None
    for p in (anna, ben):
        p.goto("about:blank")

    clock[0] += 20 * 3600  # twenty hours later (less than the day for the move)
    mover.goto(server + "/")
    row = mover.wait_for_selector(f"[data-your-move-table='{table}']")
    assert "4 h left" in row.inner_text()
    assert mover.get_attribute("[data-in-play]", "data-in-play") == "1"
    # (a locator, not the row's handle: the list may re-render while it is read)
    mover.click(f"[data-your-move-table='{table}'] [data-action=your-move]")
    mover.wait_for_url(f"**/t/{table}")
    mover.wait_for_selector(TURN)
    log = mover.inner_text(".log")
    assert "computer" not in log.lower()  # nobody stood in while they were away
    while True:  # (the page may re-render under the first try: a card taken away)
        try:
            if take_turn(mover):
                break
        except PlaywrightError:
            pass
        mover.wait_for_timeout(50)
    mover.wait_for_selector(f"{TURN}", state="detached")
    # Now the game waits on the other player, who finds it the same way.
    other.goto(server + "/")
    other.wait_for_selector(f"[data-your-move-table='{table}']")
    other.click(f"[data-your-move-table='{table}'] [data-action=your-move]")
    other.wait_for_selector(TURN)
    assert anna.errors == [] and ben.errors == []


RECORD_NOTIFICATIONS = """
(() => {
  const Real = window.Notification;
  window.__shown = [];
  class Recorded extends Real {
    constructor(title, options) {
      super(title, options);
      window.__shown.push({ title, body: (options || {}).body });
    }
  }
  Object.defineProperty(Recorded, "permission", { get: () => Real.permission });
  Recorded.requestPermission = (...a) => Real.requestPermission(...a);
  window.Notification = Recorded;
})();
"""


def test_a_notification_in_a_background_tab_when_it_becomes_your_turn(new_page, server):
    page = new_page(permissions=["notifications"])
    page.context.add_init_script(RECORD_NOTIFICATIONS)
    page.goto(server + "/")
    assert page.get_attribute("#notify", "aria-pressed") == "false"
    page.click("#notify")  # turning it on asks the browser (granted by the test)
    page.wait_for_selector("#notify[aria-pressed=true]")
    page.click("[data-action=quick-play][data-game=fanti]")
    page.wait_for_selector(TURN, timeout=30_000)
    assert page.evaluate("window.__shown") == []  # in view: the page says it itself
    take_turn(page)
    # Another tab comes to the front. (Playwright tells every page it has the focus;
    # Chromium's own focus tracking is switched back on for this one.)
    page.context.new_cdp_session(page).send("Emulation.setFocusEmulationEnabled",
                                            {"enabled": False})
    other = page.context.new_page()
    other.goto(server + "/")
    other.bring_to_front()
    page.wait_for_function("() => window.__shown.length > 0", timeout=30_000)
    shown = page.evaluate("window.__shown")
    assert shown[0]["title"] == "Your move" and "your turn at Fanti" in shown[0]["body"]
    assert page.evaluate("document.hasFocus()") is False  # (the page was in the background)
