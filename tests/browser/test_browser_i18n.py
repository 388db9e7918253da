"""The page in every language (parlour.i18n, server/pages.py, js/i18n.js): chosen by
Accept-Language on a first visit, switched by the picker and remembered, one language's
catalog fetched, never a key on the page; a round of each game played to the end in
Persian and in Chinese."""

from __future__ import annotations

import re
import time
from typing import Any

import httpx
import pytest
from browser_kit import OVER, create_with_form, open_custom, play_until_over, start

from parlour.i18n import LANGUAGES, PSEUDO, catalog_json

pytestmark = [pytest.mark.browser, pytest.mark.timeout(400)]

PREFIXES = sorted({k.split(".")[0] for d in ("web", "game") for k in catalog_json("en", d)})
KEYISH = re.compile(r"\b(?:" + "|".join(PREFIXES) + r")\.[a-z][a-z0-9_]*(?:\.[a-z0-9_]+)*(?:#[a-z]+)?")
PLACEHOLDER = re.compile(r"\{[A-Za-z_][A-Za-z0-9_]*\}")
TEXTS = """() => {
  const out = [document.title, document.body.innerText];
  for (const el of document.querySelectorAll('[aria-label],[title],[placeholder],[alt]')) {
    for (const a of ['aria-label', 'title', 'placeholder', 'alt']) {
      const v = el.getAttribute(a); if (v) out.push(v);
    }
  }
  return out.join('\\n');
}"""


def no_keys(page: Any) -> str:
    """The page's words (text and labels), asserted free of keys and raw placeholders."""
    text = page.evaluate(TEXTS)
    assert not KEYISH.findall(text), KEYISH.findall(text)[:5]
    assert not PLACEHOLDER.findall(text), PLACEHOLDER.findall(text)[:5]
    assert not [e for e in page.errors if "i18n" in e]
    return text


def bots_ready(base: str) -> None:
    """Wait until the server's bot workers have loaded the engines (a cold start under
    load takes a while; /healthz says when)."""
    deadline = time.time() + 120
    while httpx.get(base + "/healthz", timeout=5).json().get("bots") != "ready":
        assert time.time() < deadline, "the bot workers did not start"
        time.sleep(0.2)


def catalogs_fetched(page: Any) -> list[str]:
    page.catalogs = []
    page.on("request", lambda r: "/i18n/" in r.url and page.catalogs.append(r.url))
    return page.catalogs


@pytest.mark.parametrize("code", [*LANGUAGES, PSEUDO.code])
def test_front_page_in_each_language(new_page, live_url, code):
    lang = LANGUAGES.get(code, PSEUDO)
    page = new_page(locale=code if code != "zh" else "zh-CN")
    fetched = catalogs_fetched(page)
    page.on("console", lambda m: m.type == "error" and page.errors.append(m.text))
    page.goto(live_url + "/")
    page.wait_for_selector("[data-action=quick-play]")
    assert page.evaluate("document.documentElement.lang") == lang.tag
    assert page.evaluate("document.documentElement.dir") == ("rtl" if lang.rtl else "ltr")
    text = no_keys(page)
    assert catalog_json(code, "web")["lobby.heading"] in text
    open_custom(page)
    no_keys(page)
    # the chosen language's words only: the page's, fetched once (preloaded by the page's
    # head), and the options' when the custom form opens
    assert [u.split("/")[5] for u in fetched] == ["front", "options"], fetched
    assert all(f"/i18n/{code}/" in u for u in fetched), fetched


def test_accept_language_chooses_and_the_picker_switches_and_remembers(new_page, live_url):
    page = new_page(locale="zh-CN")
    page.goto(live_url + "/")
    page.wait_for_selector("[data-action=quick-play]")
    assert page.evaluate("document.documentElement.lang") == "zh-Hans"
    assert page.input_value("#lang") == "zh"
    names = page.eval_on_selector_all("#lang option", "os => os.map(o => o.textContent)")
    assert names == [lang.own_name for lang in LANGUAGES.values()]
    with page.expect_navigation():
        page.select_option("#lang", "fa")
    page.wait_for_selector("[data-action=quick-play]")
    assert page.evaluate("[document.documentElement.lang, document.documentElement.dir]") == [
        "fa", "rtl"]
    assert catalog_json("fa", "web")["lobby.heading"] in page.inner_text("h1")
    cookie = {c["name"]: c["value"] for c in page.context.cookies()}
    assert cookie.get("parlour_lang") == "fa"
    # remembered: another page, and the same page opened again, in Persian
    page.goto(live_url + "/verify")
    page.wait_for_selector("#lang")
    assert page.evaluate("document.documentElement.lang") == "fa"
    page.goto(live_url + "/")
    page.wait_for_selector("[data-action=quick-play]")
    assert page.input_value("#lang") == "fa"
    with page.expect_navigation():
        page.select_option("#lang", "en")
    page.wait_for_selector("[data-action=quick-play]")
    assert page.evaluate("[document.documentElement.lang, document.documentElement.dir]") == [
        "en", "ltr"]
    assert page.inner_text("h1") == "Fanti and Fan Tan, at one table"


