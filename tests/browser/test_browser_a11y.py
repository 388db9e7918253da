"""Accessibility in Chromium (issue 33 item 4): axe-core finds no WCAG 2.2 A/AA or
best-practice problem, and no text whose contrast it cannot decide, on every page a
player meets: the front page, both rules pages, a table in play of each game at its
smallest, four and largest size, the end screen, the replay, the verifier, the account,
leaderboard, profile and moderation pages, and the pages that lead nowhere."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from a11y_kit import assert_clean
from browser_kit import OVER, create_by_api, play_until_over, serve_in_thread, start

pytestmark = [pytest.mark.browser, pytest.mark.timeout(240)]

PAGES = ["/", "/rules/fanti", "/rules/fantan", "/verify", "/replay", "/account",
         "/leaderboard/fanti", "/leaderboard/fantan", "/u/nobody-here", "/t/unknown",
         "/replay/unknown"]


@pytest.fixture(scope="module")
def operator_url(tmp_path_factory) -> Iterator[str]:
    """A server with an operator secret, so that /admin is there."""
    from parlour.server import Settings

    db = tmp_path_factory.mktemp("a11y-admin") / "tables.sqlite3"
    yield from serve_in_thread(Settings(db_url=f"sqlite:///{db}", testing=True,
                                        operator_secret="a11y-secret"))


@pytest.fixture(params=["dark", "light"])
def scheme(request) -> str:
    """Each page in both themes: the device's preference (prefers-color-scheme) chooses."""
    return request.param


def quiet_page(new_page, scheme="dark", **kw):
    """Reduced motion: axe reads each colour at rest, not half-way through a fade."""
    return new_page(reduced_motion="reduce", color_scheme=scheme, **kw)


@pytest.mark.parametrize("path", PAGES)
def test_every_page_passes_axe(new_page, scheme, live_url, path):
    page = quiet_page(new_page, scheme)
    page.goto(live_url + path)
    page.wait_for_selector("main h1")
    page.wait_for_load_state("networkidle")
    assert_clean(page)
    assert page.locator("h1").count() == 1  # one h1 a page
    assert page.errors == []


def test_the_moderation_page_passes_axe(new_page, scheme, operator_url):
    page = quiet_page(new_page, scheme)
    page.goto(operator_url + "/admin")
    page.wait_for_selector("#operator-secret")
    assert_clean(page)
    page.fill("#operator-secret", "a11y-secret")
    page.click("[data-action=operator-sign-in]")
    page.wait_for_selector("main h1 >> text=Moderation")
    page.wait_for_load_state("networkidle")
    assert_clean(page)
    assert page.errors == []


def vs_computers(page, base, game, players, seed=3):
    create_by_api(page, base, game=game, players=players, rules={"rounds": 1}, name="Anna",
                  seats=[{"kind": "person"}] + [{"kind": "bot", "bot": "easy"}] * (players - 1),
                  test={"seed": seed})
    start(page)
    page.wait_for_selector(".mine.turn")  # the computers wait for us: the page holds still


# Fanti seats 2 to 4 and Fan Tan 3 to 8: each at its fewest, at four and at its most.
@pytest.mark.parametrize(("game", "players"), [("fanti", 2), ("fanti", 4), ("fantan", 3),
                                               ("fantan", 4), ("fantan", 8)])
def test_a_table_in_play_passes_axe(new_page, scheme, live_url, game, players):
    page = quiet_page(new_page, scheme)
    vs_computers(page, live_url, game, players)
    assert_clean(page)
    assert page.locator("h1").count() == 1
    names = page.eval_on_selector_all(
        ".hand .card", "cs => cs.map(c => [c.getAttribute('aria-label'), c.innerText.trim()])")
    assert names and all(label.startswith(shown) for label, shown in names), names
    assert page.errors == []


