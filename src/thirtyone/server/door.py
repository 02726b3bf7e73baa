"""Players first: what a connection that holds no seat sends waits its turn at the door.

The event loop runs everything that is ready in one turn. When a thousand connections arrive at
once (a flood, or everyone coming back after a network blip), their HTTP requests, WebSocket
handshakes and hellos would all be read in the same turn, about 0.3 ms each, while every table's
ack waited behind them: a third of a second (``benchmarks/bench_floods.py``). So the reads of a
connection the door does not trust (a new one, a spectator, anyone before their hello opened a
seat) are held, and :data:`PER_TURN` of them are let in each turn of the loop, first come first
served; the reads of a seated player's connection are never held. A storm then costs the tables
a few milliseconds a turn, and the newcomers wait a few turns.

The limits on how many may come (per address, in all, per second) are
:mod:`thirtyone.server.limits`'; the door orders those that do, and refuses the one limit it can
tell at once: new WebSocket connections from one address over their rate
(:meth:`Door.limit_arrivals`). Such an upgrade is answered there, by the HTTP protocol, with the
app's refusal (HTTP 429), before a WebSocket protocol, a task or the app is made for it: a storm
of reconnects costs a few microseconds a try, not a handshake and the app's whole stack (about a
millisecond). An upgrade that a proxy forwarded (``X-Forwarded-For``) is left to the app, which
knows the client's own address (:meth:`Door.counts`), unless no proxy is trusted (``Door.proxied``).

:func:`paced_protocols` gives Uvicorn's HTTP and WebSocket protocols with the door in front
(``thirtyone serve`` passes them to ``uvicorn.run``); the app marks a connection trusted once its
hello opens a seat (:meth:`Door.trust`).
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Callable
from collections.abc import Sequence
from http import HTTPStatus
from typing import Any

from thirtyone.server.limits import address_key

__all__ = ["PER_TURN", "Door", "http_answer", "paced_protocols"]

PER_TURN = 8
"""Held reads the door lets in each turn of the event loop."""

Peer = tuple[str, int]
"""A connection's client address and port, as the transport and the ASGI scope give them."""


def peer_of(address: Any) -> Peer | None:
    """``(host, port)`` of a transport's ``peername`` or an ASGI scope's ``client``; ``None``
    when there is none (a Unix socket)."""
    if isinstance(address, tuple | list) and len(address) >= 2:
        return str(address[0]), int(address[1])
    return None


class Door:
    """Holds the reads of connections it does not trust and lets in ``per_turn`` of them each
    turn of the event loop (see the module docstring). ``ValueError`` for ``per_turn`` < 1."""

    def __init__(self, per_turn: int = PER_TURN) -> None:
        if per_turn < 1:
            raise ValueError(f"per_turn must be at least 1, not {per_turn}")
        self.per_turn = per_turn
        self._trusted: set[Peer] = set()
        self._waiting: deque[_Held] = deque()
        self._opening = False
        self._arrivals: Callable[[str], bool] | None = None
        self.refusal = b""
        """The whole HTTP answer to an upgrade over its address's rate (:meth:`limit_arrivals`)."""
        self.guarding = False
        """Whether the door stands in front of the connections (:func:`paced_protocols` made its protocols)."""
        self.refused = 0
        """Upgrades refused at the door so far."""
        self.proxied = True
        """Whether a reverse proxy may stand before the server (``thirtyone serve
        --trusted-proxies``): an upgrade it forwarded (``X-Forwarded-For``) is then the app's to
        count, by the client's own address. Without one (``--trusted-proxies none``) the header is
        never read, and the door counts every upgrade by its connection's address."""

    def __len__(self) -> int:
        """Connections whose reads are waiting."""
        return len(self._waiting)

    def trust(self, peer: Any) -> None:
        """Let the reads of the connection from ``peer`` (an ASGI scope's ``client``) through
        at once from now on: its hello opened a seat."""
        if (known := peer_of(peer)) is not None:
            self._trusted.add(known)

    def forget(self, peer: Any) -> None:
        """The connection from ``peer`` has ended (its port may come again, for anyone)."""
        if (known := peer_of(peer)) is not None:
            self._trusted.discard(known)

    def trusts(self, peer: Peer | None) -> bool:
        return peer is not None and peer in self._trusted

    def limit_arrivals(self, allow: Callable[[str], bool], refusal: bytes) -> None:
        """Refuse WebSocket upgrades at the door: ``allow(address)`` (a client address as
        :func:`~thirtyone.server.limits.address_key` gives it) takes one arrival's token and says
        whether it may come; one that may not is answered ``refusal`` (a whole HTTP/1.1 response,
        bytes) and closed."""
        self._arrivals = allow
        self.refusal = refusal

    def counts(self, headers: Sequence[tuple[bytes, bytes]]) -> bool:
        """Whether the door counts the arrival of the WebSocket upgrade with these ``headers``
        (lower-case names, as an ASGI scope holds them): it stands in front with a limit, and the
        request came straight from its client (no ``X-Forwarded-For``: a proxy's client is counted
        by the app, by the address the proxy gives; where no proxy is trusted, :attr:`proxied`
        ``False``, every request came straight). The app counts the others."""
        if not (self.guarding and self._arrivals is not None):
            return False
        return not self.proxied or all(name != b"x-forwarded-for" for name, _ in headers)

    def refuses(self, peer: Any, headers: Sequence[tuple[bytes, bytes]]) -> bool:
        """Count the arrival of a WebSocket upgrade from ``peer`` (``(host, port)``) with
        ``headers`` if the door counts it (:meth:`counts`): True when it is over its address's
        rate and must be refused."""
        if self._arrivals is None or not self.counts(headers):
            return False
        known = peer_of(peer)
        if self._arrivals(address_key(known[0] if known else None)):
            return False
        self.refused += 1
        return True

    def hold(self, held: _Held) -> None:
        """Queue ``held`` (whose transport has paused reading) for its turn."""
        self._waiting.append(held)
        if not self._opening:
            self._opening = True
            asyncio.get_running_loop().call_soon(self._open)

    def _open(self) -> None:
        let_in = 0
        while self._waiting and let_in < self.per_turn:
            if self._waiting.popleft().let_in():
                let_in += 1
        if self._waiting:
            asyncio.get_running_loop().call_soon(self._open)  # the rest in the next turn
        else:
            self._opening = False


