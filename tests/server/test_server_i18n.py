"""The page and its catalog in the visitor's language (server/pages.py, parlour.i18n)."""

from __future__ import annotations

import re

import pytest
from server_kit import HTTP_CHECKED

from parlour.i18n import LANGUAGES, catalog_json

PAGES = ["/", "/t/abc", "/verify", "/account", "/replay", "/rules/fanti", "/u/anna",
         "/leaderboard/fantan"]


def catalog_of(html: str) -> str:
    return re.search(r'data-catalog="([^"]+)"', html).group(1)


@pytest.mark.parametrize("path", PAGES)
def test_every_page_is_served_in_the_visitors_language(client, path):
    fa = client.get(path, headers={"Accept-Language": "fa-IR,fa;q=0.9,en;q=0.5"})
    assert fa.status_code == 200
    assert '<html lang="fa" dir="rtl"' in fa.text
    assert "صدا" in fa.text and ">Sound<" not in fa.text  # the header's words, no flash
    assert "Vary" in fa.headers and "Accept-Language" in fa.headers["Vary"]
    zh = client.get(path, headers={"Cookie": "parlour_lang=zh", "Accept-Language": "fa"})
    assert '<html lang="zh-Hans" dir="ltr"' in zh.text  # the picker's cookie wins
    en = client.get(path)
    assert '<html lang="en" dir="ltr"' in en.text and ">Sound<" in en.text
    assert "{{" not in fa.text + zh.text + en.text  # every mark filled


def test_the_picker_offers_every_language_in_its_own_name(client):
    html = client.get("/", headers={"Cookie": "parlour_lang=es"}).text
    picker = re.search(r'<select id="lang".*?</select>', html, re.S).group(0)
    for code, lang in LANGUAGES.items():
        assert f'value="{code}"' in picker and lang.own_name in picker
    assert 'value="es" lang="es" selected' in picker
    assert "en-XA" not in picker
    assert 'aria-label="Idioma"' in picker


def test_the_catalog_holds_one_language_and_is_cached_by_version(client):
    html = client.get("/verify", headers={"Accept-Language": "az"}).text
    url = catalog_of(html)
    assert url.startswith("/i18n/az/all/") and f'<link rel="preload" href="{url}"' in html
    r = client.get(url)
    assert r.status_code == 200 and "immutable" in r.headers["Cache-Control"]
    body = r.json()
    assert body == {d: catalog_json("az", d) for d in ("web", "game")}  # one language, whole
    assert body["web"]["error.not_your_turn"] == "Hələ sizin növbəniz deyil."
    for path in ("/account", "/replay"):
        assert catalog_of(client.get(path, headers={"Accept-Language": "az"}).text) == url
    # the front page and a table page get the words their scripts draw (page_words.py)
    front = catalog_of(client.get("/", headers={"Accept-Language": "az"}).text)
    table = catalog_of(client.get("/t/x", headers={"Accept-Language": "az"}).text)
    assert front.startswith("/i18n/az/front/") and table.startswith("/i18n/az/table/")
    older = client.get("/i18n/az/front/0000.json")  # an older URL: today's words, not kept
    assert older.headers["Cache-Control"] == "no-cache"
    front_words = client.get(front).json()
    assert set(front_words["web"]) < set(catalog_json("az", "web"))
    assert "lobby.play_now" in front_words["web"] and "card.rank.J.game" in front_words["game"]
    assert not any(k.startswith("opts.") for k in front_words["game"])  # with the custom form
    options = client.get("/i18n/az/options/latest.json").json()
    assert options["game"] and all(k.startswith("opts.") for k in options["game"])
    assert not any(k.startswith("rules.") for k in front_words["game"])  # on demand
    rules = client.get("/i18n/az/rules/latest.json").json()
    assert rules["game"] and all(".rules." in f".{k}" for k in rules["game"])


@pytest.mark.parametrize("url", ["/i18n/fr/all/1.json", "/i18n/EN/all/1.json",
                                 "/i18n/../all/1.json", "/i18n/en/nope/1.json"])
def test_an_unknown_catalog_is_a_plain_404(client, url):
    r = client.get(url)
    assert r.status_code == 404 and r.json()["error"] == "not_found"


def test_pseudo_language_on_purpose_only(client):
    html = client.get("/verify", headers={"Cookie": "parlour_lang=en-XA"}).text
    assert '<html lang="en-XA" dir="ltr"' in html and "[Šöûñđ" in html
    assert client.get(catalog_of(html)).json()["web"]["page.sound"].startswith("[Šöûñđ")


def test_error_words_follow_the_request_language(client):
    r = client.get("/api/tables/no-such-table", headers={"Accept-Language": "es-ES"})
    assert r.status_code == 404
    assert r.json() == {"error": "not_found", "message": "Aquí no hay nada con ese nombre."}
    r = client.get("/api/tables/no-such-table", headers={"Cookie": "parlour_lang=zh"})
    assert r.json()["message"] == "这里没有这个名字的内容。"
    r = client.get("/api/tables/no-such-table")
    assert r.json()["error"] == "not_found" and "no-such-table" in r.json()["message"]
    r = client.get("/no/such/path", headers={"Accept-Language": "fa"})
    assert r.status_code == 404 and r.json()["message"] == "چیزی با این نام اینجا نیست."


def test_offline_and_admin_pages_in_the_language(make_app):
    client = make_app(operator_secret="s" * 32)
    off = client.get("/offline", headers={"Cookie": "parlour_lang=fa"}).text
    assert '<html lang="fa" dir="rtl" data-theme="">' in off and "شما آفلاین هستید" in off
    admin = client.get("/admin", headers={"Accept-Language": "zh-CN"}).text
    assert '<html lang="zh-Hans"' in admin and "管理" in admin and 'id="lang"' in admin


def test_the_catalog_is_under_the_leak_oracle():
    assert "/i18n/" in HTTP_CHECKED


def test_validation_and_catch_all_refusals_follow_the_request_language(client, monkeypatch):
    """The 422 of a body of the wrong shape and the 503 of a database that is away, in
    the cookie's language with the same code and shape; English keeps the precise words."""
    from server_kit import service
    from sqlalchemy.exc import OperationalError
    from starlette.testclient import TestClient

    es = catalog_json("es", "web")
    r = client.post("/api/tables", json={"game": "fanti", "players": "many"},
                    headers={"Cookie": "parlour_lang=es"})
    assert r.status_code == 422 and r.json()["error"] == "invalid"
    assert r.json()["message"] == es["error.invalid"] and r.json()["detail"]
    r = client.post("/api/tables", json={"game": "fanti", "players": "many"})
    assert r.status_code == 422 and "players" in r.json()["message"]

    def away(*_args, **_kw):
        raise OperationalError("INSERT", {}, Exception("database is locked"))

    monkeypatch.setattr(service(client).store, "add", away)
    quiet = TestClient(client.app, raise_server_exceptions=False)
    r = quiet.post("/api/tables", json={"game": "fanti", "players": 2},
                   headers={"Cookie": "parlour_lang=es"})
    assert r.status_code == 503 and r.json() == {"error": "unavailable",
                                                 "message": es["error.unavailable"]}

    def broken(*_args, **_kw):
        raise RuntimeError("disk on fire")

    monkeypatch.setattr(service(client).store, "add", broken)
    r = quiet.post("/api/tables", json={"game": "fanti", "players": 2},
                   headers={"Accept-Language": "es-ES"})
    assert r.status_code == 500 and r.json() == {"error": "server_error",
                                                 "message": es["error.server_error"]}
