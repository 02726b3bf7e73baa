"""The FastAPI application: :func:`create_app` and its HTTP and WebSocket endpoints.

Every endpoint and message is described in ``docs/server-protocol.md``. In short:

=========================================  =====================================================
``GET  /api/health``                       ``{"ok": true, "version": …}``
``GET  /api/presets``                      presets, every rule option, bot levels, limits
``GET  /api/tables?status=open``           the lobby, a page at a time: open tables (``playing``: to watch)
``POST /api/tables``                       create a table → code, share path, host token
``GET  /api/tables/{code}``                its public information and the public view
``POST /api/tables/{code}/join``           take a seat by name → seat and its token
``POST /api/tables/{code}/close``          close it (``Authorization: Bearer HOST_TOKEN``)
``POST /api/tables/{code}/seats/{seat}/bot``  give a free or left seat to a bot (host token)
``POST /api/tables/{code}/rematch``        play again: the rematch's seat (``Bearer SEAT_TOKEN``)
``GET  /api/tables/{code}/deals``          every deal's commitment; deck and salt once revealed
``GET  /api/tables/{code}/record``         the game record (TOML) once the game is over
``GET  /``, ``/t/{code}``, ``/r/{code}``   the browser pages: lobby, table, replay (``pages``)
``WS   /ws/tables/{code}``                 live play: hello with a seat token (or none to watch)
=========================================  =====================================================

Errors are ``{"error": MESSAGE, "code": CODE}`` with an HTTP status (422 bad input, 404 no such
table, 409 full/closed/not over, 403 bad token, 413 too large, 429 over a limit, 503 database
unavailable).

Every HTTP answer carries the security headers of :data:`SECURITY_HEADERS` (a Content-Security-Policy
that allows no inline script and no framing, ``nosniff``, no referrer); each client address has
``requests_per_second`` HTTP requests (a burst of twice that), and the WebSocket connections are
counted and capped (:class:`~thirtyone.server.limits.Admission`).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import AsyncIterator
from typing import Any

from fastapi import FastAPI, Request, WebSocket
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, PlainTextResponse, Response
from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt
from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from thirtyone import __version__
from thirtyone.errors import ThirtyOneError
from thirtyone.i18n import messages as language_messages
from thirtyone.i18n import negotiate
from thirtyone.rules import OPTIONS, PRESETS, Rules
from thirtyone.server.autoplay import BOT_LEVELS
from thirtyone.server.config import DEFAULT_BOT_DELAY, DEFAULT_DATABASE_URL, ServerSettings
from thirtyone.server.connections import Connection
from thirtyone.server.db import open_database
from thirtyone.server.door import Door, http_answer
from thirtyone.server.errors import (
    AuthError,
    ConflictError,
    InputError,
    LimitError,
    NotFoundError,
    RefusedError,
    ServerError,
    TooLargeError,
)
from thirtyone.server.limits import MAX_NAME, MAX_SEATS, Admission, Buckets, RateLimiter, Ticket, address_key
from thirtyone.server.pages import add_pages, not_found_page, wants_html
from thirtyone.server.rematch import rematch
from thirtyone.server.runner import TableRunner
from thirtyone.server.serialize import JSON
from thirtyone.server.service import LEVEL_NAMES, LOBBY_PAGE, SeatRequest, TableService
from thirtyone.server.store import Store

__all__ = ["create_app", "SECURITY_HEADERS", "CONTENT_SECURITY_POLICY", "LIMIT_CLOSE"]

log = logging.getLogger("thirtyone.server")

_STRIKES = 100
"""Refused messages in a row after which a connection is closed (code 1008)."""
LIMIT_CLOSE = 4429
"""The close code of a WebSocket connection refused for a limit (too many connections)."""
_SYNC_BURST = 5
"""Cheap messages (``sync``, ``ping``) a connection may send at once above ``syncs_per_second``."""

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
_NO_STORE = {"Cache-Control": "no-store"}
"""On the answers that carry a token: no cache, shared or the browser's, keeps them."""


_MALFORMED = "malformed request: the body is not JSON"


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


class _SeatBody(BaseModel):
    model_config = ConfigDict(extra="forbid")
    type: str = "human"
    level: str | None = None


