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
keys they draw (``front``, ``table``; the rules on demand: ``rules``), for the other
pages all (``all``); its version is a hash of its contents, so it is cached for a year
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
from parlour.server.errors import ServiceError

STATIC = Path(__file__).resolve().parent.parent / "web" / "static"
COOKIE = "parlour_lang"
MARK = re.compile(r"\{\{(t:[a-z0-9_.-]+|lang|dir|catalog|picker)\}\}")
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


FRONT_WEB = ("page", "lang", "error", "level", "lobby", "account", "between", "people",
             "pool", "notify", "profile")
"""The first segments of the web keys the front page draws (js/lobby.js and what it
imports); of the game words the card names (the card-style toggle), the rules' option
words (the custom form) and each game's one-line blurb (``{game}.blurb``)."""
FRONT_GAME = ("card", "opts")
NOT_AT_TABLE = ("lobby", "admin", "offline", "verify", "replay", "players", "rules")
"""Web keys a table page never draws, and game keys it loads only when asked
(the rules dialog: ``more("rules")`` in js/i18n.js)."""
BUNDLES = ("front", "table", "rules", "all")


def _known(bundle: str) -> bool:
    """``table-{game}``: a table page of one game (the other games' words left out)."""
    base, _, game = bundle.partition("-")
    return base in BUNDLES and (not game or (base == "table" and game in KITS))


def _in_bundle(bundle: str, domain: str, key: str) -> bool:
    head = key.split(".", 1)[0]
    second = key.split(".")[1] if key.count(".") else ""
    if bundle == "front":
        return head in FRONT_WEB if domain == "web" else (
            head in FRONT_GAME or key.endswith(".blurb"))
    if bundle.startswith("table"):
        game = bundle.partition("-")[2]
        other_game = domain == "game" and game and head in KITS and head != game
        # drawn elsewhere: the lobby's level lines, the header (served filled in)
        elsewhere = (key.endswith(".line") and head == "level") or (
            head == "page" and key != "page.notify.blocked")
        return head not in NOT_AT_TABLE and second != "rules" and not other_game and not elsewhere
    if bundle == "rules":
        return domain == "game" and (head == "rules" or second == "rules")
    return True


@cache
def catalog_body(code: str, bundle: str = "all") -> tuple[bytes, str]:
    """One language's words for one kind of page, as JSON, and its version. The front
    page and the table page get only the keys they draw (light pages);
    every other page gets the whole ``web`` and ``game`` catalogs."""
    body = orjson.dumps({d: {k: v for k, v in catalog_json(code, d).items()
                             if _in_bundle(bundle, d, k)} for d in PAGE_DOMAINS},
                        option=orjson.OPT_SORT_KEYS)
    return body, hashlib.sha256(body).hexdigest()[:12]


def bundle_of(request: Request) -> str:
    """Which words a page draws. Every page gets them all for now: the lighter
    bundles (``front``, ``table-{game}``) left out words the page draws (the card-name
    toggle's, the rules dialog's, the joined-up lists'), and a missing word is worse
    than a few KiB; the bundles stay served for the day their lists are checked."""
    return "all"


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
def render(name: str, code: str, bundle: str = "all") -> bytes:
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
        return html.escape(t(code, what[2:]))

    return MARK.sub(fill, source).encode("utf-8")


def page(request: Request, name: str = "index.html") -> HTMLResponse:
    """A page in the request's language (headers: server/guard.py adds the CSP)."""
    bundle = bundle_of(request) if name == "index.html" else "all"
    return HTMLResponse(render(name, lang_of(request), bundle), headers=PAGE_HEADERS)


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
