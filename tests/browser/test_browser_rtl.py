"""Right to left (issue 33 item 2): in Persian the page mirrors -- the sidebar on the
left, the seats around the table in the reading direction with your own at the bottom --
while what has an order of its own keeps it: the Fan Tan rows read A to K left to right,
a hand's cards and a score such as "-12" keep their order (ltr islands in css/base.css)."""

from __future__ import annotations

from typing import Any

import pytest
from browser_kit import create_by_api, start

pytestmark = [pytest.mark.browser, pytest.mark.timeout(240)]

CHAR_X = """(el) => {
  const node = [...el.childNodes].find((n) => n.nodeType === 3);
  const xs = [];
  for (let i = 0; i < node.length; i++) {
    if ('\u200e\u200f\u2066\u2067\u2068\u2069'.includes(node.data[i])) continue;
    const r = document.createRange(); r.setStart(node, i); r.setEnd(node, i + 1);
    xs.push(r.getBoundingClientRect().x);
  }
  return xs;
}"""
"""Where each drawn character of an element's text is, left edge, in text order (the
invisible direction marks left out)."""

BOX = "(el) => { const r = el.getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; }"


def table_in(new_page, base: str, lang: str, game: str, players: int, width: int = 1280) -> Any:
    page = new_page(viewport={"width": width, "height": 900}, reduced_motion="reduce")
    page.context.add_cookies([{"name": "parlour_lang", "value": lang, "url": base}])
    create_by_api(page, base, game=game, players=players, rules={"rounds": 1}, name="Anna",
                  seats=[{"kind": "person"}] + [{"kind": "bot", "bot": "easy"}] * (players - 1),
                  test={"seed": 3})
    start(page)
    page.wait_for_selector(".mine.turn")
    assert page.evaluate("document.documentElement.dir") == ("rtl" if lang == "fa" else "ltr")
    return page


def centre(page: Any, selector: str) -> tuple[float, float]:
    return tuple(page.eval_on_selector(selector, BOX))


def test_fan_tan_rows_and_the_hand_read_left_to_right_in_persian(new_page, live_url):
    page = table_in(new_page, live_url, "fa", "fantan", 4)
    for suit in "CDHS":
        places = page.eval_on_selector_all(f".row.s-{suit} .slots > *",
                                           "els => els.map((e) => e.getBoundingClientRect().x)")
        assert len(places) == 13
        assert places == sorted(places), f"row {suit} is not A to K left to right: {places}"
        seven = page.eval_on_selector(f".row.s-{suit} .slots > :nth-child(7)", BOX)
        eight = page.eval_on_selector(f".row.s-{suit} .slots > :nth-child(8)", BOX)
        assert eight[0] > seven[0], "the 8's place is left of the 7 in a right-to-left page"
    hand = page.eval_on_selector_all(".hand .card", "cs => cs.map((c) => c.getBoundingClientRect().x)")
    assert len(hand) == 13 and hand == sorted(hand), "the hand is not sorted left to right"
    assert page.errors == []


@pytest.mark.parametrize("lang", ["en", "fa"])
def test_the_sidebar_and_the_seats_mirror_in_right_to_left(new_page, live_url, lang):
    page = table_in(new_page, live_url, lang, "fantan", 4)
    side, felt = centre(page, "aside.side"), centre(page, ".felt")
    assert (side[0] < felt[0]) == (lang == "fa"), f"sidebar at {side}, table at {felt}"
    ring = page.eval_on_selector(".ring", BOX)
    me, nxt, across, last = (centre(page, f".ring .seat.p{i}") for i in range(4))
    assert me[1] > ring[1] and across[1] < ring[1], "your seat is not at the bottom"
    # the next to play sits where the reader starts: left in English, right in Persian
    assert (nxt[0] > last[0]) == (lang == "fa"), f"next {nxt}, last {last}"
    assert page.errors == []


SHEET = """async () => {
  const { scoreSheet } = await import('/static/js/sheet.js');
  const state = { you: 0, winners: [1], revealed: [], scores: [[-12, 12]], totals: [-12, 12],
    table: { seats: [{ name: 'آنا' }, { name: 'Bot 2' }], scoring: { lower_wins: false, signed: true } } };
  const box = document.querySelector('aside.side');
  box.prepend(scoreSheet(state));
}"""


def test_a_negative_score_reads_minus_first_in_persian(new_page, live_url):
    """The score sheet's own code draws "-12" in the Persian page: the minus sign is
    left of the 1 and the 1 left of the 2, as in any language."""
    page = table_in(new_page, live_url, "fa", "fanti", 2)
    page.evaluate(SHEET)
    cell = page.locator("aside.side .sheet tfoot td").first
    assert cell.inner_text().strip(" \u200e\u200f") in ("-12", "\u221212")
    xs = cell.evaluate(CHAR_X)
    assert xs == sorted(xs), f"'-12' is drawn out of order: {xs}"
    assert page.errors == []
