"""The pages besides the table in Persian and in Chinese (js/replay.js, verify.js,
players.js, account.js, pool.js): a replay, the verifier, a profile, a leaderboard, the
account page and the pools panel show no catalog key, no raw placeholder and none of the
English words that moved into the ``web`` catalog."""

from __future__ import annotations

import re
from typing import Any

import pytest
from browser_kit import OVER, create_by_api, play_until_over, start

from parlour.i18n import catalog_json

pytestmark = [pytest.mark.browser, pytest.mark.timeout(400)]

MOVED = ("replay.", "verify.", "board.", "profile.", "pool.", "between.", "account.",
         "howto.", "people.")
KEY = re.compile(r"\b(?:" + "|".join(p[:-1] for p in MOVED) + r"|error|lobby|nowhere)"
                 r"\.[a-z_]+(?:\.[a-z_]+)*(?:#[a-z]+)?")
PLACEHOLDER = re.compile(r"\{[A-Za-z_][A-Za-z0-9_]*\}")
TEXTS = """() => {
  const out = [document.title, document.body.innerText];
  for (const el of document.querySelectorAll('[aria-label],[title],[placeholder]')) {
    for (const a of ['aria-label', 'title', 'placeholder']) {
      const v = el.getAttribute(a); if (v) out.push(v);
    }
  }
  return out.join('\\n');
}"""


def english_phrases(code: str) -> list[str]:
    """The English words of the moved keys, cut at their placeholders: each piece of
    two words or more that the language does not itself use."""
    en, theirs = catalog_json("en", "web"), catalog_json(code, "web")
    ours = "\n".join(theirs.values())
    out = set()
    for key, text in en.items():
        if key.startswith(MOVED):
            for piece in PLACEHOLDER.split(text):
                piece = piece.strip(" .,:;()·")
                if len(piece) >= 10 and " " in piece and piece not in ours:
                    out.add(piece)
    return sorted(out)


def clean(page: Any, code: str) -> str:
    text = page.evaluate(TEXTS)
    assert not KEY.findall(text), KEY.findall(text)[:5]
    assert not PLACEHOLDER.findall(text), PLACEHOLDER.findall(text)[:5]
    english = [p for p in english_phrases(code) if p in text]
    assert english == [], english[:5]
    assert page.errors == []
    return text


@pytest.fixture(scope="module")
def finished(browser, live_url):
    """A finished one-round Fanti table of "Darya" against the computer."""
    ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    page = ctx.new_page()
    table = create_by_api(page, live_url, game="fanti", players=2, rules={"rounds": 1},
                          name="Darya", seats=[{"kind": "person"}, {"kind": "bot", "bot": "easy"}],
                          test={"seed": 5})
    start(page)
    play_until_over([page])
    page.wait_for_selector(OVER)
    ctx.close()
    return table


@pytest.mark.parametrize("code", ["fa", "zh"])
def test_the_pages_speak_the_language(new_page, live_url, finished, code):
    page = new_page(locale="zh-CN" if code == "zh" else "fa-IR")
    page.goto(f"{live_url}/replay/{finished}")
    page.wait_for_selector(".replay-hands .card", timeout=90_000)  # a loaded machine's workers
    page.click("[data-action=next]")
    page.click("[data-action=review]")
    page.wait_for_selector("[data-review]", timeout=90_000)
    text = clean(page, code)
    assert catalog_json(code, "web")["replay.review.title"] in text

    page.goto(f"{live_url}/verify#table={finished}")
    page.wait_for_selector(".verdict")
    assert catalog_json(code, "web")["verify.ok"] in clean(page, code)

    page.goto(f"{live_url}/u/Darya")
    page.wait_for_selector("[data-game-row]")
    assert catalog_json(code, "web")["profile.recent"] in clean(page, code)

    page.goto(f"{live_url}/leaderboard/fanti")
    page.wait_for_selector(".standings h1")
    clean(page, code)

    page.goto(f"{live_url}/account")
    page.wait_for_selector(".account h1")
    assert catalog_json(code, "web")["account.sign.title"] in clean(page, code)

    page.goto(f"{live_url}/")
    page.click("[data-action=play-people][data-game=fantan]")
    page.wait_for_selector("[data-pool-status=waiting]")
    assert catalog_json(code, "web")["pool.stop"] in clean(page, code)
    page.click("[data-action=pool-leave]")
    page.wait_for_selector("[data-action=play-people][data-game=fantan]:not([disabled])")
