"""The door (server/door.py): what connections without a seat send waits its turn, a few reads
each turn of the event loop, while a seated player's reads go straight through; and the real
Uvicorn protocols behind it serve players and spectators alike."""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any
from typing import ClassVar

import httpx
import pytest
import uvicorn
from websockets.asyncio.client import connect
from websockets.exceptions import InvalidStatus

from support.processes import free_port
from thirtyone.server import ServerSettings
from thirtyone.server import create_app
from thirtyone.server.door import Door
from thirtyone.server.door import _paced
from thirtyone.server.door import paced_protocols
from thirtyone.server.door import peer_of


class FakeTransport:
    def __init__(self, port: int) -> None:
        self.peer = ("127.0.0.1", port)
        self.paused = False
        self.closing = False

    def get_extra_info(self, name: str) -> Any:
        return self.peer if name == "peername" else None

    def pause_reading(self) -> None:
        self.paused = True

    def resume_reading(self) -> None:
        self.paused = False

    def is_closing(self) -> bool:
        return self.closing


class Recorder(asyncio.Protocol):
    """A protocol that records what it reads, in order, in ``got`` (shared)."""

    got: ClassVar[list[tuple[int, bytes]]] = []

    def __init__(self, port: int) -> None:
        self.transport = FakeTransport(port)
        self.port = port

    def data_received(self, data: bytes) -> None:
        self.got.append((self.port, data))


def paced(door: Door, count: int, first_port: int = 1000) -> tuple[list[Any], list[tuple[int, bytes]]]:
    got: list[tuple[int, bytes]] = []
    cls = _paced(type("Rec", (Recorder,), {"got": got}), door)
    return [cls(first_port + i) for i in range(count)], got


async def turns(count: int) -> None:
    for _ in range(count):
        await asyncio.sleep(0)


async def test_reads_without_a_seat_are_let_in_per_turn_first_come_first_served() -> None:
    door = Door(per_turn=8)
    protocols, got = paced(door, 20)
    for protocol in protocols:
        protocol.data_received(b"hello")
    assert got == []
    assert len(door) == 20
    assert all(protocol.transport.paused for protocol in protocols)
    await turns(1)
    assert [port for port, _ in got] == list(range(1000, 1008))
    await turns(1)
    assert len(got) == 16
    await turns(1)
    assert [port for port, _ in got] == list(range(1000, 1020))
    assert len(door) == 0
    assert not any(protocol.transport.paused for protocol in protocols)


async def test_a_seated_players_reads_go_straight_through_while_others_wait() -> None:
    door = Door(per_turn=1)
    (player, *others), got = paced(door, 5)
    door.trust(["127.0.0.1", player.port])  # as the ASGI scope gives the client
    for other in others:
        other.data_received(b"sync")
    player.data_received(b"action")
    assert got == [(player.port, b"action")]
    assert not player.transport.paused
    door.forget(("127.0.0.1", player.port))  # gone: its port may come again, for anyone
    player.data_received(b"hello")
    assert got == [(player.port, b"action")]
    await turns(5)
    assert [port for port, _ in got[1:]] == [o.port for o in others] + [player.port]


async def test_reads_held_for_one_connection_are_handed_on_together_in_order() -> None:
    door = Door(per_turn=1)
    (first, second), got = paced(door, 2)
    first.data_received(b"a")
    second.data_received(b"x")
    first.data_received(b"b")  # a read already under way while pausing
    await turns(1)
    assert got == [(first.port, b"ab")]
    await turns(1)
    assert got == [(first.port, b"ab"), (second.port, b"x")]


async def test_a_connection_closed_while_it_waits_is_skipped_and_takes_no_place() -> None:
    door = Door(per_turn=2)
    protocols, got = paced(door, 4)
    for protocol in protocols:
        protocol.data_received(b"hello")
    protocols[0].transport.closing = True
    await turns(1)
    assert [port for port, _ in got] == [1001, 1002]
    await turns(1)
    assert [port for port, _ in got] == [1001, 1002, 1003]


def test_a_door_needs_a_place_a_turn() -> None:
    with pytest.raises(ValueError, match="per_turn must be at least 1"):
        Door(per_turn=0)


def test_peers_are_host_and_port_from_a_transport_or_a_scope() -> None:
    assert peer_of(("::1", 8000, 0, 0)) == ("::1", 8000)
    assert peer_of(["127.0.0.1", 5]) == ("127.0.0.1", 5)
    assert peer_of(None) is None
    assert peer_of("/tmp/socket") is None
    assert not Door().trusts(None)


