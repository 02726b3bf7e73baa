"""The WebSocket endpoint ``WS /ws/tables/{code}`` (an :class:`~fastapi.APIRouter`; docs/server-protocol.md,
"WebSocket"): live play, a hello with a seat token (or none to watch), then one JSON message at a
time, each read within its limits (:class:`_Reader`) and handled by the table's runner.

A handshake from another site's page is refused before any WebSocket (``bad_origin``, HTTP 403),
so is a storm of new connections from one address (HTTP 429); the connections are counted and
capped (:class:`~thirtyone.server.limits.Admission`); a connection that sends 100 refused
messages in a row is closed (1008).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from dataclasses import dataclass
from typing import Any

from fastapi import APIRouter
from fastapi import WebSocket
from fastapi.responses import JSONResponse
from fastapi.responses import Response
from starlette.types import Message

from thirtyone.server.config import ServerSettings
from thirtyone.server.connections import Connection
from thirtyone.server.deps import address as client_address
from thirtyone.server.deps import service_of
from thirtyone.server.deps import settings_of
from thirtyone.server.door import Door
from thirtyone.server.door import http_answer
from thirtyone.server.errors import AuthError
from thirtyone.server.errors import ConflictError
from thirtyone.server.errors import InputError
from thirtyone.server.errors import LimitError
from thirtyone.server.errors import RefusedError
from thirtyone.server.errors import ServerError
from thirtyone.server.errors import TooLargeError
from thirtyone.server.limits import Admission
from thirtyone.server.limits import Buckets
from thirtyone.server.limits import RateLimiter
from thirtyone.server.limits import Ticket
from thirtyone.server.middleware import SECURITY_HEADERS
from thirtyone.server.runner import TableRunner
from thirtyone.server.serialize import JSON
from thirtyone.server.service import TableService

__all__ = ["router", "Sockets", "LIMIT_CLOSE"]

log = logging.getLogger("thirtyone.server")

router = APIRouter()

_STRIKES = 100
"""Refused messages in a row after which a connection is closed (code 1008)."""
LIMIT_CLOSE = 4429
"""The close code of a WebSocket connection refused for a limit (too many connections)."""
_SYNC_BURST = 5
"""Cheap messages (``sync``, ``ping``) a connection may send at once above ``syncs_per_second``."""


@dataclass(frozen=True)
class Sockets:
    """What the WebSocket endpoint keeps for the whole application (``app.state.sockets``): the
    connections let in (``admission``), each address's message and new-connection rates, the
    ``door`` in front of the connections (:mod:`thirtyone.server.door`), the answer to a storm of
    new connections, and the other sites whose pages may connect (``origins``)."""

    admission: Admission
    address_messages: Buckets
    arrivals: Buckets
    door: Door
    too_fast: JSONResponse
    origins: frozenset[str]

    @classmethod
    def made(cls, settings: ServerSettings) -> Sockets:
        """The endpoint's state for ``settings``' limits (its door refuses arrivals over their rate)."""
        admission = Admission(
            settings.max_connections,
            settings.max_connections_per_address,
            settings.max_connections_per_table,
            settings.max_connections_per_seat,
            settings.max_spectators,
        )
        rate = settings.address_messages_per_second
        arrivals = Buckets(settings.connections_per_second, max(10, int(2 * settings.connections_per_second)))
        too_fast = _too_many_arrivals(settings.connections_per_second)
        door = Door()  # in front of the connections when serve runs uvicorn with it
        door.limit_arrivals(arrivals.allow, http_answer(too_fast))  # behind the door, refused there
        return cls(admission, Buckets(rate, max(1, int(2 * rate))), arrivals, door, too_fast, settings.web_origins())


@router.websocket("/ws/tables/{code}")
async def table_socket(websocket: WebSocket, code: str) -> None:
    service, settings = service_of(websocket), settings_of(websocket)
    sockets: Sockets = websocket.app.state.sockets
    door, admission = sockets.door, sockets.admission
    address = client_address(websocket)
    foreign = _foreign_origin(websocket, sockets.origins)
    if foreign is not None:  # another site's page: refused before any WebSocket
        log.info("refused a WebSocket from a page of %s", foreign.message)
        await _refuse(websocket, _answer(foreign))
        return
    if not door.counts(websocket.scope["headers"]) and not sockets.arrivals.allow(address):
        await _refuse(websocket, sockets.too_fast)  # a storm of new connections: refused before any WebSocket
        return
    await websocket.accept()

    async def close_socket(close_code: int) -> None:
        await websocket.close(close_code)

    connection = Connection(websocket.send_text, close_socket, settings.send_queue)
    writer = asyncio.create_task(connection.run())
    ticket: Ticket | None = None
    runner: TableRunner | None = None
    reader: _Reader | None = None
    try:
        try:
            ticket = admission.enter(address)
        except LimitError as error:
            connection.put(_error(error))
            connection.close(LIMIT_CLOSE)
            return
        reader = _Reader(websocket, connection, settings, sockets.address_messages, address)
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
        if reader is not None and reader.gone:  # nothing reaches a client that has gone: no wait for the writer
            writer.cancel()
        else:
            with contextlib.suppress(asyncio.TimeoutError, Exception):
                await asyncio.wait_for(writer, 5)


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
        self.gone = False
        """Whether the client has gone (its side closed, or the server is shutting down)."""

    async def next(self) -> JSON | None:
        """The next good message, or ``None`` once the client has gone (or was disconnected)."""
        while not self.connection.closing:
            message: Message = await self.websocket.receive()
            if message["type"] == "websocket.disconnect":
                self.connection.closing = self.gone = True
                return None
            refusal = self._check(message)
            if refusal is None:
                text = message.get("text") or ""
                try:
                    data: Any = json.loads(text)
                except ValueError:
                    refusal = InputError('malformed message: not JSON; send a JSON object such as {"type": "ping"}')
                except RecursionError:
                    refusal = InputError(
                        "malformed message: JSON nested too deeply for the server to read; a message is one "
                        'object a few levels deep, such as {"type": "ping"}'
                    )
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
        seconds = f"{settings.hello_timeout:g} second{'s' if settings.hello_timeout != 1 else ''}"
        connection.put(_error(InputError(f"no hello within {seconds}", "hello_timeout")))
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
            f"this connection holds the token of seat {seat}; it cannot act for seat {repr(asked)[:40]}",
            "not_your_seat",
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
