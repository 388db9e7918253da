"""The pages in the visitor's language, and the catalogs their scripts read.

A page (``index.html``, ``admin.html``, ``offline.html``) is served with
``<html lang dir>`` set, its own words already in the chosen language (``{{t:key}}``
marks in the file), the language picker filled in and the URL of its catalog, so the
first paint is in the right language and right-to-left where it should be (no English
flash, no inline script: the CSP allows none). The language is the ``parlour_lang``
cookie (set by the picker), else the first ``Accept-Language`` tag we have, else
English (``parlour.i18n.negotiate``).

The catalog (``/i18n/{lang}/{version}.json``) holds one language's ``web`` and
``game`` words and nothing else; its version is a hash of its contents, so it is
cached for a year and a changed catalog gets a new URL.
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


@cache
def catalog_body(code: str) -> tuple[bytes, str]:
    """The page's catalog of one language as JSON, and its version."""
    body = orjson.dumps({d: catalog_json(code, d) for d in PAGE_DOMAINS},
                        option=orjson.OPT_SORT_KEYS)
    return body, hashlib.sha256(body).hexdigest()[:12]


def catalog_url(code: str) -> str:
    return f"/i18n/{code}/{catalog_body(code)[1]}.json"


def _picker(code: str) -> str:
    options = "".join(
        f'<option value="{c}" lang="{lang.tag}"{" selected" if c == code else ""}>'
        f"{html.escape(lang.own_name)}</option>" for c, lang in LANGUAGES.items())
    label = html.escape(t(code, "lang.label"))
    return (f'<select id="lang" class="tool lang-pick" aria-label="{label}" '
            f'title="{label}">{options}</select>')


@cache
def render(name: str, code: str) -> bytes:
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
            return catalog_url(code)
        if what == "picker":
            return _picker(code)
        return html.escape(t(code, what[2:]))

    return MARK.sub(fill, source).encode("utf-8")


def page(request: Request, name: str = "index.html") -> HTMLResponse:
    """A page in the request's language (headers: server/guard.py adds the CSP)."""
    return HTMLResponse(render(name, lang_of(request)), headers=PAGE_HEADERS)


def error_words(request: Request, code: str, message: str) -> str:
    """A refusal's ``message`` in the request's language: the words of ``error.{code}``;
    in English (and for a code without words) the server's own, more precise message."""
    lang = lang_of(request)
    if lang == "en":
        return message
    return catalog_json(lang, "web").get(f"error.{code}", message)


@router.get("/i18n/{code}/{version}.json")
def catalog(code: str, version: str) -> Response:
    """One language's words for the page (``web`` and ``game`` catalogs)."""
    lang = language(code)
    if lang is None or lang.code != code:
        raise ServiceError(404, "not_found", "there is no catalog for that language")
    body, current = catalog_body(code)
    # An older page asking for an older version gets today's words, not to be kept.
    headers = FOREVER if version == current else {"Cache-Control": "no-cache"}
    return Response(body, media_type="application/json", headers=headers)
