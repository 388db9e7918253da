"""The installable app in real Chromium (issue 32): the manifest passes Chromium's own
installability check, the service worker keeps the page's static files only (never an
/api answer, a table's state or the WebSocket) and a page opened offline is the plain
offline page."""

from __future__ import annotations

import shutil
from urllib.parse import urlparse

import httpx
import pytest
from browser_kit import ARGS, TURN, serve_in_thread

pytestmark = [pytest.mark.browser, pytest.mark.timeout(120)]

WORKER_READY = "navigator.serviceWorker.ready.then(() => true)"


def controlled(page, url: str) -> None:
    """Open ``url`` once the service worker controls the page (its first visit installs
    the worker; the next load is under its control)."""
    page.goto(url)
    page.evaluate(WORKER_READY)
    page.reload()
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")


def test_the_manifest_passes_chromiums_installability_check(browser, live_url, tmp_path):
    m = httpx.get(live_url + "/manifest.webmanifest")
    assert m.headers["content-type"].startswith("application/manifest+json")
    body = m.json()
    assert {"name", "start_url", "display", "icons"} <= body.keys()
    sizes = {i["sizes"] for i in body["icons"]}
    assert {"192x192", "512x512"} <= sizes
    for icon in body["icons"]:
        r = httpx.get(live_url + icon["src"])
        assert r.status_code == 200 and r.headers["content-type"] == "image/png"
    # A browser profile on disk: Chromium installs nothing from an incognito context
    # (Playwright's new contexts are), and says so as an installability error.
    ctx = browser.browser_type.launch_persistent_context(
        str(tmp_path / "profile"), executable_path=shutil.which("chromium"), args=ARGS)
    try:
        page = ctx.pages[0] if ctx.pages else ctx.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        controlled(page, live_url + "/")
        cdp = ctx.new_cdp_session(page)
        problems = cdp.send("Page.getInstallabilityErrors")["installabilityErrors"]
        assert problems == [], problems
        manifest = cdp.send("Page.getAppManifest")
        assert manifest["url"].endswith("/manifest.webmanifest") and not manifest["errors"]
        assert errors == []
    finally:
        ctx.close()


def test_the_worker_keeps_static_files_only_and_serves_the_offline_page(new_page, tmp_path):
    from parlour.server import Settings

    # A server of its own, stopped half-way: the page is then really offline
    # (Chromium's offline emulation does not reach a service worker's requests).
    server = serve_in_thread(Settings(db_url=f"sqlite:///{tmp_path}/t.sqlite3",
                                      bot_delay=0.05, round_pause=0.3, testing=True,
                                      bot_workers=0))
    live_url = next(server)
    page = new_page()
    controlled(page, live_url + "/")
    page.click("[data-action=quick-play][data-game=fanti]")  # /api calls, then a table
    page.wait_for_selector(TURN)
    table = page.url.rsplit("/", 1)[1]
    # the site's own colours in the browser's theme (light or dark: the page follows it)
    styled = page.evaluate("getComputedStyle(document.body).backgroundColor")
    assert styled not in ("rgba(0, 0, 0, 0)", "rgb(255, 255, 255)")
    page.evaluate("fetch('/api/games').then((r) => r.json())")  # through the worker
    page.evaluate(f"fetch('/api/tables/{table}').then((r) => r.json())")
    kept = page.evaluate("""async () => {
        const out = [];
        for (const name of await caches.keys()) {
          for (const req of await (await caches.open(name)).keys()) out.push(req.url);
        }
        return out;
    }""")
    paths = [urlparse(u).path for u in kept]
    assert "/static/js/main.js" in paths and "/static/icons/icon-512.png" in paths
    assert "/offline" in paths and "/static/js/games/fanti.js" in paths
    assert all(p.startswith("/static/") or p == "/offline" for p in paths), paths
    assert not any(p.startswith(("/api", "/ws", "/t/")) or p == "/" for p in paths)

    page.goto(live_url + "/offline")  # the table's WebSocket closes
    next(server, None)  # the server stops
    with pytest.raises(httpx.TransportError):
        httpx.get(live_url + "/healthz")
    page.goto(f"{live_url}/replay/{table}")  # (not in the browser's HTTP cache)
    page.wait_for_selector("[data-offline]")
    assert "You are offline" in page.inner_text("h1")
    # styled from the worker's cache, in the same colours as the site
    assert page.evaluate("getComputedStyle(document.body).backgroundColor") == styled
