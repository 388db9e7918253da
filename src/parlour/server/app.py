"""The application factory: HTTP API, WebSocket, the page and its static files."""

from __future__ import annotations

import gc
import logging
import threading
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from pathlib import Path

from fastapi import FastAPI, HTTPException, Request
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles

from parlour import __version__
from parlour.games import KITS
from parlour.server import metrics
from parlour.server.accounts import pages as account_pages
from parlour.server.accounts import router as accounts_router
from parlour.server.admin_api import router as admin_router
from parlour.server.api import router
from parlour.server.between import router as between_router
from parlour.server.db import Store
from parlour.server.guard import Guard
from parlour.server.handlers import install_handlers
from parlour.server.logs import AccessLog
from parlour.server.pages import page as language_page
from parlour.server.pages import router as pages_router
from parlour.server.passkey_list import router as passkey_list_router
from parlour.server.passkeys import router as passkeys_router
from parlour.server.pools_api import router as pools_router
from parlour.server.push import router as push_router
from parlour.server.ratings_api import router as ratings_router
from parlour.server.readiness import Readiness
from parlour.server.room import router as room_router
from parlour.server.service import TableService
from parlour.server.settings import Settings
from parlour.server.social_api import router as social_router
from parlour.server.webapp import router as webapp_router
from parlour.server.work import warm
from parlour.server.ws import table_socket

log = logging.getLogger("parlour.server")
STATIC = Path(__file__).resolve().parent.parent / "web" / "static"


def create_app(settings: Settings | None = None, *, testing: bool | None = None) -> FastAPI:
    """The whole product as one ASGI app. ``testing=True`` honours test-only options."""
    settings = settings or Settings.from_env()
    if testing is not None:
        settings.testing = testing
    app = FastAPI(title="parlour", version=__version__, lifespan=_lifespan(settings),
                  description="Fanti and Fan Tan tables. The game itself is played over the "
                              "WebSocket at /ws: see docs/protocol.md.")
    app.state.settings = settings
    _routes(app, settings)
    install_handlers(app)
    app.add_api_websocket_route("/ws", table_socket)
    _pages(app)
    _probes(app, settings)
    return app


def _lifespan(settings: Settings) -> Callable[[FastAPI], AbstractAsyncContextManager[None]]:
    """Open the database and the table service at start; close them at the end."""

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        store = Store(settings.db_url, settings.db_timeout, settings.sqlite_synchronous,
                      start_wait=settings.db_start_wait)
        store.start_checkpoints()
        service = TableService(settings, store)
        app.state.service = service
        if settings.bot_workers <= 0:
            # Bots think in this process: load the compiled search kernels in the
            # background, so the first `hard` move does not pay for it.
            threading.Thread(target=warm, name="warm-kernels", daemon=True).start()
        await service.startup()
        # Everything loaded so far (modules, the engine's tables, the bots) lives as long
        # as the process: keep it out of the garbage collector's full passes, whose
        # pauses would otherwise grow with the heap and show as latency spikes.
        gc.collect()
        gc.freeze()
        _, older, oldest = gc.get_threshold()
        gc.set_threshold(max(1, settings.gc_young), older, oldest)
        try:
            yield
        finally:
            await service.shutdown()

    return lifespan


def _routes(app: FastAPI, settings: Settings) -> None:
    """The HTTP API's routers and the middleware in front of them."""
    app.include_router(router)
    app.add_middleware(Guard, settings=settings)
    if settings.access_log:
        app.add_middleware(AccessLog)
    for r in (room_router, webapp_router, pages_router, between_router, push_router,
              pools_router, social_router, admin_router, accounts_router, account_pages,
              passkeys_router, passkey_list_router, ratings_router):
        app.include_router(r)


def _pages(app: FastAPI) -> None:
    """The page: each game's page module, the static files, and the page routes (in the
    visitor's language)."""

    def script(path: Path | None, what: str, name: str) -> FileResponse:
        if path is None:
            raise HTTPException(404, f"no {what} for game {name!r}")
        return FileResponse(path, media_type="text/javascript")

    @app.get("/static/js/games/{name}.js", include_in_schema=False)
    def game_module(name: str) -> FileResponse:
        """A game's page module, kept in the game's own package (``web.js``)."""
        kit = KITS.get(name)
        return script(kit and kit.web_module, "page module", name)

    @app.get("/static/js/games/{name}/words.js", include_in_schema=False)
    def game_words(name: str) -> FileResponse:
        """A game's words for the front page (``words.js`` beside ``web.js``)."""
        kit = KITS.get(name)
        return script(kit and kit.web_words, "words module", name)

    app.mount("/static", StaticFiles(directory=STATIC), name="static")

    @app.get("/", include_in_schema=False)
    def home(request: Request) -> Response:
        return language_page(request)

    @app.get("/t/{table_id}", include_in_schema=False)
    def table_page(request: Request, table_id: str) -> Response:
        return language_page(request)

    @app.get("/verify", include_in_schema=False)
    def verify_page(request: Request) -> Response:
        return language_page(request)


def _probes(app: FastAPI, settings: Settings) -> None:
    """Health, readiness and (when on) the metrics of this process."""

    @app.get("/healthz", include_in_schema=False)
    def health(request: Request) -> dict[str, str]:
        """Answers while the server serves; ``bots``: whether the bot workers have
        loaded the engines (``starting`` for a few seconds after a start)."""
        service = getattr(request.app.state, "service", None)
        ready = service is not None and service.pool.ready
        return {"status": "ok", "bots": "ready" if ready else "starting"}

    readiness = Readiness(settings)

    @app.get("/readyz", include_in_schema=False)
    async def ready(request: Request) -> JSONResponse:
        """200 when the database answers and the bot workers are ready; else 503 in
        the error shape, with the reason (a load balancer's readiness check)."""
        problem = await readiness.check(getattr(request.app.state, "service", None))
        if problem is None:
            return JSONResponse({"status": "ready", "database": "ok", "bots": "ready"})
        return JSONResponse({"error": "not_ready", "message": problem}, status_code=503,
                            headers={"Retry-After": "1"})

    if settings.metrics:
        metrics.watch_gc()

        @app.get("/metrics", include_in_schema=False)
        def metrics_page(request: Request) -> Response:
            """Prometheus text exposition of this process (no card, name or secret)."""
            body, kind = metrics.scrape(getattr(request.app.state, "service", None))
            return Response(body, media_type=kind)