class _CreateBody(BaseModel):
    model_config = ConfigDict(extra="forbid")
    preset: str = "scat"
    options: dict[str, str | bool | int | float | None] = Field(default_factory=dict)
    seats: list[_SeatBody]
    name: str | None = None
    public: StrictBool = False
    hints: StrictBool = True
    seed: str | None = Field(default=None, description="not taken here: give your seed when you join")


class _JoinBody(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str
    seat: StrictInt | None = None  # a seat number only: not true, "3" or 2.0
    seed: str | None = Field(
        default=None,
        description="your client seed: 16-64 random bytes as hex or base64, made after seeing the table's commitment",
    )


class _BotBody(BaseModel):
    model_config = ConfigDict(extra="forbid")
    level: str = "medium"


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
    admission = Admission(
        settings.max_connections,
        settings.max_connections_per_address,
        settings.max_connections_per_table,
        settings.max_connections_per_seat,
        settings.max_spectators,
    )
    messages = Buckets(settings.address_messages_per_second, max(1, int(2 * settings.address_messages_per_second)))
    arrivals = Buckets(settings.connections_per_second, max(10, int(2 * settings.connections_per_second)))
    app.state.service = service
    app.state.settings = settings
    app.state.engine = engine
    app.state.admission = admission
    door = app.state.door = Door()  # in front of the connections when serve runs uvicorn with it
    too_fast = _too_many_arrivals(settings.connections_per_second)
    origins = settings.web_origins()
    door.limit_arrivals(arrivals.allow, http_answer(too_fast))  # behind the door, refused there
    app.add_middleware(_BodyLimit, limit=settings.max_body_bytes)
    app.add_middleware(_RequestLimit, rate=settings.requests_per_second)
    app.add_middleware(_SecurityHeaders)

    @app.exception_handler(ServerError)
    async def server_error(request: Request, error: ServerError) -> JSONResponse:
        return JSONResponse({"error": error.message, "code": error.code}, status_code=error.status)

    @app.exception_handler(HTTPException)
    async def http_error(request: Request, error: HTTPException) -> Response:
        # Starlette's own: a body that is not UTF-8 (400), no such path (404), a wrong method (405)
        if error.status_code == 400:
            return JSONResponse({"error": _MALFORMED, "code": "bad_input"}, status_code=422)
        if error.status_code == 404 and wants_html(request):
            said = language_messages(negotiate(request.headers.get("accept-language", "")))
            return not_found_page(
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

    # ------------------------------------------------------------------------------ HTTP

    @app.get("/api/health")
    async def health() -> JSON:
        return {"ok": True, "version": __version__}

    @app.get("/api/presets")
    async def presets() -> JSON:
        return {
            "presets": {name: rules.options() for name, rules in PRESETS.items()},
            "options": {
                name: {
                    "kind": spec.kind,
                    "choices": list(spec.choices) or None,
                    "low": spec.low if spec.kind == "int" else None,
                    "high": spec.high if spec.kind == "int" else None,
                    "only": list(spec.only) or None,
                    "mode": spec.mode or _only_mode(name),
                    "rule": spec.rule,
                    "help": spec.help,
                }
                for name, spec in OPTIONS.items()
            },
            "bot_levels": list(BOT_LEVELS),
            "limits": {"max_seats": MAX_SEATS, "max_name": MAX_NAME, **settings.limits_json()},
        }

    @app.get("/api/tables")
    async def lobby(status: str = "open", limit: int = LOBBY_PAGE, offset: int = 0) -> JSON:
        return await service.lobby(status, limit, offset)

    @app.post("/api/tables", status_code=201)
    async def create(body: _CreateBody, request: Request, response: Response) -> JSON:
        response.headers.update(_NO_STORE)
        if body.seed is not None:
            raise InputError(
                "seed: give your seed when you join, after seeing the table's commitment (create the table "
                "without a name, then join it with your name and seed)",
                "bad_seed",
            )
        created = await service.create(
            body.preset,
            _typed_options(body.options),
            [SeatRequest(seat.type, seat.level) for seat in body.seats],
            body.name,
            _address(request.client.host if request.client else None),
            public=body.public,
            hints=body.hints,
        )
        created["share_url"] = _share_url(settings, created["code"])
        return created

    @app.get("/api/tables/{code}")
    async def table(code: str) -> JSON:
        runner = await service.runner(code)
        info, view = await runner.public()
        return {"table": info, "view": view}

    @app.post("/api/tables/{code}/join")
    async def join(code: str, body: _JoinBody, response: Response) -> JSON:
        response.headers.update(_NO_STORE)
        runner = await service.runner(code)
        seat, token = await runner.join(body.name, body.seat, body.seed)
        return {
            "code": runner.code,
            "seat": seat,
            "token": token,
            "share_url": _share_url(settings, runner.code),
            "table": runner.table_json(),
        }

    @app.post("/api/tables/{code}/close")
    async def close(code: str, request: Request) -> JSON:
        return {"table": await service.close(code, _bearer(request))}

    @app.post("/api/tables/{code}/seats/{seat}/bot")
    async def seat_bot(code: str, seat: int, request: Request, body: _BotBody | None = None) -> JSON:
        runner = await service.runner(code)
        level = LEVEL_NAMES.get((body.level if body else "medium").strip().lower(), "")
        await runner.give_to_bot(_bearer(request), seat, level)
        return {"table": runner.table_json()}

    @app.post("/api/tables/{code}/rematch")
    async def play_again(code: str, request: Request, response: Response) -> JSON:
        response.headers.update(_NO_STORE)
        made = await rematch(service, code, _bearer(request, "seat"))
        made["share_url"] = _share_url(settings, made["code"])
        return made

    @app.get("/api/tables/{code}/deals")
    async def deals(code: str) -> JSON:
        runner = await service.runner(code)
        return runner.deals_json()

    @app.get(
        "/api/tables/{code}/record",
        response_class=PlainTextResponse,
        responses={200: {"content": {"application/toml": {}}, "description": "the game record (TOML)"}},
    )
    async def record(code: str) -> Response:
        clean, text = await service.record(code)
        return PlainTextResponse(
            text,
            media_type="application/toml",
            headers={"Content-Disposition": f'attachment; filename="thirtyone-{clean}.toml"'},
        )

    add_pages(app, service)

    # ------------------------------------------------------------------------------ WebSocket

    @app.websocket("/ws/tables/{code}")
    async def table_socket(websocket: WebSocket, code: str) -> None:
        address = _address(websocket.client.host if websocket.client else None)
        foreign = _foreign_origin(websocket, origins)
        if foreign is not None:  # another site's page: refused before any WebSocket
            log.info("refused a WebSocket from a page of %s", foreign.message)
            await _refuse(websocket, _answer(foreign))
            return
        if not door.counts(websocket.scope["headers"]) and not arrivals.allow(address):
            await _refuse(websocket, too_fast)  # a storm of new connections: refused before any WebSocket
            return
        await websocket.accept()

        async def close_socket(close_code: int) -> None:
            await websocket.close(close_code)

        connection = Connection(websocket.send_text, close_socket, settings.send_queue)
        writer = asyncio.create_task(connection.run())
        ticket: Ticket | None = None
        runner: TableRunner | None = None
        try:
            try:
                ticket = admission.enter(address)
            except LimitError as error:
                connection.put(_error(error))
                connection.close(LIMIT_CLOSE)
                return
            reader = _Reader(websocket, connection, settings, messages, address)
            runner = await _greet(reader, connection, service, code, settings, admission, ticket)
            if runner is None:
                return
            if connection.seat is not None:  # a player: what they send no longer waits at the door
                door.trust(websocket.client)
            while not connection.closing:
                message = await reader.next()
                if message is None:
                    break
                await _handle(message, connection, runner, service, reader)
        finally:
            door.forget(websocket.client)
            if runner is not None:
                runner.detach(connection)
                service.release(runner)
            if ticket is not None:
                admission.leave(ticket)
            connection.close(1000)
            with contextlib.suppress(asyncio.TimeoutError, Exception):
                await asyncio.wait_for(writer, 5)

    return app


# ---------------------------------------------------------------------------------------------- WebSocket


def _too_many_arrivals(rate: float) -> JSONResponse:
    """The answer to a WebSocket upgrade over its address's rate of new connections: HTTP 429
    (``rate_limited``, ``Retry-After``), before any WebSocket is made. Cheaper than a handshake and a
    close, and a page that was never connected keeps its backoff growing."""
    words = f"too many new connections from your address: at most {rate:g} a second; wait a moment and connect again"
    headers = {**SECURITY_HEADERS, "Retry-After": "1"}
    return JSONResponse({"error": words, "code": "rate_limited"}, status_code=429, headers=headers)


async def _refuse(websocket: WebSocket, answer: Response) -> None:
    try:
        await websocket.send_denial_response(answer)
    except RuntimeError:  # a server without ASGI's denial responses: refused with HTTP 403, no body
        await websocket.close(LIMIT_CLOSE)


def _foreign_origin(websocket: WebSocket, origins: frozenset[str]) -> ServerError | None:
    """The refusal of a WebSocket handshake from a page of another site: its ``Origin`` is neither
    this server's own (the ``Host`` it was sent to) nor one of ``origins``. A handshake with no
    ``Origin`` is no browser page's (browsers send it with every one) and is let in."""
    origin = websocket.headers.get("origin")
    if origin is None:
        return None
    shown = origin.strip().lower()
    scheme, _, netloc = shown.partition("://")
    if shown in origins or (scheme in ("http", "https") and netloc == websocket.headers.get("host", "").lower()):
        return None
    return AuthError(
        f"{origin[:100]!r} may not connect: a page connects to the server that served it (the host may allow "
        "other sites' pages with --allowed-origin)",
        "bad_origin",
    )


def _answer(error: ServerError) -> JSONResponse:
    """``error`` as an HTTP answer, with the security headers (for a refused WebSocket upgrade)."""
    return JSONResponse(
        {"error": error.message, "code": error.code}, status_code=error.status, headers=SECURITY_HEADERS
    )


def _error(error: ServerError) -> JSON:
    refusal = {"refusal": error.refusal} if isinstance(error, RefusedError) else {}
    return {"type": "error", "code": error.code, "message": error.message, **refusal}


class _Reader:
    """Reads a connection's messages: each must be a JSON object with a text ``type``, at most
    ``max_message_bytes`` of UTF-8, within the rate limit; anything else is answered with an error
    to this client only and skipped."""

    def __init__(
        self,
        websocket: WebSocket,
        connection: Connection,
        settings: ServerSettings,
        address_buckets: Buckets,
        address: str,
    ) -> None:
        self.websocket = websocket
        self.connection = connection
        self.settings = settings
        self.limiter = RateLimiter(settings.messages_per_second, settings.message_burst)
        self.syncs = RateLimiter(settings.syncs_per_second, _SYNC_BURST)
        self.address_buckets = address_buckets
        self.address = address
        self.strikes = 0
        self._told_rate = -1.0

    async def next(self) -> JSON | None:
        """The next good message, or ``None`` once the client has gone (or was disconnected)."""
        while not self.connection.closing:
            message: Message = await self.websocket.receive()
            if message["type"] == "websocket.disconnect":
                self.connection.closing = True
                return None
            refusal = self._check(message)
            if refusal is None:
                text = message.get("text") or ""
                try:
                    data: Any = json.loads(text)
                except (ValueError, RecursionError):
                    refusal = InputError('malformed message: not JSON; send a JSON object such as {"type": "ping"}')
                else:
                    if not isinstance(data, dict) or not isinstance(data.get("type"), str):
                        refusal = InputError(
                            'malformed message: send a JSON object with a "type", e.g. {"type": "ping"}'
                        )
                    else:
                        return data
            if refusal.code != "quiet":
                self.connection.put(_error(refusal))
            self.strike()
        return None

    def _check(self, message: Message) -> ServerError | None:
        if not self.limiter.allow():
            return self.rate_limited(
                f"too many messages: at most {self.settings.messages_per_second:g} a second "
                f"({self.settings.message_burst} at once); this one was dropped"
            )
        if not self.address_buckets.allow(self.address):
            return self.rate_limited(
                f"too many messages from your address: at most {self.settings.address_messages_per_second:g} a "
                "second for all its connections; this one was dropped"
            )
        text = message.get("text")
        if text is None:
            return InputError("malformed message: send JSON as text, not binary")
        size = len(text.encode("utf-8", "surrogatepass"))
        if size > self.settings.max_message_bytes:
            return TooLargeError(
                f"message too large: {size} bytes; the limit is {self.settings.max_message_bytes}; it was dropped"
            )
        return None

    def rate_limited(self, words: str) -> ServerError:
        """The error for a message over a rate (``rate_limited``), told at most once a second
        (``quiet`` the rest: not sent)."""
        now = asyncio.get_running_loop().time()
        if now - self._told_rate < 1.0:
            return LimitError("rate limited", "quiet")
        self._told_rate = now
        return LimitError(words, "rate_limited")

    def strike(self) -> None:
        """Count a refused message (unreadable, over a limit, or refused when handled);
        :data:`_STRIKES` in a row close the connection (1008)."""
        self.strikes += 1
        if self.strikes >= _STRIKES:
            self.connection.put(
                _error(InputError(f"{_STRIKES} refused messages in a row: disconnected", "disconnected"))
            )
            self.connection.close(1008)


async def _greet(
    reader: _Reader,
    connection: Connection,
    service: TableService,
    code: str,
    settings: ServerSettings,
    admission: Admission,
    ticket: Ticket,
) -> TableRunner | None:
    """Wait for the client's hello, find the table and the seat its token opens, count the
    connection there (:meth:`Admission.attach`) and attach it. Returns ``None`` (after telling the
    client why and closing) when that fails."""
    try:
        async with asyncio.timeout(settings.hello_timeout):
            while True:
                hello = await reader.next()
                if hello is None:
                    return None
                if hello.get("type") == "hello":
                    break
                connection.put(
                    _error(
                        InputError('say hello first: {"type": "hello", "token": TOKEN} (no token to watch)', "no_hello")
                    )
                )
    except TimeoutError:
        connection.put(_error(InputError(f"no hello within {settings.hello_timeout:g} seconds", "hello_timeout")))
        connection.close(4408)
        return None
    token = hello.get("token")
    try:
        if token is not None and not isinstance(token, str):
            raise AuthError("the token must be text (or left out to watch)")
        runner = await service.runner(code)
        seat = runner.authenticate(token)
        admission.attach(ticket, runner.code, seat)
        await runner.attach(connection, seat)
    except ServerError as error:
        connection.put(_error(error))
        connection.close({404: 4404, 403: 4403, 429: LIMIT_CLOSE}.get(error.status, 1011))
        return None
    return runner


async def _handle(
    message: JSON, connection: Connection, runner: TableRunner, service: TableService, reader: _Reader
) -> None:
    kind = message["type"]
    try:
        if kind in ("sync", "ping") and not reader.syncs.allow():
            raise reader.rate_limited(
                f"too many {kind} messages: at most {reader.settings.syncs_per_second:g} a second "
                f"({_SYNC_BURST} at once); this one was dropped"
            )
        if kind == "action":
            await _act(message, connection, runner)
        elif kind == "ping":
            connection.put({"type": "pong"})
        elif kind == "sync":
            await runner.send_state(connection)
        elif kind == "hint":
            if not runner.data.hints:
                raise ConflictError("the host turned hints off for this game: no hints here", "hints_off")
            connection.put_text(await service.hints.hint(runner, connection))
        elif kind == "chat":
            await runner.chat(connection, message)
        elif kind == "seed":
            await _seed(message, connection, runner)
        elif kind == "showdown_closed":
            await runner.showdown_closed(connection, message.get("round"))
        elif kind == "back":
            await runner.back(connection)
        elif kind == "hello":
            raise InputError("already said hello: this connection holds its seat until it closes", "bad_message")
        else:
            raise InputError(
                f"unknown message type {kind[:40]!r}: send action, hint, chat, seed, showdown_closed, back, ping "
                "or sync",
                "bad_message",
            )
    except ServerError as error:
        if error.code != "quiet":
            connection.put(_error(error))
        reader.strike()
        if error.code == "stale":
            await runner.send_state(connection)
    else:
        reader.strikes = 0


async def _seed(message: JSON, connection: Connection, runner: TableRunner) -> None:
    seat = connection.seat
    if seat is None:
        raise AuthError("spectators give no seed: join a seat to play", "spectator")
    if "seed" not in message:
        raise InputError(
            'a seed message needs "seed": 16 to 64 random bytes as hex or base64 (e.g. 32 hex digits)', "bad_message"
        )
    seed = await runner.give_seed(seat, message["seed"])
    connection.put({"type": "seeded", "seat": seat, "seed": seed})


async def _act(message: JSON, connection: Connection, runner: TableRunner) -> None:
    seat = connection.seat
    if seat is None:
        raise AuthError("spectators cannot act: join a seat to play", "spectator")
    asked = message.get("seat", seat)
    if asked != seat:
        raise AuthError(
            f"this connection holds the token of seat {seat}; it cannot act for seat {asked!r}", "not_your_seat"
        )
    text = message.get("action")
    number = message.get("id")
    seq = message.get("seq")
    if number is not None and (isinstance(number, bool) or not isinstance(number, int)):
        raise InputError(
            'an action\'s "id" is a whole number, as the state\'s "legal" lists it (52: draw stock)', "bad_message"
        )
    readable = isinstance(text, str) and bool(text.strip()) and len(text) <= 100
    if (number is None or text is not None) and not readable:
        raise InputError('an action message needs "action": its notation, e.g. "draw stock"', "bad_message")
    if isinstance(seq, bool) or not isinstance(seq, int):
        raise InputError('an action message needs "seq": the last seq you saw, a whole number', "bad_message")
    notation = text if isinstance(text, str) else None
    if number is not None:  # its id (the notation beside it, if any, must name the same action)
        await runner.act(seat, number, seq, "player", origin=connection, notation=notation)
    elif notation is not None:
        await runner.act(seat, notation, seq, "player", origin=connection)


# ---------------------------------------------------------------------------------------------- HTTP helpers


def _bearer(request: Request, which: str = "host") -> str:
    header = request.headers.get("authorization", "")
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise AuthError(f"give the {which} token: Authorization: Bearer {which.upper()}_TOKEN")
    return token.strip()


def _address(host: str | None) -> str:
    return address_key(host)


def _share_url(settings: ServerSettings, code: str) -> str:
    """A table's link: under the server's ``public_url``, or relative to the server (the path
    alone) when none is set; never from the request's ``Host``, which the client writes."""
    return f"{settings.public_url or ''}/t/{code}"


_JSON_TYPES: dict[str, tuple[type, str]] = {
    "bool": (bool, "true or false"),
    "int": (int, "a JSON number"),
    "choice": (str, "it as text"),
}
"""The JSON type of each kind of rule option (bool is no int here), and how to send it."""


def _typed_options(options: dict[str, Any]) -> dict[str, Any]:
    """``options`` as sent, once every known option has its kind's JSON type: ``true`` or
    ``false``, a whole number, or a choice as text (``"30.5"``). The rules would read text such as
    ``"3"`` as a number; over the wire a value is what it says. Unknown options, and ``null`` (an
    option of the other mode, as ``GET /api/presets`` lists them), are left to the rules, which
    name what they refuse.

    Raises:
        InputError: naming the option, the values it takes, and what was sent instead.
    """
    for name, value in options.items():
        spec = OPTIONS.get(name)
        if spec is None or value is None:
            continue
        kind, send = _JSON_TYPES[spec.kind]
        if type(value) is not kind:
            raise InputError(f"option {name} is {spec.describe_values()}: send {send}, not {json.dumps(value)}")
    return options


def _only_mode(option: str) -> str | None:
    """The one mode (``draw``/``widow``) where an on/off option can be turned on, when the rules
    refuse it in the other (``throw_down`` needs draw mode, R6.6); ``None`` when both take it."""
    spec = OPTIONS[option]
    if spec.kind != "bool":
        return None
    modes = []
    for preset in ("scat", "widow"):  # a preset of each mode, with the option turned on
        try:
            rules = Rules(**{**PRESETS[preset].options(), option: True})
        except ThirtyOneError:
            continue
        modes.append(rules.mode)
    return modes[0] if len(modes) == 1 else None


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


class _BodyLimit:
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


class _SecurityHeaders:
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


class _RequestLimit:
    """Answers 429 (``rate_limited``) to a client address over ``rate`` HTTP requests a second (a
    burst of twice that, at least 10)."""

    def __init__(self, app: ASGIApp, rate: float) -> None:
        self.app = app
        self.rate = rate
        self.buckets = Buckets(rate, max(10, int(2 * rate)))

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
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
