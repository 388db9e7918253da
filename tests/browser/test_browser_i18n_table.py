"""The table page in Persian and in Chinese (issue #33 item 1): a table in play of each
game, its hint, chat's quick phrases, the log (earlier lines opened), the score sheet
and the end screen with the last round in detail show no key and none of the English
sentences the table's scripts used to write (js/table.js, chat.js, log.js, score.js,
sheet.js, the games' page modules: now the catalogs' table.*, chat.*, log.*, score.*,
sheet.*, fanti.page.*, fantan.page.*)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from browser_kit import (
    OVER,
    TURN,
    create_with_form,
    play_until_over,
    serve_in_thread,
    settings_for,
    start,
)
from test_browser_i18n import no_keys

from parlour.i18n import catalog_json

pytestmark = [pytest.mark.browser, pytest.mark.timeout(400)]

PREFIXES = {"web": ("table.", "chat.", "log.", "score.", "sheet."),
            "game": ("fanti.page.", "fantan.page.")}
HOLE = re.compile(r"\{[A-Za-z_][A-Za-z0-9_]*\}")


def english_bits() -> set[str]:
    """The English words of the table's keys, cut at their placeholders: each piece
    long enough to be words of its own (not "·" or a lone "(you)")."""
    bits = set()
    for domain, prefixes in PREFIXES.items():
        for key, text in catalog_json("en", domain).items():
            if key.startswith(prefixes):
                bits.update(p.strip(" .,:;()") for p in HOLE.split(text))
    return {b for b in bits if len(b) >= 6 and re.search(r"[A-Za-z]{3}", b)}


ENGLISH = english_bits()


@pytest.fixture(scope="module")
def live_url(tmp_path_factory) -> Iterator[str]:
    """A server whose bots think in its own process (no workers to start on a loaded
    machine: this test is about words, not about the workers)."""
    yield from serve_in_thread(settings_for(tmp_path_factory.mktemp("i18n-table") / "t.sqlite3",
                                            bot_workers=0))


def no_english(page: Any) -> str:
    text = no_keys(page)
    found = sorted(b for b in ENGLISH if b in text)
    assert not found, found
    return text


def test_the_english_list_is_the_tables():
    """The check can fail: it holds the sentences a table in English shows."""
    for said in ("Score sheet", "Offer a rematch", "Nothing in your hand fits: the table passes for you",
                 "Say something to the table", "Good luck", "Penalty points: lowest total wins",
                 "is over", "Confirm", "Replay and review"):
        assert said in ENGLISH, said


@pytest.mark.parametrize("code", ["fa", "zh"])
@pytest.mark.parametrize(("game", "bots"), [("fantan", 2), ("fanti", 1)])
def test_a_table_in_play_and_its_end_in(new_page, live_url, artifacts, code, game, bots):
    web, words = catalog_json(code, "web"), catalog_json(code, "game")
    page = new_page(locale={"fa": "fa-IR", "zh": "zh-CN"}[code])
    page.on("console", lambda m: m.type == "error" and page.errors.append(m.text))
    create_with_form(page, live_url, game, {"fa": "آنا", "zh": "安娜"}[code], rounds=1,
                     seats=["bot:easy"] * bots)
    no_english(page)  # the waiting room
    start(page)
    page.wait_for_selector(TURN)
    # the hint, and (Fanti) a chosen card's picker, in the language
    if page.query_selector("[data-action=hint]"):  # none when nothing fits (Fan Tan)
        page.click("[data-action=hint]")
        # a hint, or (a loaded machine's hard bot over its time) the refusal, in words
        said = page.wait_for_selector(".hint-text, .toast")
        assert said.inner_text().startswith(web["table.hint.button"]) or said.inner_text() == web[
            "error.unavailable"], said.inner_text()
    if game == "fanti":
        page.click(".hand [data-legal=true]")
        page.wait_for_selector("[data-action=confirm]")
        assert page.inner_text("[data-action=confirm]") == words["fanti.page.confirm"]
    text = no_english(page)
    assert web["table.sheet"] in text and web["table.log"] in text
    # chat's quick phrases are the language's, and one sent reads as it was written
    phrases = page.eval_on_selector_all(".phrase", "bs => bs.map(b => b.textContent)")
    assert phrases == [web[f"chat.phrase.{p}"] for p in (
        "hello", "good_luck", "well_played", "good_game", "thanks", "oops", "one_more")]
    page.click("[data-phrase=good_luck]")
    page.wait_for_selector(f"[data-chat-line] >> text={web['chat.phrase.good_luck']}")
    play_until_over([page], limit=200)
    page.wait_for_selector(OVER)
    for summary in page.query_selector_all(".log-earlier > summary, .last-detail > summary"):
        summary.click()
    page.wait_for_selector(".last-detail[open]")
    text = no_english(page)
    assert web["table.end.replay"] in text and web["sheet.total"] in text
    page.screenshot(path=str(artifacts / f"i18n-table-{code}-{game}-over.png"), full_page=True)
    # script errors and the console's (a missing word says "i18n: no text for ...")
    assert [e for e in page.errors if not e.startswith("Failed to load resource")] == []
