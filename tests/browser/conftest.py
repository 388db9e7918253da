"""Browser fixtures: the app served by uvicorn in a thread, and Chromium via Playwright.

The browser is Debian's ``chromium`` (no downloaded browser builds); tests skip with a
clear reason when it is missing.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser_kit import ARGS, serve_in_thread, settings_for

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"


@pytest.fixture(scope="session")
def live_url(tmp_path_factory) -> Iterator[str]:
    """A test-mode server on a free port (bots move after 50 ms)."""
    yield from serve_in_thread(settings_for(tmp_path_factory.mktemp("browser") / "t.sqlite3"))


@pytest.fixture(scope="module")
def rated_url(tmp_path_factory) -> Iterator[str]:
    """A server of the module's own whose leaderboards list players after one rated
    game (its players are the module's only)."""
    yield from serve_in_thread(settings_for(tmp_path_factory.mktemp("rated") / "t.sqlite3",
                                            leaderboard_min_games=1))


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    exe = shutil.which("chromium")
    if exe is None:
        pytest.skip("chromium is not installed (apt-get install chromium; scripts/setup.sh does)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=exe, args=ARGS)
        yield b
        b.close()


@pytest.fixture
def artifacts() -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS


@pytest.fixture
def new_page(browser) -> Iterator[Any]:
    """``new_page(**context_options)``: a page in a fresh context (one per person)."""
    contexts = []

    def make(**kw: Any) -> Any:
        kw.setdefault("viewport", {"width": 1280, "height": 900})
        ctx = browser.new_context(**kw)
        contexts.append(ctx)
        page = ctx.new_page()
        page.errors = []
        page.on("pageerror", lambda e: page.errors.append(str(e)))
        return page

    yield make
    for ctx in contexts:
        ctx.close()
