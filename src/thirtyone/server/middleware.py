"""What every HTTP answer passes through: a body over the size limit is refused (413), an address
over its rate of requests is answered 429 (the pages' own files are never counted), and every
answer carries :data:`SECURITY_HEADERS` (a Content-Security-Policy that allows no inline script
and no framing, ``nosniff``, no referrer)."""

from __future__ import annotations

from fastapi.responses import JSONResponse
from starlette.types import ASGIApp
from starlette.types import Message
from starlette.types import Receive
from starlette.types import Scope
from starlette.types import Send

from thirtyone.server.limits import Buckets
from thirtyone.server.limits import address_key

__all__ = ["CONTENT_SECURITY_POLICY", "SECURITY_HEADERS", "UNCOUNTED", "BodyLimit", "SecurityHeaders", "RequestLimit"]

CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; font-src 'self'; "
    "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)
"""The pages' Content-Security-Policy: scripts, styles and everything else from this server only
(no inline script or style, no ``eval``), images also as ``data:`` URLs (the icon), connections
(the WebSocket) back to this server, and no page of another site may frame these."""
SECURITY_HEADERS = {
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
    "Cross-Origin-Opener-Policy": "same-origin",
    "Permissions-Policy": "camera=(), microphone=(), geolocation=(), payment=()",
}
"""The headers every HTTP answer carries."""


class BodyLimit:
    """Refuses HTTP request bodies over ``limit`` bytes with 413 (``too_large``)."""

    def __init__(self, app: ASGIApp, limit: int) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        too_large = JSONResponse(
            {"error": f"request body too large: the limit is {self.limit} bytes", "code": "too_large"},
            status_code=413,
        )
        length = dict(scope.get("headers") or []).get(b"content-length")
        if length is not None:
            if not length.isdigit() or int(length) > self.limit:
                await too_large(scope, receive, send)
                return
            await self.app(scope, receive, send)
            return
        # no length given (chunked): read the body here, at most the limit, then hand it on whole
        chunks: list[bytes] = []
        seen = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":
                return  # the client went away
            chunks.append(message.get("body", b""))
            seen += len(chunks[-1])
            if seen > self.limit:
                await too_large(scope, receive, send)
                return
            if not message.get("more_body", False):
                break
        body = b"".join(chunks)
        sent = False

        async def replay() -> Message:
            nonlocal sent
            if sent:
                return await receive()
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}

        await self.app(scope, replay, send)


class SecurityHeaders:
    """Adds :data:`SECURITY_HEADERS` to every HTTP answer (that does not set them itself)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app
        self.headers = [
            (name.lower().encode("latin-1"), value.encode("latin-1")) for name, value in SECURITY_HEADERS.items()
        ]

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                present = {name.lower() for name, _ in message.get("headers", [])}
                extra = [(name, value) for name, value in self.headers if name not in present]
                message = {**message, "headers": [*message.get("headers", []), *extra]}
            await send(message)

        await self.app(scope, receive, with_headers)


UNCOUNTED = ("/static/", "/i18n/")
"""Paths the request budget never counts: the pages' files (CSS, ES modules) and their catalogs,
the same for everyone and cheap to serve. A table page loads about 35 of them at once, and a
family on one Wi-Fi opens it from one address: counted, the third page's modules were refused and
it stayed blank."""


class RequestLimit:
    """Answers 429 (``rate_limited``) to a client address over ``rate`` HTTP requests a second (a
    burst of twice that, at least 10); the pages' files (:data:`UNCOUNTED`) are never counted."""

    def __init__(self, app: ASGIApp, rate: float) -> None:
        self.app = app
        self.rate = rate
        self.buckets = Buckets(rate, max(10, int(2 * rate)))

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and not str(scope.get("path", "")).startswith(UNCOUNTED):
            client = scope.get("client")
            if not self.buckets.allow(address_key(client[0] if client else None)):
                answer = JSONResponse(
                    {
                        "error": f"too many requests from your address: at most {self.rate:g} a second; "
                        "wait a moment and try again",
                        "code": "rate_limited",
                    },
                    status_code=429,
                    headers={"Retry-After": "1"},
                )
                await answer(scope, receive, send)
                return
        await self.app(scope, receive, send)
