"""'Play people' in Chromium: two browsers press it for Fanti and sit down together."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.timeout(120)


def test_two_browsers_press_play_people_for_fanti_and_are_seated_together(new_page, live_url):
    pages = []
    for name in ("Ada", "Bea"):
        page = new_page()
        page.goto(live_url + "/")
        page.evaluate("n => localStorage.setItem('parlour.name', n)", name)
        page.reload()
        pages.append(page)
    a, b = pages
    a.click("[data-action=play-people][data-game=fanti]")
    # Alone in the pool: the page says so, in words, and offers to stop.
    a.wait_for_selector("[data-pool-status=waiting]")
    assert "Looking for 1 other player" in a.inner_text("[data-pool=fanti]")
    assert a.is_visible("[data-action=pool-leave]")
    b.click("[data-action=play-people][data-game=fanti]")
    for p in pages:
        p.wait_for_url("**/t/*", timeout=30_000)
    assert a.url == b.url  # the same table
    for p in pages:
        p.wait_for_selector(".hand .card", timeout=30_000)
    names = a.inner_text("body")
    assert "Ada" in names and "Bea" in names
    assert not a.errors and not b.errors, (a.errors, b.errors)
