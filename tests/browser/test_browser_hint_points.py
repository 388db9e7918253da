"""A Fan Tan hint at the table in points (#36 finding 8): the expected penalty and the
chance to win beside the suggested card, in the page's words (web catalog)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from browser_kit import TURN, create_with_form, serve_in_thread, settings_for, start, take_turn

from parlour.i18n import catalog_json

pytestmark = [pytest.mark.browser, pytest.mark.timeout(300)]


@pytest.fixture(scope="module")
def live_url(tmp_path_factory) -> Iterator[str]:
    """Bots and hints think in the server's own process (no workers to start on a loaded
    machine)."""
    yield from serve_in_thread(settings_for(tmp_path_factory.mktemp("hint-points") / "t.sqlite3",
                                            bot_workers=0, bot_move_seconds=120.0))


def test_a_fan_tan_hint_gives_the_expected_penalty_and_the_chance(new_page, live_url):
    web = catalog_json("en", "web")
    page = new_page()
    create_with_form(page, live_url, "fantan", "Ann", rounds=1, seats=["bot:easy"] * 2)
    start(page)
    for _ in range(30):  # a turn with a choice (not a forced pass) offers a hint
        page.wait_for_selector(f"{TURN}, .game-over", timeout=90_000)
        if page.query_selector("[data-action=hint]"):
            break
        take_turn(page)
    else:
        pytest.skip("no turn with a choice in this deal")
    page.click("[data-action=hint]")
    said = page.wait_for_selector(".hint-text, .toast", timeout=90_000).inner_text()
    if said == web["error.unavailable"]:  # a loaded machine's search over its time
        pytest.skip(said)
    assert said.startswith("Hint: play"), said
    assert "Expected: " in said and " penalty points; chance to win " in said, said
    assert said.rstrip(". ").split("chance to win ")[1].split("%")[0].isdigit(), said
