"""The screenshots in docs/web.md, taken in Debian's Chromium with Playwright.

Starts a test-mode server (fixed decks, quick bots), plays through the pages a newcomer
meets and saves docs/img/web-*.png. The pages of people who come back (the front page of
a signed-in player, the account page, a leaderboard, a profile) are taken at 1280 and
390 px wide after three accounts play a few rated games through the pages. ``languages``
takes the front page and a Fan Tan table in play in each language at 1280 and 390 px
(Persian, right to left, at 320 px too): docs/img/lang-*.png, kept small as 256-colour PNG.

    PYTHONPATH=src python scripts/web_screenshots.py [all|people|room|languages]
"""

from __future__ import annotations

import shutil
import socket
import sys
import threading
import time
from pathlib import Path

import httpx
from playwright.sync_api import sync_playwright

from parlour import cards
from parlour.server import Settings, create_app

OUT = Path(__file__).resolve().parents[1] / "docs" / "img"


PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True,
         "device_scale_factor": 2}
WIDE = {"viewport": {"width": 1280, "height": 860}}
PW = "a long enough password"


RUNNING: list = []
"""The server of this run and its thread: stopped at the end (its bot workers with it)."""


def stop() -> None:
    for server, thread in RUNNING:
        server.should_exit = True
        thread.join(30)


