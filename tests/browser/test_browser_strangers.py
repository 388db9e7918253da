"""Issue #13 in real Chromium: the verify page names only tables, and the page runs
under the server's CSP (connect-src 'self' covers its own WebSocket)."""

from __future__ import annotations

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.timeout(120)]


def test_the_verify_page_refuses_a_table_id_that_is_a_path(new_page, live_url):
    page = new_page()
    asked: list[str] = []
    page.on("request", lambda r: asked.append(r.url))
    page.goto(f"{live_url}/verify#table=../../healthz%3F")
    page.wait_for_selector("[role=alert]")
    assert "does not name a table" in page.inner_text("[role=alert]")
    assert not [u for u in asked if "healthz" in u or "/api/tables/" in u], asked
