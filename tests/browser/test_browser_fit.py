"""Every page fits (issue 33, Proof): in the pseudo-language en-XA (parlour.i18n.pseudo:
accented and ~40% longer) every page a player meets -- the front page with the custom
form open, both rules pages, a table in play of each game at its fewest, four and most
players, the end screen, the replay, the verifier, the account, leaderboard and profile
pages -- at 320, 390 and 1280 px wide has no horizontal scroll and no text cut off."""

from __future__ import annotations

from typing import Any

import pytest
from browser_kit import OVER, create_by_api, open_custom, play_until_over, start

from parlour.i18n import PSEUDO

pytestmark = [pytest.mark.browser, pytest.mark.timeout(400)]

WIDTHS = (320, 390, 1280)

MISFITS = """() => {
  const out = [];
  const doc = document.scrollingElement;
  if (doc.scrollWidth > innerWidth) out.push(`scrolls sideways: ${doc.scrollWidth} > ${innerWidth}`);
  const name = (el) => el.tagName.toLowerCase() + (el.id ? '#' + el.id : '')
    + [...el.classList].map((c) => '.' + c).join('');
  for (const el of document.querySelectorAll('body *')) {
    if (el.scrollWidth <= el.clientWidth + 1 || !el.textContent.trim()) continue;
    if (el.closest('.sr-only, .sprite, svg, [hidden], select, input')) continue;
    const cs = getComputedStyle(el);
    const clips = ['hidden', 'clip'].includes(cs.overflowX) || cs.textOverflow === 'ellipsis';
    if (clips && el.getClientRects().length) {
      out.push(`cut off: ${name(el)} ${el.scrollWidth} > ${el.clientWidth} "${el.textContent.trim().slice(0, 40)}"`);
    }
  }
  for (const el of document.querySelectorAll('body *')) {
    if (el.children.length || !el.textContent.trim() || el.closest('.sr-only, .sprite, dialog:not([open])')) continue;
    const r = el.getBoundingClientRect();
    if (r.width && (r.left < -1 || r.right > innerWidth + 1)) {
      out.push(`outside the window: ${name(el)} ${Math.round(r.left)}..${Math.round(r.right)} "${el.textContent.trim().slice(0, 40)}"`);
    }
  }
  return out;
}"""
"""What does not fit the window: a sideways scroll; every visible element whose text is
wider than its box while the box hides what overflows (overflow hidden or clip, or an
ellipsis); and any text drawn outside the window (left of it too, which no scroll shows)."""


def pseudo_page(new_page, base: str) -> Any:
    page = new_page(viewport={"width": 1280, "height": 900}, reduced_motion="reduce")
    page.context.add_cookies([{"name": "parlour_lang", "value": PSEUDO.code, "url": base}])
    return page


def misfits(page: Any, where: str) -> list[str]:
    """The misfits of ``page`` at each width, the window resized in place."""
    found = []
    for width in WIDTHS:
        page.set_viewport_size({"width": width, "height": 900})
        page.evaluate("new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))")
        assert page.evaluate("document.documentElement.lang") == PSEUDO.tag
        found += [f"{where} at {width} px: {m}" for m in page.evaluate(MISFITS)]
    return found


def assert_fits(found: list[str]) -> None:
    assert not found, f"{len(found)} misfits:\n" + "\n".join(found)


PAGES = ["/", "/rules/fanti", "/rules/fantan", "/verify", "/replay", "/account",
         "/leaderboard/fanti", "/leaderboard/fantan"]


@pytest.mark.parametrize("path", PAGES)
def test_every_page_fits_in_the_pseudo_language(new_page, live_url, path):
    page = pseudo_page(new_page, live_url)
    page.goto(live_url + path)
    page.wait_for_selector("main h1")
    page.wait_for_load_state("networkidle")
    found = misfits(page, path)
    if path == "/":
        page.set_viewport_size({"width": 1280, "height": 900})
        open_custom(page)
        page.wait_for_selector("form.create:not([aria-busy=true]) #rule-rounds")
        found += misfits(page, "the custom form")
    assert_fits(found)
    assert page.errors == []


def vs_computers(page: Any, base: str, game: str, players: int, name: str = "Anna") -> str:
    table = create_by_api(page, base, game=game, players=players, rules={"rounds": 1}, name=name,
                          seats=[{"kind": "person"}] + [{"kind": "bot", "bot": "easy"}] * (players - 1),
                          test={"seed": 3})
    start(page)
    page.wait_for_selector(".mine.turn")
    return table


# Fanti seats 2 to 4 and Fan Tan 3 to 8: each at its fewest, at four and at its most.
@pytest.mark.parametrize(("game", "players"), [("fanti", 2), ("fanti", 4), ("fantan", 3),
                                               ("fantan", 4), ("fantan", 8)])
def test_a_table_in_play_fits_in_the_pseudo_language(new_page, live_url, game, players):
    page = pseudo_page(new_page, live_url)
    vs_computers(page, live_url, game, players)
    assert_fits(misfits(page, f"{game} with {players}"))
    assert page.errors == []


def test_the_end_replay_verify_and_profile_fit(new_page, live_url):
    page = pseudo_page(new_page, live_url)
    table = vs_computers(page, live_url, "fanti", 2, name="Pseudo")
    play_until_over([page], limit=200)
    page.wait_for_selector(OVER)
    found = misfits(page, "the end screen")
    page.goto(f"{live_url}/replay/{table}")
    page.wait_for_selector(".replay-page h1", timeout=90_000)
    page.wait_for_load_state("networkidle")
    found += misfits(page, "the replay")
    page.goto(f"{live_url}/verify#table={table}")
    page.wait_for_selector(".verdict")
    found += misfits(page, "the verifier")
    page.goto(f"{live_url}/u/Pseudo")
    page.wait_for_selector("main h1")
    page.wait_for_load_state("networkidle")
    found += misfits(page, "the profile")
    assert_fits(found)
    assert page.errors == []
