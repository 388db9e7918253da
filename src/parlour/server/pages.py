"""The pages in the visitor's language, and the catalogs their scripts read.

A page (``index.html``, ``admin.html``, ``offline.html``) is served with
``<html lang dir>`` set, its own words already in the chosen language (``{{t:key}}``
marks in the file), the language picker filled in and the URL of its catalog, so the
first paint is in the right language and right-to-left where it should be (no English
flash, no inline script: the CSP allows none). The language is the ``parlour_lang``
cookie (set by the picker), else the first ``Accept-Language`` tag we have, else
English (``parlour.i18n.negotiate``).

The catalog (``/i18n/{lang}/{bundle}/{version}.json``) holds one language's ``web``
and ``game`` words and nothing else -- for the front page and the table page only the
keys their scripts draw, read from the scripts (``front``, ``table-{game}``:
server/page_words.py), for the other pages all (``all``); its version is a hash of its contents, so it is cached for a year
and a changed catalog gets a new URL.
"""

from __future__ import annotations

import hashlib
import html
import re
from functools import cache
from pathlib import Path

import orjson
from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response

from parlour.games import KITS
from parlour.i18n import LANGUAGES, catalog_json, language, negotiate, t
from parlour.server import page_words
from parlour.server.errors import ServiceError

STATIC = Path(__file__).resolve().parent.parent / "web" / "static"
COOKIE = "parlour_lang"
THEME_COOKIE = "parlour_theme"
THEMES = ("auto", "light", "dark")
"""The header's colours picker: as the device says (``prefers-color-scheme``), or light
or dark whatever it says; remembered a year in the ``parlour_theme`` cookie, so the
page is served in the chosen colours from its first paint (js/theme.js sets it)."""
MARK = re.compile(r"\{\{(t:[a-z0-9_.-]+|lang|dir|catalog|picker|theme|themes|styles)\}\}")
PAGE_HEADERS = {"Cache-Control": "no-cache", "Vary": "Cookie, Accept-Language"}
FOREVER = {"Cache-Control": "public, max-age=31536000, immutable"}
PAGE_DOMAINS = ("web", "game")

router = APIRouter(include_in_schema=False)


def lang_of(request: Request) -> str:
    """The language this request is answered in."""
    return negotiate(request.headers.get("accept-language"), request.cookies.get(COOKIE))


def reader_speech(accept: str | None, chosen: str | None, card_names: str | None
                  ) -> tuple[str, str]:
    """A socket's reader: the language (the cookie ``parlour_lang``, else Accept-Language)
    and card-name style (the cookie ``parlour_cards``) its refusals are worded in."""
    return negotiate(accept, chosen), card_names if card_names in ("game", "classic") else "game"


BUNDLES = ("front", "table", "rules", "options", "later", "all")
SERVER_SENT = ("rules", "opts")
"""Game-word heads a table's server answers never carry (the rules and the options are
drawn by the page's modules, so the scan finds them). The words a server answer may
carry as a key are of two kinds: those drawn at a table's first paint (an engine's
refusals, a pass's price) are named by a literal prefix in the module that draws them,
so the scan finds them; every other game word of the table's own game and of no game
(the score details of score.js, which comes later) is in the bundle ``later``."""


def _known(bundle: str) -> bool:
    """``table-{game}``, ``later-{game}``: a table page of one game, and what it loads
    later (the other games' words left out)."""
    base, _, game = bundle.partition("-")
    return base in BUNDLES and (not game or (base in ("table", "later") and game in KITS))


def _game_modules() -> dict[str, Path]:
    return {name: kit.web_module for name, kit in KITS.items() if kit.web_module is not None}


def _entries(bundle: str) -> list[str]:
    """The modules a page runs first: the router and the page's own module; a table
    its game's module too. (The front page takes from a game's module only its option
    words, made by js/gamewords.js's optionWords, which the front page's scan reads.)"""
    base, _, game = bundle.partition("-")
    games = [game] if game else sorted(_game_modules())
    if base == "front":
        return ["main.js", "lobby.js"]
    if base == "later":  # what a table (of any game) loads on demand; the rules dialog's
        # module is a page of its own too, which a closure leaves out unless named
        return ["table.js", "rules.js", *(f"games/{g}.js" for g in games)]
    return ["main.js", "table.js", *(f"games/{g}.js" for g in games)]


def _of_game(key: str, game: str) -> bool:
    """A word of this game (or of every game, when ``game`` is empty), or of no game:
    another game's words (``opts.other.*``, ``refusal.other.*``) are left out."""
    parts = key.split(".")
    named = [p for p in parts[:2] if p in KITS]
    return not named or not game or named[0] == game


def _bundle_keys(bundle: str, domain: str, keys: list[str]) -> set[str]:
    """The keys of one catalog a page of this kind draws (server/page_words.py)."""
    if bundle == "all":
        return set(keys)
    rules = {k for k in keys if domain == "game" and (
        k.split(".")[0] == "rules" or k.split(".")[1:2] == ["rules"])}
    if bundle == "rules":
        return rules
    options = {k for k in keys if domain == "game" and k.split(".")[0] == "opts"}
    if bundle == "options":
        return options
    base, _, game = bundle.partition("-")
    # the rules' words come on demand, when the rules dialog opens (js/rules.js)
    table = base == "table"
    chosen = page_words.drawn(keys, page_words.closure(_entries(bundle), _game_modules(), later=not table)) - rules
    if base == "later":  # a table's modules loaded on demand (js/table.js's later())
        first = _bundle_keys(f"table-{game}" if game else "table", domain, keys)
        if domain == "game":  # and the words a server answer brings at a round's end
            chosen |= {k for k in keys if k.split(".", 1)[0] not in SERVER_SENT}
        return {k for k in chosen - first - rules if _of_game(k, game)}
    if base == "front":  # the options' words come with the custom form (js/lobby.js)
        chosen -= options
    return {k for k in chosen if _of_game(k, game)} if table else chosen


