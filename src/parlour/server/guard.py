"""What every request passes before the app: who is asking, for which host, how much.

One ASGI middleware for HTTP and WebSocket requests:

* the client's address (``scope["parlour.client"]``): the peer's, or -- only on
  connections from a ``trusted_proxies`` address -- the last address in
  ``X-Forwarded-For`` that is not itself a trusted proxy;
* the ``Host`` header must name an allowed host (DNS rebinding): 400, or a refused
  WebSocket handshake;
* a WebSocket over a socket cap (:class:`~parlour.server.limits.Sockets`) is refused
  here, before routing, so a flood of them costs little (the endpoint checks again
  when it counts the socket);
* request bodies are counted while they are read: one over ``max_body_bytes`` gets 413
  without being read further (at once when ``Content-Length`` says so);
* a state-changing request (POST, PUT, PATCH, DELETE) that carries the session cookie,
  or signs in or up, must come from this server's own page: another ``Origin`` (or,
  without one, ``Sec-Fetch-Site: cross-site``) gets 403 ``forbidden_origin`` (CSRF;
  the cookie's ``SameSite=Lax`` already keeps it off other sites' requests, this also
  covers sibling hosts of the same site);
* every response gets the security headers (no framing, no sniffing, a CSP).
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Awaitable, Callable, MutableMapping
from http.cookies import CookieError, SimpleCookie
from typing import Any
from urllib.parse import urlsplit

from starlette.exceptions import HTTPException

from parlour.i18n import catalog_json, negotiate
from parlour.server import metrics
from parlour.server.limits import origin_allowed
from parlour.server.settings import Settings

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

PAGE_CSP = ("default-src 'self'; connect-src 'self'; img-src 'self' data:; "
            "style-src 'self'; script-src 'self'; frame-ancestors 'none'; "
            "base-uri 'none'; form-action 'self'")
API_CSP = "default-src 'none'; frame-ancestors 'none'"
COMMON_HEADERS = [(b"x-content-type-options", b"nosniff"), (b"x-frame-options", b"DENY"),
                  (b"referrer-policy", b"no-referrer")]
LOOPBACK_HOSTS = ("localhost", "127.0.0.1", "::1")
UNSAFE = frozenset({"POST", "PUT", "PATCH", "DELETE"})
COOKIES = (b"parlour_id=", b"__Host-parlour_id=")
ACCOUNT_PATHS = ("/api/session", "/api/accounts", "/api/passkeys")
"""Requests that start a session: checked for their origin even without a cookie (a
foreign page must not sign a visitor in to its own account either)."""


def client_address(scope: Scope, settings: Settings) -> str:
    """The client's address as the limits see it (see the module's docstring)."""
    cached = scope.get("parlour.client")
    if cached is not None:
        return cached
    peer = (scope.get("client") or ("unknown", 0))[0]
    addr = peer
    if peer in settings.trusted_proxies:
        forwarded = [v.decode("latin-1") for k, v in scope.get("headers", [])
                     if k == b"x-forwarded-for"]
        hops = [h.strip() for line in forwarded for h in line.split(",") if h.strip()]
        for hop in reversed(hops):
            addr = hop
            if hop not in settings.trusted_proxies:
                break
    scope["parlour.client"] = addr
    return addr


def allowed_hosts(settings: Settings) -> set[str]:
    if settings.allowed_hosts:
        return {h.lower() for h in settings.allowed_hosts}
    if settings.public_url:
        host = urlsplit(settings.public_url).hostname
        if host:
            return {host.lower()}
    return set(LOOPBACK_HOSTS)


def host_name(value: str) -> str:
    """``Host`` without its port (``[::1]:8000`` -> ``::1``)."""
    value = value.strip().lower()
    if value.startswith("["):
        return value[1:].split("]", 1)[0]
    return value.rsplit(":", 1)[0] if value.count(":") == 1 else value


def public_base(settings: Settings, scope: Scope) -> str:
    """The base of every link: the public URL, or this request's own address (whose
    host has passed the allowed-hosts check)."""
    if settings.public_url:
        return settings.public_url.rstrip("/")
    headers = dict(scope.get("headers", []))
    host = headers.get(b"host", b"localhost").decode("latin-1")
    scheme = {"https": "https", "wss": "https"}.get(scope.get("scheme", "http"), "http")
    return f"{scheme}://{host}"


def _error_body(code: str, message: str) -> bytes:
    return json.dumps({"error": code, "message": message}).encode()


def _worded(headers: dict[bytes, bytes], code: str, message: str) -> str:
    """A refusal made before routing in the request's language (the cookie
    ``parlour_lang``, else Accept-Language): the catalog's ``error.{code}``; in English
    the guard's own, more precise words."""
    cookies = SimpleCookie()
    with contextlib.suppress(CookieError):
        cookies.load(headers.get(b"cookie", b"").decode("latin-1"))
    chosen = cookies["parlour_lang"].value if "parlour_lang" in cookies else None
    lang = negotiate(headers.get(b"accept-language", b"").decode("latin-1") or None, chosen)
    if lang == "en":
        return message
    return catalog_json(lang, "web").get(f"error.{code}", message)


