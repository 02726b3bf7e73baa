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
:mod:`thirtyone.server.limits`'; the door only orders those that do. :func:`paced_protocols` gives
Uvicorn's HTTP and WebSocket protocols with the door in front (``thirtyone serve`` passes them
to ``uvicorn.run``); the app marks a connection trusted once its hello opens a seat
(:meth:`Door.trust`).
"""

from __future__ import annotations

import asyncio
from collections import deque
from typing import Any

__all__ = ["PER_TURN", "Door", "paced_protocols"]

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


def paced_protocols(door: Door) -> dict[str, type[asyncio.Protocol]]:
    """Uvicorn's HTTP and WebSocket protocols (as Uvicorn picks them) behind ``door``: keyword
    arguments for ``uvicorn.run`` (``http=…, ws=…``)."""
    from uvicorn.protocols.http.auto import AutoHTTPProtocol
    from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

    return {"http": _paced(AutoHTTPProtocol, door), "ws": _paced(WebSocketsSansIOProtocol, door)}
