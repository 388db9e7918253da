"""The screenshots in docs/web.md, taken in Debian's Chromium with Playwright.

Starts a test-mode server (fixed decks, quick bots), plays through the pages a newcomer
meets and saves docs/img/web-*.png.

    PYTHONPATH=src python scripts/web_screenshots.py
"""

from __future__ import annotations

import shutil
import socket
import threading
import time
from pathlib import Path

import httpx
from playwright.sync_api import sync_playwright

from parlour import cards
from parlour.server import Settings, create_app

OUT = Path(__file__).resolve().parents[1] / "docs" / "img"


def serve(db: Path) -> str:
    import uvicorn

    settings = Settings(db_url=f"sqlite:///{db}", bot_delay=0.05, round_pause=0.3, testing=True)
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(create_app(settings), host="127.0.0.1", port=port,
                                           log_level="warning"))
    threading.Thread(target=server.run, daemon=True).start()
    while not server.started:
        time.sleep(0.05)
    return f"http://127.0.0.1:{port}"


def seat_page(browser, base, **body):
    j = httpx.post(base + "/api/tables", json=body, timeout=10).json()
    ctx = browser.new_context(viewport={"width": 1280, "height": 860})
    page = ctx.new_page()
    page.goto(base + "/")
    page.evaluate("([t, v]) => localStorage.setItem('parlour.seat.' + t, JSON.stringify(v))",
                  [j["table"], {"token": j["token"], "seat": j["seat"], "rejoin": base + j["rejoin_url"]}])
    page.goto(f"{base}/t/{j['table']}")
    return page, j


def play_some(page, until, limit=120.0):
    deadline = time.time() + limit
    while time.time() < deadline and not until():
        try:
            if page.query_selector(".mine.turn"):
                card = page.query_selector(".hand [data-legal=true]")
                if card:
                    card.click()
                    if page.query_selector("[data-action=confirm]"):
                        if page.is_disabled("[data-action=confirm]"):
                            page.click("[data-take]")
                        page.click("[data-action=confirm]")
                elif page.query_selector("[data-action=pass]"):
                    page.click("[data-action=pass]")
            page.wait_for_timeout(60)
        except Exception:  # noqa: BLE001 -- re-rendered under the click
            page.wait_for_timeout(60)


def shot(page, selector: str, name: str) -> None:
    """A picture of one part of a page that keeps redrawing (bots play on)."""
    box = page.query_selector(selector).bounding_box()
    page.screenshot(path=str(OUT / name), full_page=True, clip={
        "x": box["x"] - 8, "y": box["y"] - 8, "width": box["width"] + 16, "height": box["height"] + 16})


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    base = serve(Path(__import__("tempfile").mkdtemp()) / "shots.sqlite3")
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=shutil.which("chromium"), args=["--no-sandbox"])
        ctx = browser.new_context(viewport={"width": 1280, "height": 860})
        front = ctx.new_page()
        httpx.post(base + "/api/tables", json={"game": "fanti", "players": 3, "public": True,
                   "name": "Mira", "seats": [{"kind": "person"}, {"kind": "person"},
                                             {"kind": "bot", "bot": "medium"}]})
        httpx.post(base + "/api/tables", json={"game": "fantan", "players": 4, "public": True,
                   "rules": {"rounds": 20}, "seats": [{"kind": "bot", "bot": "easy"}] * 4})
        front.goto(base + "/")
        front.wait_for_selector("[data-open-table]")
        front.screenshot(path=str(OUT / "web-front.png"), full_page=True)
        front.goto(base + "/rules/fanti")
        front.wait_for_selector(".rules-page .example")
        front.screenshot(path=str(OUT / "web-rules-fanti.png"))

        page, _ = seat_page(browser, base, game="fanti", players=3, rules={"rounds": 2}, name="Ann",
                            seats=[{"kind": "person"}] + [{"kind": "bot", "bot": "medium"}] * 2,
                            test={"seed": 21, "decks": [list(cards.ALL_CODES)]})
        page.click("[data-action=start]")
        page.wait_for_selector(".mine.turn")
        page.fill("[data-chat-input]", "Good luck, everyone")
        page.press("[data-chat-input]", "Enter")
        page.click("[data-phrase='Good luck']")
        page.wait_for_timeout(300)
        page.screenshot(path=str(OUT / "web-table-fanti.png"))
        page.click("[data-action=rules]")
        page.wait_for_selector("dialog[open]")
        page.screenshot(path=str(OUT / "web-rules-dialog.png"))
        page.keyboard.press("Escape")
        play_some(page, lambda: page.query_selector("[data-score-detail]") is not None)
        page.wait_for_selector("[data-score-detail]")
        shot(page, ".round-over", "web-round-score.png")

        page, j = seat_page(browser, base, game="fantan", players=4, rules={"rounds": 3}, name="Ann",
                            seats=[{"kind": "person"}] + [{"kind": "bot", "bot": "easy"}] * 3,
                            test={"seed": 7})
        page.click("[data-action=start]")
        play_some(page, lambda: page.query_selector(".game-over") is not None, limit=240)
        shot(page, ".game-over", "web-end.png")
        page.click("[data-action=replay]")
        page.wait_for_selector("[data-action=next]")
        for _ in range(14):
            page.click("[data-action=next]")
        page.click("[data-action=review]")
        page.wait_for_selector("[data-review]", timeout=120000)
        page.screenshot(path=str(OUT / "web-replay.png"), full_page=True)

        phone = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True,
                                    has_touch=True, device_scale_factor=2).new_page()
        phone.goto(base + "/")
        phone.click("[data-action=quick-play][data-game=fantan]")
        phone.wait_for_selector(".mine.turn", timeout=30000)
        bad = phone.query_selector(".hand [data-legal=false]")
        if bad:
            bad.tap(force=True)
        phone.screenshot(path=str(OUT / "web-phone.png"))
        browser.close()
    for f in sorted(OUT.glob("web-*.png")):
        print(f, f.stat().st_size // 1024, "KiB")


if __name__ == "__main__":
    main()