def test_a_fanti_choice_is_named_once(new_page, live_url):
    """A card with several collections: each choice button says its cards once."""
    page = quiet_page(new_page)
    for seed in range(1, 16):
        vs_computers(page, live_url, "fanti", 2, seed=seed)
        codes = page.eval_on_selector_all(".hand [data-legal=true]", "cs => cs.map(c => c.dataset.card)")
        for code in codes:
            page.click(f".hand [data-card='{code}']")
            page.wait_for_selector(".picker")
            if page.query_selector("[data-take]"):
                assert_clean(page)
                names = page.eval_on_selector_all(
                    "[data-take]", "bs => bs.map(b => [b.dataset.take, b.textContent])")
                for take, name in names:
                    assert take == "" or name.count("collect") == 1, name
                return
            page.click("[data-action=undo]")
    pytest.skip("no deal with a choice of collections in the first seeds")


def test_the_end_replay_verify_and_profile_pass_axe(new_page, scheme, live_url):
    page = quiet_page(new_page, scheme)
    table = create_by_api(page, live_url, game="fanti", players=2, rules={"rounds": 1},
                          name="Axel", seats=[{"kind": "person"}, {"kind": "bot", "bot": "easy"}],
                          test={"seed": 5})
    start(page)
    play_until_over([page])
    page.wait_for_selector(OVER)
    assert_clean(page)
    assert page.locator("h1").count() == 1
    page.goto(f"{live_url}/replay/{table}")
    page.wait_for_selector(".replay-hands .card", timeout=90_000)  # a loaded machine's workers
    assert_clean(page)
    page.goto(f"{live_url}/verify#table={table}")
    page.wait_for_selector(".verdict")
    assert_clean(page)
    page.goto(f"{live_url}/u/Axel")
    page.wait_for_selector("main h1")
    page.wait_for_load_state("networkidle")
    assert_clean(page)
    assert page.errors == []


def test_copy_buttons_say_what_they_copy(new_page, live_url):
    page = quiet_page(new_page)
    create_by_api(page, live_url, game="fanti", players=2, rules={"rounds": 1}, name="Anna",
                  seats=[{"kind": "person"}, {"kind": "person"}])
    page.wait_for_selector("[data-action=copy-invite]")
    assert page.get_attribute("[data-action=copy-invite]", "aria-label") == "Copy the invite link"
    assert page.get_attribute("[data-action=copy-watch]", "aria-label") == "Copy the spectator link"
    assert_clean(page)


def test_the_focused_card_differs_from_a_playable_one_in_colour(new_page, live_url):
    page = quiet_page(new_page)
    vs_computers(page, live_url, "fantan", 4)
    legal = page.query_selector_all(".hand [data-legal=true]")
    assert legal
    page.keyboard.press("Tab")  # keyboard focus, so :focus-visible applies
    legal[0].focus()
    style = legal[0].evaluate("c => [getComputedStyle(c).outlineColor, getComputedStyle(c).outlineStyle,"
                              " getComputedStyle(c, '::after').content]")
    ring = page.evaluate("getComputedStyle(document.documentElement).getPropertyValue('--gold')")
    assert style[1] == "solid" and style[0] == "rgb(255, 255, 255)" and ring.strip() != "#fff"
    assert style[2] != "none"  # the mark under the focused card


@pytest.mark.parametrize(("device", "chosen"), [("dark", "light"), ("light", "dark")])
def test_the_colours_picker_overrides_the_device_and_is_remembered(new_page, live_url, device,
                                                                  chosen):
    """The header's picker beats prefers-color-scheme at once, is kept in a cookie (the
    next page is served in it from its first paint) and passes axe."""
    page = quiet_page(new_page, device)
    page.goto(live_url + "/")
    page.wait_for_selector("main h1")
    background = "getComputedStyle(document.body).backgroundColor"
    before = page.evaluate(background)
    assert page.input_value("#theme") == "auto"
    page.select_option("#theme", chosen)
    page.wait_for_function(f"{background} !== {before!r}")
    assert {c["name"]: c["value"] for c in page.context.cookies()}["parlour_theme"] == chosen
    page.goto(live_url + "/rules/fanti")
    page.wait_for_selector("main h1")
    assert page.evaluate("document.documentElement.dataset.theme") == chosen
    assert page.evaluate(background) != before and page.input_value("#theme") == chosen
    page.wait_for_load_state("networkidle")
    assert_clean(page)
    page.select_option("#theme", "auto")  # back to the device's
    page.wait_for_function(f"{background} === {before!r}")
    assert page.errors == []
