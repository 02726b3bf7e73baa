"""A table's WebSocket clients in this process: each :class:`Connection` with its send queue, and
:class:`Connections`, the clients of one table by seat.

A connection's messages wait in its own queue, written to the socket by :meth:`Connection.run`, so
that a slow client never holds up the others; one that lets too many pile up is disconnected
(close code 1008). Nothing here knows the game: what is sent is built in
:mod:`thirtyone.server.messages`, when by :mod:`thirtyone.server.runner`.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable
from collections.abc import Callable
from collections.abc import Iterator
from collections.abc import Sequence

import orjson

from thirtyone.server.serialize import JSON

__all__ = ["Connection", "Connections", "dumps"]

log = logging.getLogger("thirtyone.server")


def dumps(message: object) -> str:
    """A message as the text sent: compact JSON, UTF-8 left as it is (dict keys made text).

    orjson rather than the standard library: every action serializes each seat's state, and this
    was a fifth of the server's event loop at 2,000 tables (``benchmarks/bench_server.py``); orjson
    writes the same text about ten times faster."""
    return orjson.dumps(message, option=orjson.OPT_NON_STR_KEYS).decode()


class Connection:
    """One WebSocket client of a table: its ``seat`` (``None`` for a spectator) and a queue of
    messages waiting to be sent, written by :meth:`run` so that a slow client never holds up the
    others. A client that lets more than ``queue_size`` messages pile up is disconnected.

    ``send`` sends one text message; ``close`` closes the socket with a WebSocket close code.
    """

    def __init__(
        self,
        send: Callable[[str], Awaitable[None]],
        close: Callable[[int], Awaitable[None]],
        queue_size: int = 256,
    ) -> None:
        self.seat: int | None = None
        self._send = send
        self._close = close
        self._queue: asyncio.Queue[str | int] = asyncio.Queue(queue_size + 1)
        self._limit = queue_size
        self.closing = False
        self.sent: int = 0

    def put(self, message: JSON) -> None:
        """Queue ``message`` (a JSON object) for sending; drops the client if it is too far behind."""
        if not self.closing:
            self.put_text(dumps(message))

    def put_text(self, text: str) -> None:
        """Queue a message already serialized (:func:`dumps`): one text shared by many connections."""
        if self.closing:
            return
        if self._queue.qsize() >= self._limit:
            log.info("a client fell %d messages behind; disconnecting it", self._limit)
            self.close(1008)
            return
        self._queue.put_nowait(text)

    def close(self, code: int = 1000) -> None:
        """Send what is queued, then close with ``code``; nothing more is queued after this."""
        if not self.closing:
            self.closing = True
            self._queue.put_nowait(code)

    async def run(self) -> None:
        """Send queued messages until :meth:`close`, then close the socket (errors end it quietly)."""
        try:
            while True:
                item = await self._queue.get()
                if isinstance(item, int):
                    with contextlib.suppress(Exception):
                        await self._close(item)
                    return
                await self._send(item)
                self.sent += 1
        except Exception:  # the client went away; the reader side notices and detaches it
            self.closing = True


class Connections:
    """The connections to one table in this process, in the order they came (several may hold one
    seat: two tabs). Iterating, ``len`` and ``in`` see them as a list."""

    def __init__(self) -> None:
        self._all: list[Connection] = []

    def __iter__(self) -> Iterator[Connection]:
        return iter(self._all)

    def __len__(self) -> int:
        return len(self._all)

    def __contains__(self, connection: object) -> bool:
        return connection in self._all

    def add(self, connection: Connection) -> None:
        """Add ``connection`` (its ``seat`` set already)."""
        self._all.append(connection)

    def remove(self, connection: Connection) -> None:
        """Remove ``connection``.

        Raises:
            ValueError: when it is not one of them.
        """
        self._all.remove(connection)

    def connected(self, players: int) -> tuple[bool, ...]:
        """For each of ``players`` seats, whether a connection holds it."""
        seats = {connection.seat for connection in self._all}
        return tuple(seat in seats for seat in range(players))

    def spectators(self) -> int:
        """How many connections watch (hold no seat)."""
        return sum(1 for connection in self._all if connection.seat is None)

    def put_all(self, message: JSON, skip: Connection | None = None) -> None:
        """Queue ``message`` for every connection but ``skip`` (serialized once)."""
        if not self._all:
            return
        text = dumps(message)
        for connection in self._all:
            if connection is not skip:
                connection.put_text(text)

    def put_by_seat(self, messages: Callable[[int | None], Sequence[str]]) -> None:
        """Queue for every connection, in order, the ``messages`` of its seat (``None``: a
        spectator; serialized texts, :func:`dumps`), each seat's built once."""
        built: dict[int | None, Sequence[str]] = {}
        for connection in self._all:
            seat = connection.seat
            if seat not in built:
                built[seat] = messages(seat)
            for text in built[seat]:
                connection.put_text(text)

    def close_all(self, code: int) -> None:
        """Close every connection with ``code`` (after what is queued)."""
        for connection in list(self._all):
            connection.close(code)