class Guard:
    """The middleware (see the module's docstring)."""

    def __init__(self, app: ASGIApp, settings: Settings) -> None:
        self.app = app
        self.settings = settings
        self.hosts = allowed_hosts(settings)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        kind = scope["type"]
        if kind not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        client_address(scope, self.settings)
        headers = dict(scope.get("headers", []))
        if "*" not in self.hosts:
            host = host_name(headers.get(b"host", b"").decode("latin-1"))
            if host not in self.hosts:
                if kind == "websocket":
                    await send({"type": "websocket.close", "code": 1008,
                                "reason": "host not allowed"})
                    return
                await self._reply(send, 400, "bad_host", _worded(
                    headers, "bad_host", "this server does not answer for that host name"))
                return
        if kind == "http" and scope.get("method") in UNSAFE and self._cross_site(
                headers, scope.get("path", "")):
            await self._reply(send, 403, "forbidden_origin", _worded(
                headers, "forbidden_origin", "this request came from another site's page, "
                "so it was refused: nothing was changed"))
            return
        if kind == "websocket":
            service = getattr(getattr(scope.get("app"), "state", None), "service", None)
            refused = service.sockets.refuse(scope["parlour.client"]) if service else None
            if refused is not None:  # over a socket cap: refused before any routing
                await send({"type": "websocket.close", "code": 1008, "reason": refused})
                return
            await self.app(scope, receive, send)
            return
        limit = self.settings.max_body_bytes
        too_large = f"the request body is larger than the limit of {limit} bytes"
        length = headers.get(b"content-length")
        if length is not None:
            try:
                declared = int(length)
            except ValueError:
                declared = -1
            if declared > limit:
                await self._reply(send, 413, "too_large", _worded(headers, "too_large", too_large))
                return
        page = scope["path"] == "/" or not scope["path"].startswith("/api")
        started = False
        seen = 0

        async def counted() -> Message:
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > limit:
                    raise BodyTooLarge(too_large)
            return message

        async def with_headers(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
                have = {k.lower() for k, _ in message.get("headers", [])}
                extra = [(k, v) for k, v in COMMON_HEADERS if k not in have]
                if b"content-security-policy" not in have:
                    extra.append((b"content-security-policy",
                                  (PAGE_CSP if page else API_CSP).encode()))
                message["headers"] = list(message.get("headers", [])) + extra
            await send(message)

        try:
            await self.app(scope, counted, with_headers)
        except BodyTooLarge:
            if not started:
                await self._reply(send, 413, "too_large", too_large)

    def _cross_site(self, headers: dict[bytes, bytes], path: str) -> bool:
        """A request with the session cookie (or one that signs in) from another
        site's page."""
        cookie = headers.get(b"cookie", b"")
        if not (any(c in cookie for c in COOKIES) or path.startswith(ACCOUNT_PATHS)):
            return False
        origin = headers.get(b"origin")
        if origin is None:
            return headers.get(b"sec-fetch-site") == b"cross-site"
        host = headers.get(b"host")
        return not origin_allowed(origin.decode("latin-1"),
                                  host.decode("latin-1") if host else None,
                                  self.settings.allowed_origins, self.settings.public_url)

    async def _reply(self, send: Send, status: int, code: str, message: str) -> None:
        metrics.refused(code)
        body = _error_body(code, message)
        headers = [(b"content-type", b"application/json"),
                   (b"content-length", str(len(body)).encode()),
                   (b"connection", b"close"), *COMMON_HEADERS,
                   (b"content-security-policy", API_CSP.encode())]
        await send({"type": "http.response.start", "status": status, "headers": headers})
        await send({"type": "http.response.body", "body": body})


class BodyTooLarge(HTTPException):
    """A request body grew past the limit while it was read (an HTTPException, so the
    framework answers it in the API's error shape instead of wrapping it)."""

    def __init__(self, message: str) -> None:
        super().__init__(413, message)