@pytest.mark.parametrize("code", ["fa", "zh"])
@pytest.mark.parametrize(("game", "bots"), [("fantan", 2), ("fanti", 1)])
def test_a_round_to_the_end_in(new_page, live_url, artifacts, code, game, bots):
    bots_ready(live_url)
    page = new_page(locale={"fa": "fa-IR", "zh": "zh-CN"}[code])
    fetched = catalogs_fetched(page)
    create_with_form(page, live_url, game, {"fa": "آنا", "zh": "安娜"}[code], rounds=1,
                     seats=["bot:easy"] * bots)
    start(page)
    no_keys(page)
    play_until_over([page], limit=200)
    page.wait_for_selector(OVER)
    assert page.evaluate("document.documentElement.lang") == LANGUAGES[code].tag
    no_keys(page)
    page.screenshot(path=str(artifacts / f"i18n-{code}-{game}-over.png"), full_page=True)
    assert {u.split("/i18n/")[1].split("/")[0] for u in fetched} == {code}
    assert page.errors == []


LOCALE = {"zh": "zh-CN"}
WEIGHT = """() => {
  const nav = performance.getEntriesByType('navigation')[0];
  const res = performance.getEntriesByType('resource');
  return nav.decodedBodySize + res.reduce((a, r) => a + r.decodedBodySize, 0);
}"""
"""Everything the page fetched, in bytes as served (before compression), as
benchmarks/web_quickplay.py counts it."""


def open_tables_listed(base: str) -> list[str]:
    """A public table of each game waiting for people, on the front page's list: ids."""
    listed = {t["game"]: t["id"] for t in httpx.get(base + "/api/open-tables", timeout=30).json()
              if t["status"] == "waiting" and t["free"] > 0}
    for game, n in (("fanti", 2), ("fantan", 4)):
        if game not in listed:
            r = httpx.post(base + "/api/tables", timeout=30, json={
                "game": game, "players": n, "public": True, "seats": [{"kind": "person"}] * n})
            assert r.status_code == 201, r.text
            listed[game] = r.json()["table"]
    return [listed["fanti"], listed["fantan"]]


@pytest.mark.parametrize("code", [*LANGUAGES])
def test_the_front_page_stays_light(new_page, live_url, code):
    """Front page <= 100 KiB uncompressed, in every language: its words are the ones its
    scripts draw (server/page_words.py), the friends panel's module only for someone with
    friends, its style sheets the shared one and its own."""
    tables = open_tables_listed(live_url)  # as in a live room: the list, rules in words
    page = new_page(locale=LOCALE.get(code, code))
    fetched = []
    page.on("request", lambda r: fetched.append(r.url))
    page.goto(live_url + "/")
    page.wait_for_selector("[data-action=quick-play][data-game=fantan]")
    for table in tables:
        page.wait_for_selector(f"[data-open-table='{table}']")
    page.wait_for_function("() => [...document.querySelectorAll('.open-rules')]"
                           ".every((e) => e.textContent.trim())")
    page.wait_for_load_state("networkidle")
    front = page.evaluate(WEIGHT)
    assert front <= 100 * 1024, f"front page {front / 1024:.1f} KiB"
    # the games' words modules, never their table-drawing modules
    games = sorted(u.split("/static/js/games/")[1] for u in fetched if "/static/js/games/" in u)
    assert {"fanti/words.js", "fantan/words.js"} <= set(games), games
    assert not {"fanti.js", "fantan.js"} & set(games), games
    assert "/front/" in page.evaluate("document.documentElement.dataset.catalog")
    no_keys(page)
    sheets = page.eval_on_selector_all("link[rel=stylesheet]", "ls => ls.map(l => l.href)")
    assert [s.rsplit("/", 1)[1] for s in sheets] == ["base.css", "front.css"]


@pytest.mark.parametrize("code", [*LANGUAGES])
def test_the_table_page_stays_light(new_page, live_url, code):
    """Table page <= 150 KiB uncompressed, in every language: it links the shared and the
    table's style sheets only (css/base.css, table.css), and what a player needs only
    later (the end of a round and of the game, the people box, the rules dialog) comes on
    demand with its words and its style sheet (js/table.js's later(), bundle
    "later-{game}")."""
    page = new_page(locale=LOCALE.get(code, code))
    page.goto(live_url + "/")
    page.wait_for_selector("[data-action=quick-play][data-game=fantan]")
    bots_ready(live_url)
    page.click("[data-action=quick-play][data-game=fanti]")
    page.wait_for_selector(".hand .card")
    page.wait_for_load_state("networkidle")
    table = page.evaluate(WEIGHT)
    no_keys(page)
    assert table <= 150 * 1024, f"table page {table / 1024:.1f} KiB"
    sheets = page.eval_on_selector_all("link[rel=stylesheet]", "ls => ls.map(l => l.href)")
    assert [s.rsplit("/", 1)[1] for s in sheets] == ["base.css", "table.css"]
