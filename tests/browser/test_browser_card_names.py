"""Card names on the page (js/gamewords.js): the toggle beside the language picker sets
the parlour_cards cookie, the hand and the round's score then use the classic names in
the page's language, and the score items are worded from the game catalog (FA-1, FA-9)."""

from __future__ import annotations

import pytest
from browser_kit import OVER, create_with_form, play_until_over, start

from parlour.i18n import catalog_json

pytestmark = [pytest.mark.browser, pytest.mark.timeout(240)]


def game_words(lang: str, *keys: str) -> set[str]:
    words = catalog_json(lang, "game")
    return {words[k] for k in keys}


def test_classic_names_chosen_beside_the_language_picker_in_persian(new_page, live_url):
    page = new_page(locale="fa-IR")
    page.goto(live_url + "/")
    page.wait_for_selector("#card-names")
    assert page.input_value("#card-names") == "game"
    options = page.eval_on_selector_all("#card-names option", "os => os.map(o => o.textContent)")
    assert "نگهبان" in options[0] and "سرباز" in options[1]  # the game's names, Pasur's
    with page.expect_navigation():
        page.select_option("#card-names", "classic")
    page.wait_for_selector("#card-names")
    assert {c["name"]: c["value"] for c in page.context.cookies()}["parlour_cards"] == "classic"
    assert page.input_value("#card-names") == "classic"
    create_with_form(page, live_url, "fanti", "آنا", rounds=1, seats=["bot:easy"])
    start(page)
    labels = " ".join(page.eval_on_selector_all(
        ".hand .card", "cs => cs.map(c => c.getAttribute('aria-label'))"))
    classic_suits = game_words("fa", *(f"card.suit.{s}.classic" for s in
                                       ("clubs", "diamonds", "hearts", "spades")))
    assert any(s in labels for s in classic_suits), labels
    assert "Leaf" not in labels and "برگ" not in labels.replace("چهاربرگ", "")
    play_until_over([page])
    page.wait_for_selector(OVER)
    items = page.eval_on_selector_all(".score-detail th, .score-detail td.detail",
                                      "es => es.map(e => e.textContent)")
    # every seat has a "cards" item (most cards, or cards) in Persian; no English left
    assert game_words("fa", "fanti.score.most_cards.what", "fanti.score.cards.what") & set(items)
    detail = " ".join(items)
    for english in ("Most cards", "Cards", "Leaf", "collected"):
        assert english not in detail, detail
    assert page.errors == []


@pytest.mark.parametrize("style", ["game", "classic"])
def test_fanti_rules_page_in_persian_in_both_names(new_page, live_url, style):
    """/rules/fanti with its worked examples, from the game catalog, in Persian with the
    chosen card names (Pasur's names in the classic style)."""
    page = new_page(locale="fa-IR")
    page.context.add_cookies([{"name": "parlour_cards", "value": style, "url": live_url}])
    page.goto(live_url + "/rules/fanti")
    page.wait_for_selector(".rules-page h1")
    words = catalog_json("fa", "game")
    assert page.inner_text(".rules-page h1") == words["rules.fanti.title"]
    text = page.inner_text(".rules-page")
    assert words["rules.fanti.ex2.caption"] in text
    guardian = words[f"card.rank.J.{style}"]
    assert guardian in text and words["card.suit.diamonds.classic"] in text
    assert "How to play" not in text and "{" not in text
    assert page.errors == []


@pytest.mark.parametrize("code", ["zh", "es"])
def test_fantan_rules_page_in_the_language(new_page, live_url, code):
    """/rules/fantan, worked round included, from the game catalog (接龙 in Chinese)."""
    page = new_page(locale={"zh": "zh-CN", "es": "es-ES"}[code])
    page.goto(live_url + "/rules/fantan")
    page.wait_for_selector(".rules-page h1")
    words = catalog_json(code, "game")
    assert page.inner_text(".rules-page h1") == words["rules.fantan.title"]
    text = page.inner_text(".rules-page")
    for key in ("rules.fantan.ex1.caption", "rules.fantan.ex3.caption", "rules.fantan.col.passes"):
        assert words[key] in text, key
    assert "How to play" not in text and "{" not in text
    assert page.errors == []
