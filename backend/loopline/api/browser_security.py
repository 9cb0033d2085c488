"""What a browser needs to be told: security headers on every response, and no cross-site writes.

- Headers: a Content-Security-Policy the editor runs under (its own scripts only, no framing),
  `X-Content-Type-Options`, `X-Frame-Options`, `Referrer-Policy`, and HSTS outside local use.
  The API reference pages (`/docs`, `/redoc`) load their viewer from a CDN and get a policy
  that allows it.
- Cross-site writes: SameSite=Lax keeps the session cookie off cross-site POSTs, but not off a
  *same-site* page (another port, a sibling subdomain). A state-changing request whose `Origin`
  (or, when a browser sends none, `Sec-Fetch-Site`) says another site made it is refused 403
  before it reaches a handler. Programs (no `Origin`, no `Sec-Fetch-Site`) are not browsers
  and cannot be tricked into sending a cookie, so they pass.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from starlette.datastructures import Headers
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from loopline.api.errors import error_body

SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
INTERNAL_ERROR = "the server failed to answer this request (its log has the cause)"

EDITOR_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; "
    "font-src 'self' data:; connect-src 'self'; worker-src 'self' blob:; object-src 'none'; base-uri 'self'; "
    "form-action 'self'; frame-ancestors 'none'"
)
# FastAPI's /docs and /redoc pages load Swagger UI / ReDoc from jsDelivr and run an inline script.
DOCS_POLICY = (
    "default-src 'self'; script-src 'self' 'unsafe-inline' https://cdn.jsdelivr.net; "
    "style-src 'self' 'unsafe-inline' https://cdn.jsdelivr.net https://fonts.googleapis.com; "
    "font-src 'self' https://fonts.gstatic.com; img-src 'self' data: https://fastapi.tiangolo.com; "
    "worker-src 'self' blob:; connect-src 'self'; frame-ancestors 'none'"
)
DOCS_PATHS = frozenset({"/docs", "/redoc", "/docs/oauth2-redirect"})


def security_headers(path: str, *, hsts: bool) -> list[tuple[bytes, bytes]]:
    headers = [
        (b"content-security-policy", (DOCS_POLICY if path in DOCS_PATHS else EDITOR_POLICY).encode()),
        (b"x-content-type-options", b"nosniff"),
        (b"x-frame-options", b"DENY"),
        (b"referrer-policy", b"same-origin"),
    ]
    if hsts:
        headers.append((b"strict-transport-security", b"max-age=31536000; includeSubDomains"))
    return headers


DEFAULT_PORTS = {"http": 80, "https": 443}


def origin_of(url: str) -> tuple[str, str, int | None] | None:
    """(scheme, host, port) of an origin or base URL, the port made explicit; None if it has none."""
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:
        return None
    scheme = parts.scheme.lower()
    if not scheme or not parts.hostname:
        return None
    return scheme, parts.hostname.lower(), port if port is not None else DEFAULT_PORTS.get(scheme)


def cross_site(scope: Scope) -> str | None:
    """Why a state-changing browser request comes from another site, or None."""
    headers = Headers(scope=scope)
    origin = headers.get("origin")
    if origin is not None:
        # Scheme, host and port all count: an http page may not write to the https site.
        ours = origin_of(f"{scope.get('scheme', 'http')}://{headers.get('host', '')}")
        theirs = origin_of(origin)
        if theirs is None or theirs != ours:
            return f"a page of {origin[:100]} may not change data here"
        return None
    fetch_site = headers.get("sec-fetch-site")
    if fetch_site is not None and fetch_site not in ("same-origin", "none"):
        return f"a {fetch_site} page may not change data here"
    return None


def with_security_headers(send: Send, path: str, *, hsts: bool) -> Send:
    """`send` that adds the security headers to the response's start."""
    extra = security_headers(path, hsts=hsts)

    async def send_with_headers(message: Message) -> None:
        if message["type"] == "http.response.start":
            message["headers"] = [*message.get("headers", []), *extra]
        await send(message)

    return send_with_headers


class BrowserSecurity:
    """Pure ASGI middleware: headers on every response; cross-site writes refused."""

    def __init__(self, app: ASGIApp, *, hsts: bool) -> None:
        self.app = app
        self.hsts = hsts

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        send_with_headers = with_security_headers(send, scope["path"], hsts=self.hsts)
        if scope["method"] not in SAFE_METHODS and scope["path"].startswith("/api/"):
            reason = cross_site(scope)
            if reason:
                refused = JSONResponse(error_body("Origin", reason), status_code=403)
                await refused(scope, receive, send_with_headers)
                return
        started = False

        async def send_tracked(message: Message) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send_with_headers(message)

        try:
            await self.app(scope, receive, send_tracked)
        except Exception:
            # Whatever escapes every handler is answered here, so that it too carries the headers
            # (Starlette's own 500 is sent outside this middleware); re-raised for the server's log.
            if not started:
                failed = JSONResponse(error_body("server", INTERNAL_ERROR), status_code=500)
                await failed(scope, receive, send_with_headers)
            raise