def serve(db: Path) -> str:
    import uvicorn

    # Leaderboards list a player after one rated game; every browser here is one address.
    settings = Settings(db_url=f"sqlite:///{db}", bot_delay=0.05, round_pause=0.3, testing=True,
                        leaderboard_min_games=1, signup_per_minute=600.0, signup_burst=50,
                        signin_per_minute=600.0, signin_burst=50, max_seats_per_address=16,
                        public_seats_per_address=16)
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(create_app(settings), host="127.0.0.1", port=port,
                                           log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    RUNNING.append((server, thread))
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


def sign_up(browser, base, name, shot_as=None):
    """A browser of its own with an account made on /account (the form's picture first
    when ``shot_as`` names it)."""
    ctx = browser.new_context(**WIDE)
    page = ctx.new_page()
    page.goto(base + "/account")
    page.fill("#account-name", name)
    page.fill("#account-password", PW)
    if shot_as:
        page.screenshot(path=str(OUT / f"{shot_as}.png"), full_page=True)
    page.click("[data-action=sign-up]")
    page.wait_for_selector(f"h2:has-text('Signed in as {name}')")
    return page


def table_for_two(host, guest, base, host_name, guest_name, rated=True, timer=None):
    """``host`` makes a one-round Fanti table for two people, ``guest`` takes the seat,
    the host deals. Returns the table id."""
    host.goto(base + "/")
    host.click("[data-action=custom]")
    host.click("label[for=game-fanti]")
    host.fill("#name", host_name)
    host.select_option("#players", "2")
    host.select_option("#seat-1", "person")
    host.fill("#rule-rounds", "1")
    if rated:
        host.check("#rated")
    if timer:
        host.select_option("#timer", timer)
    host.click("[data-action=create]")
    host.wait_for_url("**/t/*")
    guest.goto(host.input_value("[data-link=invite]"))
    guest.fill("#join-name", guest_name)
    guest.click("[data-action=join]")
    guest.wait_for_selector(".waiting")
    host.wait_for_selector(".seat-list li:nth-child(2) .dot.connected")
    host.click("[data-action=start]:not([disabled])")
    for p in (host, guest):
        p.wait_for_selector(".hand .card")
    return host.url.rsplit("/", 1)[1]


def play_together(pages, limit=240.0):
    deadline = time.time() + limit
    while time.time() < deadline and not all(p.query_selector(".game-over") for p in pages):
        for p in pages:
            play_one(p)


def play_one(page):
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


def both(browser, page, base, path, name, ready):
    """``path`` at 1280 px in ``page`` and at 390 px in a phone with the same cookies."""
    page.goto(base + path)
    page.wait_for_selector(ready)
    page.wait_for_timeout(300)
    page.screenshot(path=str(OUT / f"{name}.png"), full_page=True)
    phone = browser.new_context(storage_state=page.context.storage_state(), **PHONE).new_page()
    phone.goto(page.url)
    phone.wait_for_selector(ready)
    phone.wait_for_timeout(300)
    width = phone.evaluate("document.documentElement.scrollWidth")
    if width > 390:
        print(f"warning: {path} runs {width - 390} px off a phone")
    phone.screenshot(path=str(OUT / f"{name}-phone.png"), full_page=True)
    phone.context.close()


def people(browser, base) -> None:
    """The pages of people who come back, at 1280 and 390 px."""
    phone = browser.new_context(**PHONE).new_page()
    phone.goto(base + "/account")
    phone.fill("#account-name", "Anna")
    phone.screenshot(path=str(OUT / "web-account-phone.png"), full_page=True)
    phone.context.close()
    anna = sign_up(browser, base, "Anna", shot_as="web-account")
    ben = sign_up(browser, base, "Ben")
    cy = sign_up(browser, base, "Cy")
    for host, guest, names in ((anna, ben, ("Anna", "Ben")), (anna, cy, ("Anna", "Cy")),
                               (ben, anna, ("Ben", "Anna")), (cy, ben, ("Cy", "Ben"))):
        table_for_two(host, guest, base, *names)
        play_together([host, guest])
    # A correspondence game waiting on Anna: the front page's "Your move".
    table_for_two(anna, ben, base, "Anna", "Ben", rated=False, timer="days:3")
    while not anna.query_selector(".mine.turn"):
        play_one(ben)
    anna.evaluate("fetch('/api/follows', {method: 'POST', headers: {'Content-Type': "
                  "'application/json'}, body: JSON.stringify({name: 'Ben'})})")
    # Open tables and a game in play for the front page's lists.
    httpx.post(base + "/api/tables", json={"game": "fanti", "players": 3, "public": True,
               "name": "Mira", "seats": [{"kind": "person"}, {"kind": "person"},
                                         {"kind": "bot", "bot": "medium"}]})
    httpx.post(base + "/api/tables", json={"game": "fantan", "players": 4, "public": True,
               "rules": {"rounds": 20}, "seats": [{"kind": "bot", "bot": "easy"}] * 4})
    time.sleep(5.5)  # the room's counts are read every 5 s (room_counts_every)
    both(browser, anna, base, "/", "web-front", "[data-your-move] [data-your-move-table]")
    both(browser, anna, base, "/account", "web-account-signed-in", "[data-my-tables]")
    both(browser, anna, base, "/leaderboard/fanti", "web-leaderboard", "[data-leader-row]")
    both(browser, ben, base, "/u/Anna", "web-profile", ".rating-chart .line")


def room(browser, base) -> None:
    """The room itself: rules, a table, a round's score, the end, a replay, a phone."""
    ctx = browser.new_context(viewport={"width": 1280, "height": 860})
    front = ctx.new_page()
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


LANG_SIZES = {"1280": {"width": 1280, "height": 800}, "390": {"width": 390, "height": 844},
              "320": {"width": 320, "height": 640}}


def small_png(path: Path) -> None:
    """The picture as a 256-colour PNG: a fifth of the bytes, the same to the eye."""
    from PIL import Image

    with Image.open(path) as im:
        im.convert("RGB").quantize(colors=256, method=Image.Quantize.MEDIANCUT).save(path, optimize=True)


def languages(browser, base) -> None:
    """The front page and a table in play in every language, desktop and phone."""
    from parlour.i18n import LANGUAGES

    for code in LANGUAGES:
        for size in ("1280", "390") + (("320",) if code == "fa" else ()):
            ctx = browser.new_context(viewport=LANG_SIZES[size], reduced_motion="reduce",
                                      color_scheme="dark")  # the pictures' theme, as before
            ctx.add_cookies([{"name": "parlour_lang", "value": code, "url": base}])
            page = ctx.new_page()
            page.goto(base + "/")
            page.wait_for_selector("[data-action=quick-play][data-game=fantan]")
            page.wait_for_load_state("networkidle")
            out = OUT / f"lang-{code}-front-{size}.png"
            page.screenshot(path=str(out))
            small_png(out)
            j = httpx.post(base + "/api/tables", timeout=10, json={
                "game": "fantan", "players": 4, "rules": {"rounds": 1}, "name": NAMES[code],
                "seats": [{"kind": "person"}] + [{"kind": "bot", "bot": "easy"}] * 3,
                "test": {"seed": 7}}).json()
            page.evaluate("([t, v]) => localStorage.setItem('parlour.seat.' + t, JSON.stringify(v))",
                          [j["table"], {"token": j["token"], "seat": j["seat"]}])
            page.goto(f"{base}/t/{j['table']}")
            # a table of you and computers starts by itself (js/table.js's autostart)
            page.wait_for_selector(".mine.turn, [data-action=start]:not([disabled])")
            if page.query_selector("[data-action=start]:not([disabled])"):
                page.click("[data-action=start]:not([disabled])")
            page.wait_for_selector(".mine.turn")
            page.wait_for_timeout(300)
            out = OUT / f"lang-{code}-table-{size}.png"
            page.screenshot(path=str(out), full_page=size != "1280")
            small_png(out)
            ctx.close()


NAMES = {"en": "Anna", "fa": "آنا", "az": "Ayla", "zh": "安娜", "es": "Ana"}
"""The player's name in each language's pictures."""


def main() -> None:
    which = sys.argv[1] if len(sys.argv) > 1 else "all"
    OUT.mkdir(parents=True, exist_ok=True)
    base = serve(Path(__import__("tempfile").mkdtemp()) / "shots.sqlite3")
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=shutil.which("chromium"), args=["--no-sandbox"])
        if which in ("all", "people"):
            people(browser, base)
        if which in ("all", "room"):
            room(browser, base)
        if which in ("all", "languages"):
            languages(browser, base)
        browser.close()
    stop()
    for f in sorted([*OUT.glob("web-*.png"), *OUT.glob("lang-*.png")]):
        print(f, f.stat().st_size // 1024, "KiB")


if __name__ == "__main__":
    main()
