"""One naming style on one screen (#33 item 5, "Words"): a Fanti table read in either
style never also names a card the other way ("Leaf 6" beside "6 of spades"),
in what it shows, in its cards' accessible names or in its tooltips, from the deal to
the end of the game."""

from __future__ import annotations

import re

import pytest
from browser_kit import OVER, create_by_api, play_until_over, start

pytestmark = [pytest.mark.browser, pytest.mark.timeout(150)]

CLASSIC = re.compile(r"\b(?:[2-9]|10|Ace|Jack|Queen|King|A|J|Q|K) of (?:clubs|diamonds|hearts|spades)\b"
                     r"|\b(?:Jack|Queen|King)\b", re.IGNORECASE)

# Everything but the page's header, whose card-name picker names both styles on purpose.
READ = """() => {
  const words = [...document.body.children].filter((e) => e.tagName !== 'HEADER')
    .map((e) => e.innerText);
  for (const el of document.querySelectorAll('[aria-label], [title], [alt]'))
    if (!el.closest('header'))
    words.push(el.getAttribute('aria-label') || '', el.getAttribute('title') || '',
               el.getAttribute('alt') || '');
  return words.join('\\n');
}"""


GAME = re.compile(r"\b(?:Guardian|Mystic|Scout|Leaf|Star)\b")


@pytest.mark.parametrize("style", ["game", "classic"])
def test_a_fanti_table_names_every_card_in_one_style(new_page, live_url, style):
    page = new_page()
    page.context.add_cookies([{"name": "parlour_cards", "value": style, "url": live_url}])
    create_by_api(page, live_url, game="fanti", players=2, rules={"rounds": 1}, name="Pip",
                  seats=[{"kind": "person"}, {"kind": "bot", "bot": "easy"}],
                  test={"seed": 3})
    start(page)
    seen: list[str] = []

    def read(p, _turns):
        seen.append(p.evaluate(READ))

    play_until_over([page], after_turn=read)
    page.wait_for_selector(OVER)
    seen.append(page.evaluate(READ))
    text = "\n".join(seen)
    used, other = (GAME, CLASSIC) if style == "game" else (CLASSIC, GAME)
    assert used.search(text)  # the chosen style is in use
    m = other.search(text)
    assert not m, text[max(0, m.start() - 200):m.end() + 100]
    assert page.errors == []