@cache
def catalog_body(code: str, bundle: str = "all") -> tuple[bytes, str]:
    """One language's words for one kind of page, as JSON, and its version. The front
    page and the table page get only the keys they draw (light pages);
    every other page gets the whole ``web`` and ``game`` catalogs."""
    words = {}
    for d in PAGE_DOMAINS:
        every = catalog_json(code, d)
        keep = _bundle_keys(bundle, d, sorted(every))
        words[d] = {k: v for k, v in every.items() if k in keep}
    body = orjson.dumps(words, option=orjson.OPT_SORT_KEYS)
    return body, hashlib.sha256(body).hexdigest()[:12]


def bundle_of(request: Request) -> str:
    """Which words a page draws: the front page's, a table's (of its game, when this
    process holds the table), or all (every other page)."""
    path = request.url.path
    if path == "/":
        return "front"
    if path.startswith("/t/"):
        service = getattr(request.app.state, "service", None)
        tables = getattr(service, "tables", None)
        table = tables.get(path[3:].strip("/")) if isinstance(tables, dict) else None
        game = getattr(getattr(table, "game", None), "name", None)
        return f"table-{game}" if game in KITS else "table"
    return "all"


def theme_of(request: Request) -> str:
    """The colours this request chose (``auto``: the device's)."""
    chosen = request.cookies.get(THEME_COOKIE, "auto")
    return chosen if chosen in THEMES else "auto"


def _themes(code: str, theme: str) -> str:
    options = "".join(
        f'<option value="{v}"{" selected" if v == theme else ""}>'
        f'{html.escape(t(code, "theme." + v))}</option>' for v in THEMES)
    label = html.escape(t(code, "theme.label"))
    return (f'<select id="theme" class="tool lang-pick" aria-label="{label}" '
            f'title="{label}">{options}</select>')


STYLES = ("base", "front", "table", "later", "rules", "pages")
"""The style sheets (css/NAME.css), in the order a page links them."""


def styles(bundle: str) -> str:
    """The style sheets a page links in its head: what every page shares, and its own
    (the front page's, a table's); every other page links them all. A table's later
    parts fetch theirs when they come (js/dom.js's style)."""
    base = bundle.partition("-")[0]
    names = ("base", base) if base in ("front", "table") else STYLES
    return "\n".join(f'<link rel="stylesheet" href="/static/css/{n}.css">' for n in names)


def catalog_url(code: str, bundle: str = "all") -> str:
    return f"/i18n/{code}/{bundle}/{catalog_body(code, bundle)[1]}.json"


def _picker(code: str) -> str:
    options = "".join(
        f'<option value="{c}" lang="{lang.tag}"{" selected" if c == code else ""}>'
        f"{html.escape(lang.own_name)}</option>" for c, lang in LANGUAGES.items())
    label = html.escape(t(code, "lang.label"))
    return (f'<select id="lang" class="tool lang-pick" aria-label="{label}" '
            f'title="{label}">{options}</select>')


@cache
def render(name: str, code: str, bundle: str = "all", theme: str = "auto") -> bytes:
    """One static page with the language's words filled in (kept per language)."""
    lang = language(code)
    assert lang is not None
    source = (STATIC / name).read_text(encoding="utf-8")

    def fill(m: re.Match[str]) -> str:
        what = m.group(1)
        if what == "lang":
            return lang.tag
        if what == "dir":
            return lang.dir
        if what == "catalog":
            return catalog_url(code, bundle)
        if what == "picker":
            return _picker(code)
        if what == "theme":
            return "" if theme == "auto" else theme
        if what == "themes":
            return _themes(code, theme)
        if what == "styles":
            return styles(bundle)
        return html.escape(t(code, what[2:]))

    return MARK.sub(fill, source).encode("utf-8")


def page(request: Request, name: str = "index.html") -> HTMLResponse:
    """A page in the request's language (headers: server/guard.py adds the CSP)."""
    bundle = bundle_of(request) if name == "index.html" else "all"
    return HTMLResponse(render(name, lang_of(request), bundle, theme_of(request)),
                        headers=PAGE_HEADERS)


def error_words(request: Request, code: str, message: str) -> str:
    """A refusal's ``message`` in the request's language: the words of ``error.{code}``;
    in English (and for a code without words) the server's own, more precise message."""
    lang = lang_of(request)
    if lang == "en":
        return message
    return catalog_json(lang, "web").get(f"error.{code}", message)


@router.get("/i18n/{code}/{bundle}/{version}.json")
def catalog(code: str, bundle: str, version: str) -> Response:
    """One language's words for one kind of page (``web`` and ``game`` catalogs)."""
    lang = language(code)
    if lang is None or lang.code != code or not _known(bundle):
        raise ServiceError(404, "not_found", "there is no catalog for that language")
    body, current = catalog_body(code, bundle)
    # An older page asking for an older version gets today's words, not to be kept.
    headers = FOREVER if version == current else {"Cache-Control": "no-cache"}
    return Response(body, media_type="application/json", headers=headers)