class _Held:
    """What a connection has sent while it waits at the door, and how to go on with it."""

    __slots__ = ("data", "protocol")

    def __init__(self, protocol: Any) -> None:
        self.protocol = protocol
        self.data: list[bytes] = []

    def let_in(self) -> bool:
        """Hand what was held to the protocol and read on; False if the connection has closed."""
        protocol = self.protocol
        protocol._thirtyone_held = None
        transport = protocol.transport
        if transport is None or transport.is_closing():
            return False
        transport.resume_reading()
        protocol._thirtyone_receive(b"".join(self.data))
        return True


def _paced(base: type[asyncio.Protocol], door: Door) -> type[asyncio.Protocol]:
    """``base`` whose reads wait at ``door`` unless it trusts the connection."""

    class Paced(base):  # type: ignore[valid-type,misc]
        _thirtyone_held: _Held | None = None

        def data_received(self, data: bytes) -> None:
            held = self._thirtyone_held
            if held is None:
                peer = peer_of(self.transport.get_extra_info("peername"))
                if door.trusts(peer):
                    super().data_received(data)
                    return
                held = self._thirtyone_held = _Held(self)
                self.transport.pause_reading()
                door.hold(held)
            held.data.append(data)

        def _thirtyone_receive(self, data: bytes) -> None:
            super().data_received(data)

    Paced.__name__ = Paced.__qualname__ = f"Paced{base.__name__}"
    return Paced


def _counted(base: type[asyncio.Protocol], door: Door) -> type[asyncio.Protocol]:
    """Uvicorn's HTTP protocol ``base`` whose WebSocket upgrades are counted at ``door``
    (:meth:`Door.refuses`) once their headers are read, before the WebSocket protocol is made."""

    class Counted(base):  # type: ignore[valid-type,misc]
        def handle_websocket_upgrade(self, *event: Any) -> None:  # h11's passes its request, httptools' nothing
            if door.refuses(self.client, self.headers):
                self.transport.write(door.refusal)
                self.transport.close()
                return
            super().handle_websocket_upgrade(*event)

    Counted.__name__ = Counted.__qualname__ = base.__name__
    return Counted


def http_answer(response: Any) -> bytes:
    """A Starlette ``response`` (its status, headers and whole body) as the bytes of an HTTP/1.1
    answer that closes its connection: what the door writes itself."""
    status = HTTPStatus(response.status_code)
    lines = [f"HTTP/1.1 {status.value} {status.phrase}".encode("ascii")]
    lines += [name + b": " + value for name, value in response.raw_headers]
    return b"\r\n".join([*lines, b"connection: close", b"", response.body])


def paced_protocols(door: Door) -> dict[str, type[asyncio.Protocol]]:
    """Uvicorn's HTTP and WebSocket protocols (as Uvicorn picks them) behind ``door``: keyword
    arguments for ``uvicorn.run`` (``http=…, ws=…``)."""
    from uvicorn.protocols.http.auto import AutoHTTPProtocol
    from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

    door.guarding = True
    return {"http": _counted(_paced(AutoHTTPProtocol, door), door), "ws": _paced(WebSocketsSansIOProtocol, door)}
