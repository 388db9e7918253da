"""Every refusal of the HTTP API in its JSON error shape (:mod:`parlour.server.errors`):
the app's exception handlers, for the service's own errors, a body of the wrong
shape, the framework's refusals, a database that is busy or down, and anything
unexpected (a 500 that changes nothing)."""

from __future__ import annotations

import logging

from fastapi import FastAPI, Request
from fastapi.encoders import jsonable_encoder
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from sqlalchemy.exc import DBAPIError
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.routing import Route

from parlour.server import metrics
from parlour.server.db import unavailable
from parlour.server.errors import ServiceError
from parlour.server.pages import error_words
from parlour.server.webapp import page_not_found

log = logging.getLogger("parlour.server")
HTTP_CODES = {400: "bad_request", 404: "not_found", 405: "method_not_allowed",
              413: "too_large", 429: "rate_limited"}


def install_handlers(app: FastAPI) -> None:
    """Answer every exception a request can end in with the API's error shape."""

    @app.exception_handler(ServiceError)
    async def _service_error(request: Request, exc: ServiceError) -> Response:
        if exc.status == 404 and (shown := page_not_found(request)) is not None:
            return shown  # a browser asked for a page: the page says so in words
        if exc.status in (413, 429, 503):
            metrics.refused(exc.code)
        return JSONResponse({"error": exc.code, "message": error_words(request, exc.code, exc.message)},
                            status_code=exc.status, headers=exc.headers)

    @app.exception_handler(Exception)
    async def _unexpected(_request: Request, exc: Exception) -> JSONResponse:
        log.error("request failed", exc_info=exc)
        return JSONResponse({"error": "server_error", "message": error_words(
            _request, "server_error", "the server could not handle this request; nothing "
            "was changed")}, status_code=500)

    @app.exception_handler(RequestValidationError)
    async def _invalid_body(request: Request, exc: RequestValidationError) -> JSONResponse:
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
        # Pydantic's words are English only: another language gets error.invalid, and
        # the field names stay in "detail".
        return JSONResponse({"error": "invalid", "message": error_words(request, "invalid", message),
                             "detail": errors},
                            status_code=422)

    @app.exception_handler(StarletteHTTPException)
    async def _http_error(_request: Request, exc: StarletteHTTPException) -> Response:
        # Framework refusals (a body that is not JSON, an unknown path) in the API's
        # own error shape; "detail" is kept for FastAPI-style clients. A browser asking
        # for a page that is not there gets the page, which says so in words.
        if exc.status_code == 404 and (shown := page_not_found(_request)) is not None:
            return shown
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
            return JSONResponse({"error": "unavailable", "message": error_words(
                _request, "unavailable", "the database is busy or unreachable; nothing was "
                "changed: please try again")},
                                status_code=503, headers={"Retry-After": "1"})
        return await _unexpected(_request, exc)
