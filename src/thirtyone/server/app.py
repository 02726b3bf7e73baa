"""The FastAPI application: :func:`create_app` and its HTTP and WebSocket endpoints.

Every endpoint and message is described in ``docs/server-protocol.md``. In short:

=========================================  =====================================================
``GET  /api/health``                       ``{"ok": true, "version": …}``
``GET  /api/presets``                      presets, every rule option, bot levels, limits
``/api/tables``, ``/api/tables/{code}/…``  the tables: lobby, create, join, close, bots, rematch, deals
``GET  /api/tables/{code}/record``         the game record (TOML) once the game is over
``GET  /``, ``/t/{code}``, ``/r/{code}``   the browser pages: lobby, table, replay (``pages``)
``WS   /ws/tables/{code}``                 live play: hello with a seat token (or none to watch)
=========================================  =====================================================

One :class:`~fastapi.APIRouter` a resource, each in its own module: the server itself
(:mod:`~thirtyone.server.routes_server`: health, presets), the tables
(:mod:`~thirtyone.server.routes_tables`), their records and replays
(:mod:`~thirtyone.server.routes_records`), the pages (:mod:`~thirtyone.server.pages`) and the
WebSocket (:mod:`~thirtyone.server.routes_socket`); what every answer passes through is
:mod:`~thirtyone.server.middleware`'s.

Errors are ``{"error": MESSAGE, "code": CODE}`` with an HTTP status (422 bad input, 404 no such
table, 409 full/closed/not over, 403 bad token, 413 too large, 429 over a limit, 503 database
unavailable).

Every HTTP answer carries the security headers of :data:`SECURITY_HEADERS` (a Content-Security-Policy
that allows no inline script and no framing, ``nosniff``, no referrer); each client address has
``requests_per_second`` HTTP requests (a burst of twice that), and the WebSocket connections are
counted and capped (:class:`~thirtyone.server.limits.Admission`).
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from typing import Any

from fastapi import FastAPI
from fastapi import Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from fastapi.responses import Response
from pydantic import BaseModel
from starlette.exceptions import HTTPException

from thirtyone import __version__
from thirtyone.i18n import messages as language_messages
from thirtyone.i18n import negotiate
from thirtyone.server import pages
from thirtyone.server import routes_records
from thirtyone.server import routes_server
from thirtyone.server import routes_socket
from thirtyone.server import routes_tables
from thirtyone.server.config import DEFAULT_BOT_DELAY
from thirtyone.server.config import DEFAULT_DATABASE_URL
from thirtyone.server.config import ServerSettings
from thirtyone.server.db_open import open_database
from thirtyone.server.db_store import Store
from thirtyone.server.errors import InputError
from thirtyone.server.errors import NotFoundError
from thirtyone.server.errors import ServerError
from thirtyone.server.middleware import CONTENT_SECURITY_POLICY
from thirtyone.server.middleware import SECURITY_HEADERS
from thirtyone.server.middleware import BodyLimit
from thirtyone.server.middleware import RequestLimit
from thirtyone.server.middleware import SecurityHeaders
from thirtyone.server.routes_socket import LIMIT_CLOSE
from thirtyone.server.routes_socket import Sockets
from thirtyone.server.service import TableService

__all__ = ["create_app", "SECURITY_HEADERS", "CONTENT_SECURITY_POLICY", "LIMIT_CLOSE"]

_MALFORMED = "malformed request: the body is not JSON"
_TOO_DEEP = (
    "malformed request: the body's JSON is nested too deeply for the server to read; send one JSON object a few "
    "levels deep"
)


class _ErrorBody(BaseModel):
    error: str
    code: str


_ERRORS: dict[int | str, dict[str, Any]] = {
    status: {"content": {"application/json": {"schema": _ErrorBody.model_json_schema()}}, "description": description}
    for status, description in (
        (403, "a bad or missing token"),
        (404, "no such table"),
        (409, "the table is full, closed or not over"),
        (413, "the body is too large"),
        (422, "bad input"),
        (429, "over a limit: too many requests, tables, connections or hints"),
        (503, "the database is unavailable"),
    )
}
"""The error answers every endpoint may give, for the OpenAPI spec (JSON, whatever the endpoint's own type)."""


def create_app(
    database_url: str = DEFAULT_DATABASE_URL,
    *,
    bot_delay: float = DEFAULT_BOT_DELAY,
    turn_timer: float | None = None,
    settings: ServerSettings | None = None,
) -> FastAPI:
    """The server's application: opens the database at ``database_url`` (SQLite file by default,
    or PostgreSQL), migrates its schema (Alembic), and serves tables. ``bot_delay`` is the pause
    before each bot turn in seconds (0: at once), ``turn_timer`` the seconds a person has for each
    action before a legal default is played for them (``None``: off). ``settings`` gives every
    setting at once (and then the others are ignored). Tables being played resume when the
    application starts (its lifespan), and stop, state kept, when it stops.

    Raises:
        InputError: for a setting out of range.
        DatabaseError: when the database cannot be opened or migrated.
    """
    if settings is None:
        settings = ServerSettings(database_url=database_url, bot_delay=bot_delay, turn_timer=turn_timer)
    engine = open_database(settings.database_url)
    service = TableService(Store(engine), settings)

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        await service.startup()
        try:
            yield
        finally:
            await service.shutdown()
            engine.dispose()

    app = FastAPI(
        title="thirtyone",
        version=__version__,
        description="Thirty-One (Scat, Blitz, Schwimmen) tables: docs/server-protocol.md",
        lifespan=lifespan,
        responses=_ERRORS,
        docs_url=None,  # FastAPI's viewers load their scripts from a CDN: blank pages offline
        redoc_url=None,
    )
    sockets = Sockets.made(settings)
    app.state.service = service
    app.state.settings = settings
    app.state.engine = engine
    app.state.sockets = sockets
    app.state.admission = sockets.admission
    app.state.door = sockets.door  # in front of the connections when serve runs uvicorn with it
    app.add_middleware(BodyLimit, limit=settings.max_body_bytes)
    app.add_middleware(RequestLimit, rate=settings.requests_per_second)
    app.add_middleware(SecurityHeaders)

    @app.exception_handler(ServerError)
    async def server_error(request: Request, error: ServerError) -> JSONResponse:
        return JSONResponse({"error": error.message, "code": error.code}, status_code=error.status)

    @app.exception_handler(HTTPException)
    async def http_error(request: Request, error: HTTPException) -> Response:
        # Starlette's own: a body that is not UTF-8 or JSON too deep to read (400), no such path
        # (404), a wrong method (405)
        if error.status_code == 400:
            malformed = _TOO_DEEP if isinstance(error.__cause__, RecursionError) else _MALFORMED
            return JSONResponse({"error": malformed, "code": "bad_input"}, status_code=422)
        if error.status_code == 404 and pages.wants_html(request):
            said = language_messages(negotiate(request.headers.get("accept-language", "")))
            return pages.not_found_page(
                said("notfound.page"),
                said("notfound.nothing", path=request.url.path[:80]),
                lang=said.lang,
                link=said("notfound.link"),
            )
        if error.status_code == 404:
            answer: ServerError = NotFoundError(f"no such page: {request.url.path}")
        elif error.status_code == 405:
            answer = InputError(f"{request.method} is not allowed here", "bad_method")
        else:
            answer = ServerError(str(error.detail))
        return JSONResponse(
            {"error": answer.message, "code": answer.code}, status_code=error.status_code, headers=error.headers
        )

    @app.exception_handler(RequestValidationError)
    async def validation_error(request: Request, error: RequestValidationError) -> JSONResponse:
        return JSONResponse({"error": _validation_message(error), "code": "bad_input"}, status_code=422)

    for router in (routes_server.router, routes_tables.router, routes_records.router, pages.router):
        app.include_router(router)
    pages.mount_static(app)
    app.include_router(routes_socket.router)
    return app


def _validation_message(error: RequestValidationError) -> str:
    problems = error.errors()
    if not problems:
        return "bad request"
    first = problems[0]
    where = ".".join(str(part) for part in first.get("loc", ()) if part != "body")
    text = str(first.get("msg", "invalid"))
    if first.get("type") == "json_invalid":
        return _MALFORMED
    if not where:  # the body as a whole: a JSON array, text, or no body at all
        return f"malformed request: send a JSON object with Content-Type: application/json ({text})"
    return f"{where}: {text}"
