"""Floods against ``thirtyone serve`` while reference tables play at a person's pace, on a busy
machine (issue: a server one client cannot drown).

Starts ``--busy`` CPU-bound processes (default 1: a loop that never sleeps, so that the server
shares the machine as it would on a loaded host), then ``thirtyone serve`` (SQLite in a temp
folder) with its default limits, then ``--tables`` reference tables (default 40) of 4 people who
think about ``--think`` ms a move (default 3000), each table's clients from a loopback address of its
own (127.0.1.N, as people come from their own addresses). While they play, each flood runs for
``--seconds`` (default 20), one after another, from other loopback addresses (127.0.2.N):

- ``none``: no flood (the baseline);
- ``hints``: 24 tables whose one person's seat is flooded with hint requests by 4 connections
  each (96 in all), as fast as the server lets them;
- ``sync``: 1,000 spectator connections (16 addresses) on the reference tables, each sending
  ``sync`` as fast as it can;
- ``reconnect``: 20 spectators (an address each) that send ``sync`` as fast as they can and
  connect again as soon as they have sent 10, or at once when refused or closed;
- ``tables``: table creation as fast as possible from 44 addresses;
- ``idle``: 1,000 connections that say hello and then nothing;
- ``slow``: 200 spectators that never read their socket.

For each flood it prints the reference tables' acknowledgement latency (send → ``ack``) p50 and
p99, and the latency to the last seat's state, the actions acknowledged, and what the flood got
(its messages answered, refused, connections refused, by HTTP status or close code). With
``--before SRC`` (the ``src`` folder of another checkout, e.g. a ``git worktree`` of an older
commit) that checkout's server runs too, at the same time, with reference tables of its own;
each flood runs against one server, then the other (in turns: the first of each pair alternates),
so that both meet the same load on the machine, and a last table gives each flood's figures
before → after (``--probe FILE`` then writes ``FILE.before`` and ``FILE.after``). ``--py-spy DIR``
records what the server does during each flood (py-spy, sampling its threads) into
``DIR/SIDE-FLOOD.txt``: collapsed stacks, the heaviest frames printed. Figures vary with the
machine and with whatever else it runs; no figure here is a test.

Usage: ``python benchmarks/bench_floods.py [--tables N] [--think MS] [--seconds S] [--only FLOOD,…]
[--busy N] [--before SRC] [--py-spy DIR]``.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import contextlib
import json
import multiprocessing
import os
import random
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass
from dataclasses import field
from pathlib import Path
from typing import Any

import httpx
from rich.console import Console
from rich.table import Table
from websockets.asyncio.client import ClientConnection
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed
from websockets.exceptions import InvalidHandshake
from websockets.exceptions import InvalidStatus

sys.path.insert(0, str(Path(__file__).parent))
from bench_server import cpu_seconds
from bench_server import free_port
from bench_server import percentile
from bench_server import start_server

console = Console(width=None if sys.stdout.isatty() else 200)
FLOODS = ("none", "hints", "sync", "reconnect", "tables", "idle", "slow")
SEEDS = True
"""Whether the reference players send client seeds (``--no-seeds``: for a server from before them)."""


def reference_address(index: int) -> str:
    return f"127.0.1.{1 + index % 250}"


def flood_address(index: int) -> str:
    return f"127.0.2.{1 + index % 250}"


@dataclass
class Measured:
    acks: list[float] = field(default_factory=list)
    states: list[float] = field(default_factory=list)
    errors: Counter[str] = field(default_factory=Counter)
    recording: bool = False
    client_lags: list[float] = field(default_factory=list)
    cpu: dict[str, float] = field(default_factory=dict)
    load: float = 0.0


class ReferenceTable:
    """One table of 4 people who think about ``think`` seconds a move, from one address."""

    def __init__(self, base: str, address: str, think: float, measured: Measured, rng: random.Random) -> None:
        self.base = base
        self.address = address
        self.think = think
        self.measured = measured
        self.rng = rng
        self.code: str | None = None

    async def run(self, stop: asyncio.Event) -> None:
        transport = httpx.AsyncHTTPTransport(local_address=self.address)
        async with httpx.AsyncClient(base_url=self.base, transport=transport, timeout=30) as http:
            seats = [{"type": "human"}] * 4
            created = (await http.post("/api/tables", json={"seats": seats})).json()
            code = self.code = created["code"]
            tokens = []
            for seat in range(4):
                body = {"name": f"P{seat}", "seed": os.urandom(16).hex()} if SEEDS else {"name": f"P{seat}"}
                tokens.append((await http.post(f"/api/tables/{code}/join", json=body)).json()["token"])
        ws_base = self.base.replace("http", "ws")
        sockets = [
            await connect(f"{ws_base}/ws/tables/{code}", local_addr=(self.address, 0), max_size=None) for _ in tokens
        ]
        for ws, token in zip(sockets, tokens, strict=True):
            await ws.send(json.dumps({"type": "hello", "token": token}))
        sent: dict[int, float] = {}
        seen: dict[int, set[int]] = {}

        async def seat(number: int, ws: ClientConnection) -> None:
            acted = -1
            async for raw in ws:
                message = json.loads(raw)
                kind = message["type"]
                now = time.perf_counter()
                if kind == "ack" and message["seq"] in sent and self.measured.recording:
                    self.measured.acks.append((now - sent[message["seq"]]) * 1000)
                elif kind == "error":
                    self.measured.errors[message["code"]] += 1
                elif kind == "state":
                    seq = message["seq"]
                    for waiting in [s for s in sent if s <= seq]:
                        seen.setdefault(waiting, set()).add(number)
                        if len(seen[waiting]) == 4:
                            started = sent.pop(waiting)
                            seen.pop(waiting)
                            if self.measured.recording:
                                self.measured.states.append((now - started) * 1000)
                    view = message["view"]
                    if view is None or view["phase"] == "over" or message["table"]["status"] != "playing":
                        if view is not None:
                            return
                        continue
                    if view["is_my_turn"] and seq > acted and not stop.is_set():
                        acted = seq
                        await asyncio.sleep(self.think * (0.5 + self.rng.random()))
                        legal = [a for a in view["legal_actions"] if a != "knock"] or view["legal_actions"]
                        sent[seq + 1] = time.perf_counter()
                        await ws.send(json.dumps({"type": "action", "action": self.rng.choice(legal), "seq": seq}))

        tasks = [asyncio.create_task(seat(number, ws)) for number, ws in enumerate(sockets)]
        await stop.wait()
        for task in tasks:
            task.cancel()
        for ws in sockets:
            with contextlib.suppress(Exception):
                await ws.close()


@dataclass
class FloodResult:
    answered: Counter[str] = field(default_factory=Counter)
    refused_connections: int = 0
    connections: int = 0


async def flood_hints(base: str, seconds: float, result: FloodResult) -> None:
    ws_base = base.replace("http", "ws")

    async def one_table(index: int) -> None:
        address = flood_address(index)
        transport = httpx.AsyncHTTPTransport(local_address=address)
        async with httpx.AsyncClient(base_url=base, transport=transport, timeout=30) as http:
            created = (await http.post("/api/tables", json={"seats": [{"type": "human"}, {"type": "bot"}]})).json()
            joined = (await http.post(f"/api/tables/{created['code']}/join", json={"name": "F"})).json()
        deadline = time.monotonic() + seconds

        async def asker() -> None:
            try:
                async with connect(f"{ws_base}/ws/tables/{created['code']}", local_addr=(address, 0)) as ws:
                    result.connections += 1
                    await ws.send(json.dumps({"type": "hello", "token": joined["token"]}))
                    while time.monotonic() < deadline:
                        await ws.send(json.dumps({"type": "hint"}))
                        try:
                            raw = await asyncio.wait_for(ws.recv(), 0.2)
                            message = json.loads(raw)
                            result.answered[message.get("code") or message["type"]] += 1
                        except TimeoutError:
                            pass
            except (ConnectionClosed, InvalidStatus, OSError):
                result.refused_connections += 1

        await asyncio.gather(*(asker() for _ in range(4)))

    await asyncio.gather(*(one_table(index) for index in range(24)))


async def spectators(base: str, codes: list[str], count: int, seconds: float, result: FloodResult, mode: str) -> None:
    ws_base = base.replace("http", "ws")
    deadline = time.monotonic() + seconds

    async def one(index: int) -> None:
        address = flood_address(index // 63)
        try:
            async with connect(f"{ws_base}/ws/tables/{codes[index % len(codes)]}", local_addr=(address, 0)) as ws:
                await ws.send(json.dumps({"type": "hello"}))
                first = json.loads(await ws.recv())
                if first["type"] == "error":
                    result.refused_connections += 1
                    return
                result.connections += 1
                while time.monotonic() < deadline:
                    if mode == "sync":
                        await ws.send(json.dumps({"type": "sync"}))
                        try:
                            message = json.loads(await asyncio.wait_for(ws.recv(), 0.05))
                            result.answered[message.get("code") or message["type"]] += 1
                        except TimeoutError:
                            pass
                    else:
                        await asyncio.sleep(0.5)
                        with contextlib.suppress(TimeoutError):
                            while True:
                                await asyncio.wait_for(ws.recv(), 0.001)
        except (ConnectionClosed, InvalidStatus, OSError):
            result.refused_connections += 1

    await asyncio.gather(*(one(index) for index in range(count)))


def refusal(error: Exception) -> str:
    """How a connection was refused or ended: ``HTTP 429`` at the handshake, ``close 4429`` after it."""
    if isinstance(error, InvalidStatus):
        return f"HTTP {error.response.status_code}"
    if isinstance(error, ConnectionClosed):
        return f"close {error.rcvd.code if error.rcvd else 1006}"
    return type(error).__name__


async def reconnecting(base: str, codes: list[str], count: int, seconds: float, result: FloodResult) -> None:
    """``count`` spectators, an address each, sending ``sync`` as fast as they can and connecting
    again after every 10 (at once when refused or closed)."""
    ws_base = base.replace("http", "ws")
    deadline = time.monotonic() + seconds

    async def one(index: int) -> None:
        address = flood_address(200 + index)
        url = f"{ws_base}/ws/tables/{codes[index % len(codes)]}"
        while time.monotonic() < deadline:
            try:
                async with connect(url, local_addr=(address, 0), open_timeout=10, close_timeout=1) as ws:
                    await ws.send(json.dumps({"type": "hello"}))
                    first = json.loads(await ws.recv())
                    if first["type"] == "error":
                        result.answered[first["code"]] += 1
                        await ws.recv()  # the close that follows
                    result.connections += 1
                    for _ in range(10):
                        await ws.send(json.dumps({"type": "sync"}))
                    with contextlib.suppress(TimeoutError):
                        while True:
                            message = json.loads(await asyncio.wait_for(ws.recv(), 0.01))
                            result.answered[message.get("code") or message["type"]] += 1
            except (ConnectionClosed, InvalidHandshake, OSError, TimeoutError) as error:
                result.refused_connections += 1
                result.answered[refusal(error)] += 1

    await asyncio.gather(*(one(index) for index in range(count)))


async def flood_tables(base: str, seconds: float, result: FloodResult, addresses: int = 44) -> None:
    deadline = time.monotonic() + seconds

    async def one(address: str) -> None:
        transport = httpx.AsyncHTTPTransport(local_address=address)
        async with httpx.AsyncClient(base_url=base, transport=transport, timeout=30) as http:
            while time.monotonic() < deadline:
                answer = await http.post("/api/tables", json={"seats": [{"type": "human"}, {"type": "bot"}]})
                result.answered[str(answer.status_code)] += 1

    await asyncio.gather(*(one(flood_address(index)) for index in range(addresses)))


async def slow_readers(base: str, codes: list[str], count: int, seconds: float, result: FloodResult) -> None:
    """Spectators that say hello and then never read: a raw socket with a small receive buffer."""
    host, port = base.removeprefix("http://").split(":")
    writers = []
    for index in range(count):
        sock = socket.socket()
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        sock.bind((flood_address(100 + index // 60), 0))
        sock.setblocking(False)
        try:
            await asyncio.get_running_loop().sock_connect(sock, (host, int(port)))
            reader, writer = await asyncio.open_connection(sock=sock)
            key = base64.b64encode(os.urandom(16)).decode()
            writer.write(
                (
                    f"GET /ws/tables/{codes[index % len(codes)]} HTTP/1.1\r\nHost: {host}:{port}\r\n"
                    f"Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
                    "Sec-WebSocket-Version: 13\r\n\r\n"
                ).encode()
            )
            await reader.readuntil(b"\r\n\r\n")
            payload = json.dumps({"type": "hello"}).encode()
            mask = os.urandom(4)
            masked = bytes(byte ^ mask[i % 4] for i, byte in enumerate(payload))
            writer.write(bytes([0x81, 0x80 | len(payload)]) + mask + masked)
            writers.append(writer)
            result.connections += 1
        except (OSError, asyncio.IncompleteReadError):
            result.refused_connections += 1
    await asyncio.sleep(seconds)  # never reading
    for writer in writers:
        writer.close()


def run_flood(name: str, base: str, codes: list[str], seconds: float, out: Any) -> None:
    """One flood, in a process of its own; its result goes to ``out``."""
    result = FloodResult()

    async def flood() -> None:
        if name == "none":
            await asyncio.sleep(seconds)
        elif name == "hints":
            await flood_hints(base, seconds, result)
        elif name == "sync":
            await spectators(base, codes, 1000, seconds, result, "sync")
        elif name == "reconnect":
            await reconnecting(base, codes, 20, seconds, result)
        elif name == "tables":
            await flood_tables(base, seconds, result)
        elif name == "idle":
            await spectators(base, codes, 1000, seconds, result, "idle")
        elif name == "slow":
            await slow_readers(base, codes, 200, seconds, result)

    asyncio.run(flood())
    out.put(result)


def tree_cpu_seconds(pid: int) -> float:
    """CPU seconds of process ``pid`` and of its live children (the server's worker processes)."""
    total = cpu_seconds(pid)
    with contextlib.suppress(OSError):
        for child in Path(f"/proc/{pid}/task/{pid}/children").read_text().split():
            with contextlib.suppress(OSError, ValueError):
                total += cpu_seconds(int(child))
    return total


async def watch_lag(measured: Measured) -> None:
    """How late a 10 ms timer fires in the reference clients' own loop (ms): a late client reads
    its acks late, whatever the server did."""
    loop = asyncio.get_running_loop()
    while True:
        planned = loop.time() + 0.010
        await asyncio.sleep(0.010)
        if measured.recording:
            measured.client_lags.append((loop.time() - planned) * 1000)


Outcome = tuple[str, Measured, FloodResult]


def burn() -> None:
    """A CPU-bound process: the machine is busy with something else too."""
    while True:
        pass


def py_spy() -> str | None:
    """The py-spy program (PyPI ``py-spy``) beside this Python or on the PATH."""
    beside = Path(sys.executable).with_name("py-spy")
    return str(beside) if beside.exists() else shutil.which("py-spy")


def heaviest(path: Path, count: int = 12) -> list[tuple[float, str]]:
    """The ``count`` functions of a py-spy raw (collapsed stacks) file where the sampled thread
    spent most of its samples, itself and below: ``(share 0-1, frame)``."""
    totals: Counter[str] = Counter()
    samples = 0
    for line in path.read_text().splitlines():
        stack, _, number = line.rpartition(" ")
        if not number.isdigit():
            continue
        samples += int(number)
        for frame in set(stack.split(";")):
            totals[frame] += int(number)
    return [(n / max(1, samples), frame) for frame, n in totals.most_common(count)]


@dataclass
class Served:
    """One server of the run: ``side`` (``before``/``after``), its URL, process and reference tables."""

    side: str
    base: str
    pid: int
    measured: Measured = field(default_factory=Measured)
    codes: list[str] = field(default_factory=list)
    results: list[Outcome] = field(default_factory=list)


async def flood_one(args: argparse.Namespace, name: str, served: Served) -> Outcome:
    """Flood ``served`` with ``name`` for ``args.seconds`` while its reference tables' acks are recorded."""
    measured = served.measured
    measured.acks, measured.states, measured.client_lags = [], [], []
    measured.errors.clear()
    measured.recording = True
    cpu_before = {"server": tree_cpu_seconds(served.pid), "reference clients": cpu_seconds(os.getpid())}
    started = time.perf_counter()
    # the flood runs in a process of its own, so that its clients' work does not slow the
    # reference tables' clients (whose latency is what is measured)
    context = multiprocessing.get_context("fork")
    out = context.Queue()
    flooder = context.Process(target=run_flood, args=(name, served.base, served.codes, args.seconds, out))
    flooder.start()
    spy = None
    if args.py_spy:
        profile = Path(args.py_spy) / f"{served.side}-{name}.txt"
        spy = subprocess.Popen(
            [
                *(py_spy() or "py-spy", "record", "--pid", str(served.pid), "--duration", f"{args.seconds:g}"),
                *("--rate", "200", "--format", "raw", "--nonblocking", "--output", str(profile)),
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
    flood_cpu = 0.0
    while flooder.is_alive():
        with contextlib.suppress(OSError):
            flood_cpu = cpu_seconds(flooder.pid or 0)
        await asyncio.sleep(0.2)
    result = out.get() if not out.empty() else FloodResult()
    if spy is not None:
        spy.wait()
    measured.recording = False
    elapsed = time.perf_counter() - started
    cpu = {"server": tree_cpu_seconds(served.pid), "reference clients": cpu_seconds(os.getpid())}
    shares = {who: (cpu[who] - cpu_before[who]) / elapsed for who in cpu} | {"flood": flood_cpu / elapsed}
    kept = Measured(
        list(measured.acks),
        list(measured.states),
        Counter(measured.errors),
        client_lags=list(measured.client_lags),
        cpu=shares,
        load=os.getloadavg()[0],
    )
    return name, kept, result


async def main_async(args: argparse.Namespace, servers: list[Served]) -> None:
    """Reference tables on every server, then each flood against each server in turn (the order
    alternating from one flood to the next, so that a load that drifts falls on both alike)."""
    stop = asyncio.Event()
    rng = random.Random(args.seed)
    watchers, players = [], []
    tables: dict[str, list[ReferenceTable]] = {}
    for served in servers:
        watchers.append(asyncio.create_task(watch_lag(served.measured)))
        think = args.think / 1000
        mine = [
            ReferenceTable(served.base, reference_address(i), think, served.measured, rng) for i in range(args.tables)
        ]
        tables[served.side] = mine
        players += [asyncio.create_task(table.run(stop)) for table in mine]
    for _ in range(600):  # every table created (a loaded machine takes a while), then seated and playing
        if all(table.code is not None for mine in tables.values() for table in mine):
            break
        await asyncio.sleep(0.1)
    await asyncio.sleep(5)
    for served in servers:  # private tables: not in the lobby
        served.codes = [table.code for table in tables[served.side] if table.code is not None]
    for number, name in enumerate(args.only):
        for served in servers if number % 2 == 0 else servers[::-1]:
            console.print(f"flood: {name} for {args.seconds:g} s against {served.side} …")
            served.results.append(await flood_one(args, name, served))
            await asyncio.sleep(2)  # the flood's connections close
    stop.set()
    for task in [*watchers, *players]:
        task.cancel()


def run_sides(args: argparse.Namespace, sides: list[tuple[str, str | None]]) -> list[Served]:
    """Every flood against each server: ``sides`` are ``(side, source)``, ``source`` another
    checkout's ``src`` (``None``: this one's)."""
    folder = tempfile.mkdtemp(prefix="bench-floods-")
    processes = []
    servers = []
    try:
        for side, source in sides:
            port = free_port()
            probe = f"{args.probe}.{side}" if args.probe and len(sides) > 1 else args.probe
            database = f"sqlite:///{folder}/{side}.db"
            process = start_server(database, port, probe=probe, limits=False, source=source)
            processes.append(process)
            servers.append(Served(side, f"http://127.0.0.1:{port}", process.pid))
        asyncio.run(main_async(args, servers))
        return servers
    finally:
        for process in processes:
            process.terminate()
            process.wait(30)
        shutil.rmtree(folder, ignore_errors=True)


def show(title: str, results: list[Outcome]) -> None:
    summary = Table(title=title)
    columns = ("flood", "acks", "ack p50", "ack p99", "state p99", "client lag p99", "cores used", "load")
    for column in (*columns, "reference errors", "the flood got"):
        left = column in ("flood", "reference errors", "the flood got")
        summary.add_column(column, justify="left" if left else "right")
    for name, measured, result in results:
        got = ", ".join(f"{k}: {v}" for k, v in result.answered.most_common(5))
        got += f"; connections {result.connections} in, {result.refused_connections} refused"
        summary.add_row(
            name,
            str(len(measured.acks)),
            f"{percentile(measured.acks, 0.5):.1f} ms",
            f"{percentile(measured.acks, 0.99):.1f} ms",
            f"{percentile(measured.states, 0.99):.1f} ms",
            f"{percentile(measured.client_lags, 0.99):.1f} ms",
            " / ".join(f"{share:.2f}" for share in measured.cpu.values()),
            f"{measured.load:.1f}",
            ", ".join(f"{k}: {v}" for k, v in measured.errors.items()) or "none",
            got,
        )
    console.print(summary)


def compare(before: list[Outcome], after: list[Outcome]) -> None:
    table = Table(title="reference tables during each flood: before → after")
    for column in ("flood", "ack p50", "ack p99", "state p99", "server cores"):
        table.add_column(column, justify="left" if column == "flood" else "right")
    old = {name: measured for name, measured, _ in before}

    def pair(was: list[float], now: list[float], share: float) -> str:
        return f"{percentile(was, share):.1f} → {percentile(now, share):.1f} ms"

    for name, new, _ in after:
        if name in old:
            was = old[name]
            cores = f"{was.cpu.get('server', 0):.2f} → {new.cpu.get('server', 0):.2f}"
            row = (pair(was.acks, new.acks, 0.5), pair(was.acks, new.acks, 0.99), pair(was.states, new.states, 0.99))
            table.add_row(name, *row, cores)
    console.print(table)


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=40)
    parser.add_argument("--think", type=float, default=3000.0, metavar="MS")
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--only", default=",".join(FLOODS), help=f"floods to run, of {', '.join(FLOODS)}")
    parser.add_argument("--no-seeds", action="store_true", help="send no client seeds (a server from before them)")
    parser.add_argument("--probe", metavar="FILE", help="write the server's stall probes (probe_server.py) to FILE")
    parser.add_argument("--busy", type=int, default=1, metavar="N", help="CPU-bound processes besides (default 1)")
    parser.add_argument("--before", metavar="SRC", help="first run the floods against the server in SRC (a src folder)")
    parser.add_argument("--py-spy", metavar="DIR", help="record the server's event loop in each flood (py-spy) to DIR")
    args = parser.parse_args()
    global SEEDS
    SEEDS = not args.no_seeds
    args.only = [name for name in args.only.split(",") if name]
    if not set(args.only) <= set(FLOODS):
        parser.error(f"--only: choose among {', '.join(FLOODS)}")
    if args.before and not (Path(args.before) / "thirtyone" / "__init__.py").exists():
        parser.error(f"--before {args.before}: not a src folder holding thirtyone")
    if args.py_spy:
        if py_spy() is None:
            parser.error("--py-spy needs py-spy (pip install py-spy)")
        Path(args.py_spy).mkdir(parents=True, exist_ok=True)
    context = multiprocessing.get_context("fork")
    burners = [context.Process(target=burn, daemon=True) for _ in range(args.busy)]
    for burner in burners:
        burner.start()
    wanted: list[tuple[str, str | None]] = [("before", args.before)] if args.before else []
    wanted.append(("after", None))
    for side, source in wanted:
        console.print(f"[bold]{side}[/]: the server from {source or 'this checkout'}")
    try:
        sides = {served.side: served.results for served in run_sides(args, wanted)}
    finally:
        for burner in burners:
            burner.terminate()
    busy = f"{args.busy} other CPU-bound process{'es' if args.busy != 1 else ''} busy all along"
    for side, results in sides.items():
        where = f" ({side}: {args.before})" if side == "before" else (" (after: this checkout)" if args.before else "")
        show(f"floods against {args.tables} reference tables of 4 people thinking ~{args.think:g} ms, "
             f"{busy}{where}", results)  # fmt: skip
    if "before" in sides:
        compare(sides["before"], sides["after"])
    console.print("cores used: the server with its workers / the reference clients / the flood's process")
    console.print("load: the machine's load average (1 min) at the flood's end")
    load = os.getloadavg()[0]
    console.print(f"the machine: {busy}; load average (1 min) at the end: {load:.2f}; cores: {os.cpu_count()}")
    if args.py_spy:
        for side in sides:
            for name in args.only:
                path = Path(args.py_spy) / f"{side}-{name}.txt"
                if path.exists():
                    console.print(f"[bold]{side} {name}[/]: where the server's threads spent their samples")
                    for share, frame in heaviest(path):
                        console.print(f"  {share:6.1%}  {frame[:150]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