def test_the_paced_protocols_are_uvicorns_own() -> None:
    from uvicorn.protocols.http.auto import AutoHTTPProtocol
    from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

    protocols = paced_protocols(Door())
    assert issubclass(protocols["http"], AutoHTTPProtocol)
    assert issubclass(protocols["ws"], WebSocketsSansIOProtocol)


class Handlers:
    """An ASGI app wrapped to count its WebSocket handlers under way (``live``); ``ended`` is set
    whenever the last one returns."""

    def __init__(self) -> None:
        self.app: Any = None
        self.live = 0
        self.ended = asyncio.Event()

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "websocket":
            await self.app(scope, receive, send)
            return
        self.live += 1
        self.ended.clear()
        try:
            await self.app(scope, receive, send)
        finally:
            self.live -= 1
            if not self.live:
                self.ended.set()


@contextlib.asynccontextmanager
async def served(tmp_path: Path, handlers: Handlers | None = None, **limits: Any) -> AsyncIterator[tuple[Door, int]]:
    """Uvicorn with the paced protocols, as ``thirtyone serve`` runs it: the door and the port
    (the app wrapped in ``handlers`` when given)."""
    settings = ServerSettings(
        database_url=f"sqlite:///{tmp_path / 'door.db'}", worker_kind="thread", freeze_gc=False, bot_delay=0, **limits
    )
    app = create_app(settings=settings)
    door: Door = app.state.door
    port = free_port()
    if handlers is not None:
        handlers.app = app
    served_app = app if handlers is None else handlers
    config = uvicorn.Config(served_app, host="127.0.0.1", port=port, log_level="warning", **paced_protocols(door))
    server = uvicorn.Server(config)
    serving = asyncio.create_task(server.serve())
    try:
        for _ in range(200):
            if server.started:
                break
            await asyncio.sleep(0.05)
        yield door, port
    finally:
        server.should_exit = True
        await asyncio.wait_for(serving, 20)


async def test_uvicorn_behind_the_door_serves_a_storm_of_spectators_and_the_players(tmp_path: Path) -> None:
    """Uvicorn with the paced protocols, as ``thirtyone serve`` runs it: 60 spectators arriving at
    once each get their state, the seated players' moves are acknowledged, and the door trusts
    exactly the connections whose hello opened a seat, for as long as they stay."""
    limits = {"connections_per_second": 1000, "max_spectators": 64, "max_connections_per_table": 100}
    async with served(tmp_path, **limits) as (door, port):
        base = f"http://127.0.0.1:{port}"
        async with httpx.AsyncClient(base_url=base, timeout=10) as http:
            code = (await http.post("/api/tables", json={"seats": [{"type": "human"}] * 2})).json()["code"]
            tokens = [(await http.post(f"/api/tables/{code}/join", json={"name": n})).json()["token"] for n in "AB"]
        url = f"ws://127.0.0.1:{port}/ws/tables/{code}"

        async def first_state(ws: Any, hello: dict[str, Any]) -> dict[str, Any]:
            await ws.send(json.dumps(hello))
            while True:
                message = json.loads(await asyncio.wait_for(ws.recv(), 10))
                if message["type"] in ("state", "error"):
                    return message

        players = [await connect(url) for _ in tokens]
        states = [await first_state(ws, {"type": "hello", "token": t}) for ws, t in zip(players, tokens, strict=True)]
        assert [s["type"] for s in states] == ["state", "state"]
        assert len(door._trusted) == 2

        async def spectate() -> str:
            async with connect(url) as ws:
                return str((await first_state(ws, {"type": "hello"}))["type"])

        watching = asyncio.gather(*(spectate() for _ in range(60)))
        mover = next(i for i, s in enumerate(states) if s["view"]["is_my_turn"])
        view = states[mover]["view"]
        action = {"type": "action", "action": view["legal_actions"][0], "seq": states[mover]["seq"]}
        await players[mover].send(json.dumps(action))
        while (message := json.loads(await asyncio.wait_for(players[mover].recv(), 10)))["type"] != "ack":
            assert message["type"] != "error", message
        assert message["seq"] == states[mover]["seq"] + 1
        assert await watching == ["state"] * 60
        assert len(door._trusted) == 2  # spectators are never trusted
        for ws in players:
            await ws.close()
        for _ in range(100):
            if not door._trusted:
                break
            await asyncio.sleep(0.05)
        assert not door._trusted


