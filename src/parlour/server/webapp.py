"""The installable app: its manifest, its service worker and the page shown offline.

The service worker keeps the page's static files (``/static/...``: scripts, styles,
icons, the games' page modules) and the offline page, and nothing else: it never sees
a table's state, an ``/api`` answer or the WebSocket (those requests pass it by). Its
script is built once per process with the list of those files and a version taken
from their contents, so a deploy that changes any of them changes the script, and
browsers replace the cache.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response

from parlour.games import KITS
from parlour.server.pages import page

STATIC = Path(__file__).resolve().parent.parent / "web" / "static"
SW_SOURCE = STATIC / "sw.js"
OFFLINE = "/offline"
NO_STORE = {"Cache-Control": "no-cache"}
"""The worker script and the manifest are checked on every visit (a new version is
found at once); the static files themselves are the worker's to keep."""

MANIFEST = {
    "name": "parlour: Fanti and Fan Tan",
    "short_name": "parlour",
    "description": "Fanti and Fan Tan at one table: against the computer, with friends, "
                   "or one move a day.",
    "id": "/",
    "start_url": "/",
    "scope": "/",
    "display": "standalone",
    "background_color": "#10351f",
    "theme_color": "#0f5c36",
    "icons": [
        {"src": "/static/icons/icon-192.png", "sizes": "192x192", "type": "image/png",
         "purpose": "any"},
        {"src": "/static/icons/icon-512.png", "sizes": "512x512", "type": "image/png",
         "purpose": "any"},
        {"src": "/static/icons/icon-512.png", "sizes": "512x512", "type": "image/png",
         "purpose": "maskable"},
    ],
}

router = APIRouter(include_in_schema=False)
API_PREFIXES = ("/api/", "/static/", "/i18n/", "/ws", "/sw.js", "/manifest.webmanifest")


def page_not_found(request: Request) -> Response | None:
    """A browser that asks for a page that is not there gets the page itself (404), which
    says so in words with a way on (main.js); scripts and the API keep the JSON shape."""
    path, accept = request.url.path, request.headers.get("accept", "")
    if request.method not in ("GET", "HEAD") or path.startswith(API_PREFIXES) or "text/html" not in accept:
        return None
    shown = page(request)
    shown.status_code = 404
    return shown


def static_files() -> dict[str, Path]:
    """Every file the worker keeps: URL path -> file on disk (not the pages: they are
    served in the visitor's language, server/pages.py)."""
    files = {"/static/" + p.relative_to(STATIC).as_posix(): p
             for p in sorted(STATIC.rglob("*"))
             if p.is_file() and p.name != "sw.js" and p.suffix != ".html"}
    for name, kit in sorted(KITS.items()):
        if kit.web_module is not None:
            files[f"/static/js/games/{name}.js"] = kit.web_module
        if kit.web_words is not None:
            files[f"/static/js/games/{name}/words.js"] = kit.web_words
    return files


def worker_script() -> bytes:
    """``sw.js`` preceded by the version and the list of files to keep."""
    files = static_files()
    digest = hashlib.sha256()
    for url, path in files.items():
        digest.update(url.encode() + b"\0" + path.read_bytes())
    head = (f"const VERSION = {json.dumps(digest.hexdigest()[:16])};\n"
            f"const OFFLINE = {json.dumps(OFFLINE)};\n"
            f"const FILES = {json.dumps([*files, OFFLINE])};\n")
    return head.encode() + SW_SOURCE.read_bytes()


_script: bytes | None = None


@router.get("/sw.js")
def service_worker() -> Response:
    global _script
    if _script is None:
        _script = worker_script()
    return Response(_script, media_type="text/javascript", headers=NO_STORE)


@router.get("/manifest.webmanifest")
def manifest() -> JSONResponse:
    return JSONResponse(MANIFEST, media_type="application/manifest+json", headers=NO_STORE)


@router.get(OFFLINE)
def offline_page(request: Request) -> Response:
    return page(request, "offline.html")
