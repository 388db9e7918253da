"""The application factory: HTTP API, WebSocket, the page and its static files."""

from __future__ import annotations

import gc
import logging
import threading
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from fastapi import FastAPI, HTTPException, Request
from fastapi.encoders import jsonable_encoder
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from sqlalchemy.exc import DBAPIError
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.routing import Route

from parlour import __version__
from parlour.games import KITS
from parlour.server import metrics
from parlour.server.accounts import pages as account_pages
from parlour.server.accounts import router as accounts_router
from parlour.server.admin_api import router as admin_router
from parlour.server.api import router
from parlour.server.between import router as between_router
from parlour.server.db import Store, unavailable
from parlour.server.guard import Guard
from parlour.server.logs import AccessLog
from parlour.server.pages import error_words
from parlour.server.pages import page as language_page
from parlour.server.pages import router as pages_router
from parlour.server.passkey_list import router as passkey_list_router
from parlour.server.passkeys import router as passkeys_router
from parlour.server.pools_api import router as pools_router
from parlour.server.push import router as push_router
from parlour.server.ratings_api import router as ratings_router
from parlour.server.readiness import Readiness
from parlour.server.room import router as room_router
from parlour.server.service import ServiceError, TableService
from parlour.server.settings import Settings
from parlour.server.social_api import router as social_router
from parlour.server.webapp import router as webapp_router
from parlour.server.work import warm
from parlour.server.ws import table_socket

log = logging.getLogger("parlour.server")
STATIC = Path(__file__).resolve().parent.parent / "web" / "static"
HTTP_CODES = {400: "bad_request", 404: "not_found", 405: "method_not_allowed",
              413: "too_large", 429: "rate_limited"}


def create_app(settings: Settings | None = None, *, testing: bool | None = None) -> FastAPI:
    """The whole product as one ASGI app. ``testing=True`` honours test-only options."""
    settings = settings or Settings.from_env()
    if testing is not None:
        settings.testing = testing

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

    app = FastAPI(title="parlour", version=__version__, lifespan=lifespan,
                  description="Fanti and Fan Tan tables. The game itself is played over the "
                              "WebSocket at /ws: see docs/protocol.md.")
    app.state.settings = settings
    app.include_router(router)
    app.add_middleware(Guard, settings=settings)
    if settings.access_log:
        app.add_middleware(AccessLog)
    app.include_router(room_router)
    app.include_router(webapp_router)
    app.include_router(pages_router)
    app.include_router(between_router)
    app.include_router(push_router)
    app.include_router(pools_router)
    app.include_router(social_router)
    app.include_router(admin_router)
    app.include_router(accounts_router)
    app.include_router(account_pages)
    app.include_router(passkeys_router)
    app.include_router(passkey_list_router)
    app.include_router(ratings_router)

    @app.exception_handler(ServiceError)
    async def _service_error(request: Request, exc: ServiceError) -> JSONResponse:
        if exc.status in (413, 429, 503):
            metrics.refused(exc.code)
        return JSONResponse({"error": exc.code, "message": error_words(request, exc.code, exc.message)},
                            status_code=exc.status, headers=exc.headers)

    @app.exception_handler(Exception)
    async def _unexpected(_request: Request, exc: Exception) -> JSONResponse:
        log.error("request failed", exc_info=exc)
        return JSONResponse({"error": "server_error", "message": "the server could not "
                             "handle this request; nothing was changed"}, status_code=500)

    @app.exception_handler(RequestValidationError)
    async def _invalid_body(_request: Request, exc: RequestValidationError) -> JSONResponse:
        # A body of the wrong shape, in the API's error shape too; the first problem in
        # words, every problem (FastAPI's list) under "detail".
        # The client's own input is not echoed back: it may be large, or a number JSON
        # cannot carry (1e400 parses as infinity), which made this answer a 500.
        errors = jsonable_encoder([{k: v for k, v in e.items() if k != "input"}
                                   for e in exc.errors()])
        first = errors[0] if errors else {}
        where = ".".join(str(x) for x in first.get("loc", ()) if x != "body")
        message = f"{where}: {first.get('msg', 'invalid')}" if where else first.get(
            "msg", "the request body is not valid")
        return JSONResponse({"error": "invalid", "message": message, "detail": errors},
                            status_code=422)

    @app.exception_handler(StarletteHTTPException)
    async def _http_error(_request: Request, exc: StarletteHTTPException) -> JSONResponse:
        # Framework refusals (a body that is not JSON, an unknown path) in the API's
        # own error shape; "detail" is kept for FastAPI-style clients.
        code = HTTP_CODES.get(exc.status_code, f"http_{exc.status_code}")
        message = str(exc.detail)
        headers = exc.headers
        if exc.status_code == 405:  # every method of the path, not the first route's only
            path = _request.url.path
            methods = sorted({m for r in app.router.routes
                              if isinstance(r, Route) and r.path_regex.match(path)
                              for m in (r.methods or ())})
            headers = {**(headers or {}), "Allow": ", ".join(methods)}
        if exc.status_code == 400 and message == "There was an error parsing the body":
            message = "the request body is not JSON the server can read (malformed, or nested too deeply)"
        return JSONResponse({"error": code, "message": error_words(_request, code, message),
                             "detail": exc.detail},
                            status_code=exc.status_code, headers=headers)

    @app.exception_handler(DBAPIError)
    async def _database_error(_request: Request, exc: DBAPIError) -> JSONResponse:
        if unavailable(exc):
            return JSONResponse({"error": "unavailable", "message": "the database is busy or "
                                 "unreachable; nothing was changed: please try again"},
                                status_code=503, headers={"Retry-After": "1"})
        return await _unexpected(_request, exc)

    app.add_api_websocket_route("/ws", table_socket)

    @app.get("/static/js/games/{name}.js", include_in_schema=False)
    def game_module(name: str) -> FileResponse:
        """A game's page module, kept in the game's own package (``web.js``)."""
        kit = KITS.get(name)
        if kit is None or kit.web_module is None:
            raise HTTPException(404, f"no page module for game {name!r}")
        return FileResponse(kit.web_module, media_type="text/javascript")

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

    return app
