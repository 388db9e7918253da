"""Helpers that drive the page as a person would: through its buttons and links."""

from __future__ import annotations

import secrets
import socket
import threading
import time
from collections.abc import Iterator
from typing import Any

import httpx
from playwright.sync_api import TimeoutError as PlaywrightTimeout

ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]
"""Chromium's command line in every browser test."""
TURN = ".mine.turn"
OVER = ".game-over"
PW = "a long enough password"
"""The password of every account a browser test makes."""


def settings_for(db: Any, **over: Any) -> Any:
    """A test-mode server's settings (bots move after 50 ms) with every per-address
    limit opened wide: every browser of every test is one address here (the limits
    have their own tests in tests/server). ``over`` changes any of them."""
    from parlour.server import Settings

    wide: dict[str, Any] = dict(
        db_url=f"sqlite:///{db}", bot_delay=0.05, round_pause=0.3, testing=True,
        rate_per_second=200, rate_burst=200, create_per_minute=6000.0, create_burst=1000,
        max_seats_per_address=8, public_seats_per_address=8, reclaim_after=0.0,
        max_tables_per_class=100_000, signup_per_minute=6000.0, signup_burst=1000,
        signin_per_minute=6000.0, signin_burst=1000, me_per_minute=6000.0, me_burst=1000,
        guests_per_minute=6000.0, guests_burst=1000)
    return Settings(**(wide | over))


def fresh_name(prefix: str) -> str:
    """A name no other test of the session took (the servers live a whole session)."""
    return f"{prefix}{secrets.token_hex(3)}"


def sign_up(page: Any, base: str, name: str, password: str = PW) -> None:
    """Make an account on /account with the page's form; it signs this browser in."""
    page.goto(base + "/account")
    page.fill("#account-name", name)
    page.fill("#account-password", password)
    page.click("[data-action=sign-up]")
    page.wait_for_selector(f"h2:has-text('Signed in as {name}')")


def sign_in(page: Any, base: str, name: str, password: str = PW) -> None:
    """Sign in on /account with the page's form."""
    page.goto(base + "/account")
    page.fill("#account-name", name)
    page.fill("#account-password", password)
    page.click("[data-action=sign-in]")
    page.wait_for_selector(f"h2:has-text('Signed in as {name}')")


def me(page: Any) -> dict[str, Any]:
    """``GET /api/me`` as this browser (its cookies)."""
    return page.evaluate("fetch('/api/me').then((r) => r.json())")


def open_custom(page: Any, tries: int = 3) -> None:
    """Open "Custom table" on the front page. The panels above it (open tables, your
    games, the room's numbers) fill in as their answers come and move it down: a click
    can land where the summary was a moment before, so it is clicked until it is open."""
    page.wait_for_selector("details.custom [data-action=custom]")
    for _ in range(tries):
        if page.eval_on_selector("details.custom", "d => d.open"):
            return
        page.click("[data-action=custom]")
        try:
            page.wait_for_selector("details.custom[open]", timeout=3_000)
            return
        except PlaywrightTimeout:
            continue
    raise AssertionError(f"Custom table did not open after {tries} clicks")


def create_with_form(page: Any, base: str, game: str, name: str, rounds: int,
                     seats: list[str] | None = None) -> str:
    """Fill the lobby form under "Custom table" (rules included) and create; returns
    the table id. ``seats`` are the other seats' values ("person", "bot:easy", ...)."""
    page.goto(base + "/")
    open_custom(page)
    page.click(f"label[for=game-{game}]")
    page.fill("#name", name)
    if seats:
        page.select_option("#players", str(len(seats) + 1))
        for i, value in enumerate(seats, 1):
            page.select_option(f"#seat-{i}", value)
    page.fill("#rule-rounds", str(rounds))
    page.click("[data-action=create]")
    page.wait_for_url("**/t/*")
    return page.url.rsplit("/", 1)[1]


def create_by_api(page: Any, base: str, **body: Any) -> str:
    """Create a table over HTTP (for test-only options) and hand its seat to the page."""
    j = httpx.post(base + "/api/tables", json=body, timeout=30).json()
    page.goto(base + "/")
    page.evaluate("([t, v]) => localStorage.setItem('parlour.seat.' + t, JSON.stringify(v))",
                  [j["table"], {"token": j["token"], "seat": j["seat"]}])
    page.goto(f"{base}/t/{j['table']}")
    return j["table"]


def start(page: Any) -> None:
    """The host starts the game; a table of one person and computers starts itself."""
    page.wait_for_selector(".hand .card, [data-starting], [data-action=start]:not([disabled])")
    if page.query_selector("[data-action=start]:not([disabled])"):
        page.click("[data-action=start]:not([disabled])")
    page.wait_for_selector(".hand .card")


def take_turn(page: Any) -> bool:
    """If it is this page's turn, play like a person: a lit card (confirming a Fanti
    collection), or Pass. Returns whether it acted."""
    if not page.query_selector(TURN):
        return False
    card = page.query_selector(".hand [data-legal=true]")
    if card is None:
        button = page.query_selector("[data-action=pass]")
        if button is None:
            return False
        button.click()
        return True
    card.click()
    confirm = page.query_selector("[data-action=confirm]")
    if confirm is not None:
        if confirm.is_disabled():
            page.click("[data-take]")
        page.click("[data-action=confirm]")
    return True


def play_until_over(pages: list[Any], limit: float = 90, after_turn: Any = None) -> None:
    """Every page plays its turns until each shows the game-over panel."""
    deadline = time.time() + limit
    turns = 0
    while time.time() < deadline:
        if all(p.query_selector(OVER) for p in pages):
            return
        acted = False
        for p in pages:
            try:
                if take_turn(p):
                    acted = True
                    turns += 1
                    p.wait_for_timeout(60)
                    if after_turn:
                        after_turn(p, turns)
            except Exception:  # the page re-rendered under the click: look again
                p.wait_for_timeout(50)
        if not acted:
            pages[0].wait_for_timeout(60)
    raise AssertionError("the game did not end in time")


def serve_in_thread(settings: Any) -> Iterator[str]:
    """Serve the app with ``settings`` by uvicorn in a thread on a free port; yields its
    base URL, stops the server afterwards (for fixtures)."""
    import uvicorn

    from parlour.server import create_app

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(create_app(settings), host="127.0.0.1", port=port,
                                           log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.time() + 20
    while not server.started and time.time() < deadline:
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}"
    server.should_exit = True
    thread.join(10)