async def test_a_storm_of_new_connections_is_refused_at_the_door_with_http_429_and_its_reason(tmp_path: Path) -> None:
    """New WebSocket connections from one address over its rate (0.1 a second: a burst of 10) are
    answered HTTP 429 with the error as JSON and ``Retry-After``, at the door, before any WebSocket
    is made (docs/server-protocol.md, Limits); one a proxy forwards (``X-Forwarded-For`` from
    127.0.0.1, which Uvicorn trusts) is counted by the app, by its client's own address, and
    refused the same way. A raw WebSocket client reads all of it."""
    async with served(tmp_path, connections_per_second=0.1) as (door, port):
        async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}", timeout=10) as http:
            code = (await http.post("/api/tables", json={"seats": [{"type": "human"}] * 2})).json()["code"]
        url = f"ws://127.0.0.1:{port}/ws/tables/{code}"
        async with contextlib.AsyncExitStack() as stack:
            for _ in range(10):  # the burst
                await stack.enter_async_context(connect(url))

            async def refused(**options: Any) -> InvalidStatus:
                with pytest.raises(InvalidStatus) as caught:
                    async with connect(url, **options):
                        pass
                return caught.value

            answer = (await refused()).response
            assert answer.status_code == 429
            assert answer.headers["Retry-After"] == "1"
            assert answer.headers["Content-Type"] == "application/json"
            assert answer.headers["X-Content-Type-Options"] == "nosniff"
            body = json.loads(answer.body)
            assert body["code"] == "rate_limited"
            assert "too many new connections from your address" in body["error"]
            assert door.refused == 1
            forwarded = {"additional_headers": {"X-Forwarded-For": "203.0.113.9"}}
            for _ in range(10):  # the proxy's client has a burst of its own
                await stack.enter_async_context(connect(url, **forwarded))
            answer = (await refused(**forwarded)).response
            assert (answer.status_code, json.loads(answer.body)["code"]) == (429, "rate_limited")
            assert door.refused == 1  # refused by the app, which knows the forwarded address


async def test_a_client_that_drops_its_connection_ends_its_handler_at_once(tmp_path: Path) -> None:
    """A player whose connection drops with no close (the TCP connection aborted, as a closed
    laptop's or a killed tab's) is let go at once: the door forgets it and its handler returns,
    with no wait for a close that can reach nobody (that wait was 5 s, and held every server
    stopped with a page connected as long)."""
    handlers = Handlers()
    async with served(tmp_path, handlers) as (door, port):
        async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}", timeout=10) as http:
            code = (await http.post("/api/tables", json={"seats": [{"type": "human"}] * 2})).json()["code"]
            token = (await http.post(f"/api/tables/{code}/join", json={"name": "A"})).json()["token"]
        ws = await connect(f"ws://127.0.0.1:{port}/ws/tables/{code}")
        await ws.send(json.dumps({"type": "hello", "token": token}))
        while (message := json.loads(await asyncio.wait_for(ws.recv(), 10)))["type"] != "state":
            assert message["type"] != "error", message
        assert handlers.live == 1
        assert len(door._trusted) == 1
        ws.transport.abort()  # gone without a close frame
        await asyncio.wait_for(handlers.ended.wait(), 3)  # well under the 5 s the handler waited
        assert handlers.live == 0
        assert not door._trusted


async def test_where_no_proxy_is_trusted_the_door_counts_forwarded_upgrades_too(tmp_path: Path) -> None:
    """With ``--trusted-proxies none`` (``Door.proxied`` False) Uvicorn never reads
    ``X-Forwarded-For``, so a local process writing one is counted at the door by its own address:
    refused there, as cheaply as any other storm, not handed to the app."""
    async with served(tmp_path, connections_per_second=0.1) as (door, port):
        door.proxied = False
        async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}", timeout=10) as http:
            code = (await http.post("/api/tables", json={"seats": [{"type": "human"}] * 2})).json()["code"]
        url = f"ws://127.0.0.1:{port}/ws/tables/{code}"
        async with contextlib.AsyncExitStack() as stack:
            for n in range(10):  # the burst, each posing as another address
                await stack.enter_async_context(connect(url, additional_headers={"X-Forwarded-For": f"203.0.113.{n}"}))
            with pytest.raises(InvalidStatus) as refused:
                async with connect(url, additional_headers={"X-Forwarded-For": "198.51.100.7"}):
                    pass
            assert refused.value.response.status_code == 429
            assert door.refused == 1  # at the door
