"""The server under load, then killed under load (issue: network server, load benchmark).

Starts ``thirtyone serve`` as a subprocess (an SQLite file in a temp folder by default;
``--database-url`` for PostgreSQL) with bots playing at once and the per-connection rate limits
raised, then opens ``--tables`` tables (default 100) of ``--players`` people each (default 4, every
seat a person) played by scripted WebSocket clients: each client, when its view says it is its turn,
sends a legal action (a seeded random choice among ``legal_actions``, knocking rarely so that rounds
last), as fast as the server answers (or after about ``--think`` ms, a person's pace), for ``--seconds``
(default 30). A table whose game ends is
replaced by a new one. The clients run in ``--client-processes`` processes (default 1; each holds
whole tables), and the client CPU is reported so that one can see whether the clients, not the
server, were the bottleneck.

Prints:
- actions/s (acknowledged) over the measured window;
- latency from sending an action to the moment the LAST seat of that table got the state with the
  new seq: p50, p90, p99, max (ms);
- the server's RSS before the tables were created and after the run with them loaded, and so MB a
  table; the server's CPU (user + system, % of one core) and the clients';
- the machine's load average (``os.getloadavg``) before and after.

Then, while the clients still play, the server is killed with SIGKILL; every ack each client got
(table code, seq, action) is looked up in the database after a restart on the same database, and
every table must answer ``GET /api/tables/{code}`` with a ``seq`` at least its last ack. Exits 1
if any acknowledged action was lost or a table did not resume.

Usage: ``python benchmarks/bench_server.py [--seconds S] [--tables N] [--players N]
[--think MS] [--client-processes N] [--database-url URL] [--profile FILE]``. ``--profile FILE`` runs the server
under cProfile (slower) and stops it cleanly (SIGINT) to write the statistics to FILE: no kill phase
then. Figures vary with the machine and with whatever else it runs.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import queue
import random
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from dataclasses import dataclass
from dataclasses import field
from pathlib import Path
from typing import Any

import httpx
from rich.console import Console
from rich.table import Table
from sqlalchemy import create_engine
from sqlalchemy import text
from websockets.asyncio.client import ClientConnection
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from thirtyone.server.db import normalize_url

STARTUP_SECONDS = 60.0
"""How long the server may take to answer GET /api/health."""
STATE_PREFIX = '{"type":"state","seq":'
"""How the server writes every state message (its type, then its seq, compact JSON)."""
MY_TURN = '"is_my_turn":true'
OVER = '"phase":"over"'
KNOCK_CHANCE = 0.05
"""How often the scripted player knocks when it may (rarely: longer rounds, fewer deals)."""

UNLIMITED = [
    *("--requests-per-second", "1000000", "--tables-per-minute", "1000000", "--table-burst", "1000000"),
    *("--max-connections", "1000000", "--max-connections-per-address", "1000000", "--connections-per-second", "1e6"),
    *("--address-messages-per-second", "1000000", "--max-tables", "1000000"),
]
"""The per-address limits raised: every scripted player comes from 127.0.0.1."""

console = Console()


# ---------------------------------------------------------------------------------------------- the server


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def start_server(
    database_url: str,
    port: int,
    profile: str | None = None,
    probe: str | None = None,
    limits: bool = True,
    source: str | None = None,
) -> subprocess.Popen[bytes]:
    """``thirtyone serve`` on ``port``, bots at once, rate limits raised (``limits=False``: the
    defaults); returns once it answers. ``probe``: run it under ``probe_server.py``, which writes
    stall probes to that file. ``source``: the ``src`` folder of another checkout whose server
    runs instead of this one's (put first on ``PYTHONPATH``)."""
    serve = ["-m", "thirtyone", "serve"] if profile is None else ["-m", "cProfile", "-o", profile, "-m", "thirtyone"]
    if profile is not None:
        serve.append("serve")
    env = dict(os.environ)
    if source is not None:
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [source, env.get("PYTHONPATH")]))
    if probe is not None:
        serve = [str(Path(__file__).with_name("probe_server.py")), "serve"]
        env["THIRTYONE_PROBE"] = probe
    command = [sys.executable, *serve, "--port", str(port), "--database-url", database_url, "--bot-delay", "0"]
    command += ["--log-level", "warning"]
    if limits:
        command += ["--messages-per-second", "1000", "--message-burst", "10000", *UNLIMITED]
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, env=env)
    deadline = time.monotonic() + STARTUP_SECONDS
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise SystemExit(f"bench_server: the server exited with status {process.returncode}")
        try:
            if httpx.get(f"http://127.0.0.1:{port}/api/health", timeout=1.0).status_code == 200:
                return process
        except httpx.TransportError:
            pass
        time.sleep(0.1)
    process.kill()
    raise SystemExit(f"bench_server: the server did not answer within {STARTUP_SECONDS:g} s")


def rss_mb(pid: int) -> float:
    """The resident memory of process ``pid``, MB (from /proc)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError(f"no VmRSS for process {pid}")


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds process ``pid`` has used (from /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


# ---------------------------------------------------------------------------------------------- the clients


@dataclass
class ClientResult:
    """What one client process measured: latencies (ms) and acks within the window, every ack
    ``(code, seq, action)``, errors, tables played, the process's CPU seconds, and how late a 10 ms
    timer fired in its own event loop within the window (ms: a late client reads its states late,
    whatever the server did)."""

    latencies: list[float] = field(default_factory=list)
    lags: list[float] = field(default_factory=list)
    acks_in_window: int = 0
    acks: list[tuple[str, int, str]] = field(default_factory=list)
    errors: dict[str, int] = field(default_factory=dict)
    tables: int = 0
    games_finished: int = 0
    cpu: float = 0.0


class Clients:
    """The tables one client process plays, and what it measures."""

    def __init__(self, port: int, players: int, seed: int, think: float) -> None:
        self.base = f"http://127.0.0.1:{port}"
        self.ws_base = f"ws://127.0.0.1:{port}"
        self.players = players
        self.think = think
        self.rng = random.Random(seed)
        self.result = ClientResult()
        self.errors: dict[str, int] = defaultdict(int)
        self.window = (float("inf"), float("inf"))

    async def open_table(self, http: httpx.AsyncClient) -> tuple[str, list[str]]:
        """A new table with every seat taken: its code and the seats' tokens."""
        body = {"preset": "scat", "seats": [{"type": "human"}] * self.players, "name": "P0"}
        response = await http.post("/api/tables", json=body)
        response.raise_for_status()
        created = response.json()
        tokens = [created["token"]]
        for seat in range(1, self.players):
            joined = await http.post(f"/api/tables/{created['code']}/join", json={"name": f"P{seat}"})
            joined.raise_for_status()
            tokens.append(joined.json()["token"])
        self.result.tables += 1
        return created["code"], tokens

    async def seat_sockets(self, code: str, tokens: list[str]) -> list[ClientConnection]:
        sockets = []
        for token in tokens:
            ws = await connect(f"{self.ws_base}/ws/tables/{code}", open_timeout=60, close_timeout=1, max_size=None)
            await ws.send(json.dumps({"type": "hello", "token": token}))
            sockets.append(ws)
        return sockets

    async def play(self, code: str, sockets: list[ClientConnection]) -> bool:
        """Play the table until its game is over (True) or the server goes away (False)."""
        sent: dict[int, float] = {}  # new seq -> when the action was sent
        seen: dict[int, set[int]] = defaultdict(set)  # new seq -> seats that got its state
        over = asyncio.Event()

        async def seat(number: int, ws: ClientConnection) -> None:
            acted = -1
            async for raw in ws:
                if isinstance(raw, str) and raw.startswith(STATE_PREFIX) and MY_TURN not in raw and OVER not in raw:
                    # a state that asks nothing of this seat: only its seq matters (the server writes
                    # "type" and "seq" first), so the load generator does not parse every view
                    seq = int(raw[len(STATE_PREFIX) : raw.index(",", len(STATE_PREFIX))])
                    self.seen_state(number, seq, sent, seen)
                    if '"status":"playing"' not in raw:
                        over.set()
                        return
                    continue
                message = json.loads(raw)
                kind = message["type"]
                if kind == "ack":
                    self.result.acks.append((code, message["seq"], message["action"]))
                    if self.window[0] <= sent.get(message["seq"], -1.0) < self.window[1]:
                        self.result.acks_in_window += 1
                elif kind == "error":
                    self.errors[message["code"]] += 1
                elif kind == "state":
                    seq = message["seq"]
                    self.seen_state(number, seq, sent, seen)
                    view = message["view"]
                    if view is None:
                        continue
                    if view["phase"] == "over" or message["table"]["status"] != "playing":
                        over.set()
                        return
                    if view["is_my_turn"] and seq > acted:
                        acted = seq
                        if self.think > 0:  # a person's pace, 0.5-1.5 x think so that tables do not move in step
                            await asyncio.sleep(self.think * (0.5 + self.rng.random()))
                        sent[seq + 1] = time.perf_counter()
                        await ws.send(json.dumps({"type": "action", "action": self.choose(view), "seq": seq}))

        tasks = [asyncio.create_task(seat(number, ws)) for number, ws in enumerate(sockets)]
        try:
            await asyncio.gather(*tasks)
        except ConnectionClosed:
            for task in tasks:
                task.cancel()
            return False
        finally:
            for ws in sockets:
                await ws.close()
        return over.is_set()

    def seen_state(self, number: int, seq: int, sent: dict[int, float], seen: dict[int, set[int]]) -> None:
        """Seat ``number`` got the state of ``seq``: an action is done when every seat has its state."""
        for waiting in [s for s in sent if s <= seq]:
            seen[waiting].add(number)
            if len(seen[waiting]) == self.players:
                started = sent.pop(waiting)
                del seen[waiting]
                if self.window[0] <= started < self.window[1]:
                    self.result.latencies.append((time.perf_counter() - started) * 1000)

    def choose(self, view: dict[str, Any]) -> str:
        legal: list[str] = view["legal_actions"]
        if "knock" in legal and self.rng.random() >= KNOCK_CHANCE and len(legal) > 1:
            legal = [action for action in legal if action != "knock"]
        return self.rng.choice(legal)

    async def table_loop(self, http: httpx.AsyncClient, first: tuple[str, list[ClientConnection]]) -> None:
        code, sockets = first
        while True:
            finished = await self.play(code, sockets)
            if not finished:
                return
            self.result.games_finished += 1
            try:
                code, tokens = await self.open_table(http)
                sockets = await self.seat_sockets(code, tokens)
            except (httpx.HTTPError, OSError, ConnectionClosed):
                return  # the server was killed meanwhile

    async def watch_lag(self) -> None:
        loop = asyncio.get_running_loop()
        while time.perf_counter() < self.window[1]:
            planned = loop.time() + 0.010
            await asyncio.sleep(0.010)
            self.result.lags.append((loop.time() - planned) * 1000)

    async def run(self, tables: int, ready: Any, start: Any, seconds: float) -> ClientResult:
        limits = httpx.Limits(max_connections=20)
        async with httpx.AsyncClient(base_url=self.base, timeout=60, limits=limits) as http:
            opened = []
            for _ in range(tables):
                code, tokens = await self.open_table(http)
                opened.append((code, await self.seat_sockets(code, tokens)))
            ready.set()
            await asyncio.to_thread(start.wait)
            cpu_start = time.process_time()
            now = time.perf_counter()
            self.window = (now, now + seconds)
            watcher = asyncio.create_task(self.watch_lag())
            await asyncio.gather(*(self.table_loop(http, table) for table in opened))
            watcher.cancel()
        self.result.errors = dict(self.errors)
        self.result.cpu = time.process_time() - cpu_start
        return self.result


def client_process(port: int, players: int, tables: int, seed: int, think: float, seconds: float, ready: Any,
                   start: Any, out: Any) -> None:  # fmt: skip
    """One client process: open its tables, wait for the start, play until the server is gone."""
    clients = Clients(port, players, seed, think)
    out.put(asyncio.run(clients.run(tables, ready, start, seconds)))


# ---------------------------------------------------------------------------------------------- the checks


def lost_acks(database_url: str, acks: list[tuple[str, int, str]]) -> tuple[int, int]:
    """Acknowledged actions missing from the database (or stored as another action), and tables checked."""
    engine = create_engine(normalize_url(database_url))
    stored: dict[tuple[str, int], str] = {}
    codes = sorted({code for code, _, _ in acks})
    with engine.connect() as connection:
        for start in range(0, len(codes), 500):
            chunk = codes[start : start + 500]
            marks = ", ".join(f":c{i}" for i in range(len(chunk)))
            rows = connection.execute(
                text(f"SELECT table_code, seq, action FROM actions WHERE table_code IN ({marks})"),
                {f"c{i}": code for i, code in enumerate(chunk)},
            )
            stored.update({(code, seq): action for code, seq, action in rows})
    engine.dispose()
    return sum(1 for code, seq, action in acks if stored.get((code, seq)) != action), len(codes)


def unresumed(port: int, acks: list[tuple[str, int, str]]) -> list[str]:
    """Tables whose GET /api/tables/{code} fails or is behind their last ack."""
    last: dict[str, int] = defaultdict(int)
    for code, seq, _ in acks:
        last[code] = max(last[code], seq)
    bad = []
    with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=30) as http:
        for code, seq in last.items():
            response = http.get(f"/api/tables/{code}")
            if response.status_code != 200 or response.json()["table"]["seq"] < seq:
                bad.append(code)
    return bad


def percentile(values: list[float], share: float) -> float:
    """The ``share`` (0-1) percentile of ``values`` (0 for fewer than two)."""
    if len(values) < 2:
        return values[0] if values else 0.0
    return statistics.quantiles(values, n=1000, method="inclusive")[round(share * 1000) - 1]


# ---------------------------------------------------------------------------------------------- main


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=30.0, help="measured play, seconds (default 30)")
    parser.add_argument("--tables", type=int, default=100, help="tables played at once (default 100)")
    parser.add_argument("--players", type=int, default=4, help="people at each table, 2-9 (default 4)")
    parser.add_argument("--client-processes", type=int, default=1, help="client processes (default 1)")
    parser.add_argument("--database-url", default=None, help="default: an SQLite file in a temp folder")
    parser.add_argument("--think", type=float, default=0.0, metavar="MS", help="pause before each action, ms (0: none)")
    parser.add_argument("--seed", type=int, default=1, help="the scripted players' seed")
    parser.add_argument("--profile", metavar="FILE", help="run the server under cProfile; no kill phase")
    parser.add_argument("--probe", metavar="FILE", help="write the server's stall probes (probe_server.py) to FILE")
    args = parser.parse_args()
    if not args.seconds > 0 or args.tables < 1 or not 2 <= args.players <= 9 or args.think < 0:
        parser.error("--seconds above 0, --tables at least 1, --players from 2 to 9, --think at least 0")
    if not 1 <= args.client_processes <= args.tables:
        parser.error("--client-processes: from 1 to the number of tables")
    return args


@dataclass
class Run:
    """What the main process measured around the clients' play."""

    results: list[ClientResult]
    wall: float
    server_cpu: float
    rss: tuple[float, float, float]
    load: tuple[float, float]


def load_and_kill(args: argparse.Namespace, database_url: str, port: int) -> Run:
    """Start the server, let the client processes open their tables and play for ``args.seconds``,
    then kill the server under load (or, with ``--profile``, stop it cleanly); every process this
    starts has ended when it returns, whatever happens."""
    load_before = os.getloadavg()
    server = start_server(database_url, port, args.profile, args.probe)
    context = multiprocessing.get_context("fork")
    ready = [context.Event() for _ in range(args.client_processes)]
    start, out = context.Event(), context.Queue()
    processes = []
    try:
        rss_before = rss_mb(server.pid)
        for i in range(args.client_processes):
            share = args.tables // args.client_processes + (i < args.tables % args.client_processes)
            seed = args.seed * 1000 + i
            work = (port, args.players, share, seed, args.think / 1000, args.seconds, ready[i], start, out)
            processes.append(context.Process(target=client_process, args=work))
            processes[-1].start()
        console.print(f"server pid {server.pid}: opening {args.tables} tables of {args.players} people …")
        for event in ready:
            while not event.wait(1.0):
                if not all(process.is_alive() for process in processes):
                    raise SystemExit("bench_server: a client process failed while opening its tables")
        rss_loaded = rss_mb(server.pid)
        cpu_start, wall_start = cpu_seconds(server.pid), time.perf_counter()
        start.set()
        console.print(f"playing for {args.seconds:g} s …")
        time.sleep(args.seconds)
        server_cpu, wall = cpu_seconds(server.pid) - cpu_start, time.perf_counter() - wall_start
        rss_after = rss_mb(server.pid)
        if args.profile:
            server.send_signal(signal.SIGINT)
            server.wait(60)
        else:
            os.kill(server.pid, signal.SIGKILL)  # under load: the clients are still playing
            server.wait(10)
        try:
            results: list[ClientResult] = [out.get(timeout=120) for _ in processes]
        except queue.Empty:
            raise SystemExit("bench_server: a client process gave no result (see its error above)") from None
        return Run(results, wall, server_cpu, (rss_before, rss_loaded, rss_after), (load_before[0], os.getloadavg()[0]))
    finally:
        if server.poll() is None:
            server.kill()
            server.wait(10)
        for process in processes:
            process.join(30)
            if process.is_alive():
                process.kill()


def check_after_restart(database_url: str, port: int, acks: list[tuple[str, int, str]]) -> tuple[int, int, int]:
    """Restart the server on the database: (acknowledged actions lost, tables not resumed, tables checked)."""
    server = start_server(database_url, port)
    try:
        missing, checked = lost_acks(database_url, acks)
        bad = unresumed(port, acks)
    finally:
        server.terminate()
        server.wait(30)
    return missing, len(bad), checked


def main() -> int:
    args = parse_args()
    folder = None if args.database_url else tempfile.mkdtemp(prefix="bench-server-")
    database_url = args.database_url or f"sqlite:///{folder}/bench.db"
    port = free_port()
    try:
        run = load_and_kill(args, database_url, port)
        acks = [ack for result in run.results for ack in result.acks]
        lost = None if args.profile else check_after_restart(database_url, port, acks)
    finally:
        if folder is not None:
            shutil.rmtree(folder, ignore_errors=True)

    results, wall = run.results, run.wall
    latencies = sorted(value for result in results for value in result.latencies)
    errors: dict[str, int] = defaultdict(int)
    for result in results:
        for code, count in result.errors.items():
            errors[code] += count
    pace = "as fast as possible" if args.think <= 0 else f"about {args.think:g} ms to think"
    summary = Table(title=f"thirtyone serve under load: {args.tables} tables x {args.players} people, {pace}")
    summary.add_column("measure")
    summary.add_column("value", justify="right")
    summary.add_row("database", database_url.split("@")[-1] if args.database_url else "SQLite (temp file)")
    summary.add_row("measured window", f"{wall:.1f} s")
    summary.add_row("actions/s (acknowledged)", f"{sum(r.acks_in_window for r in results) / wall:,.0f}")
    summary.add_row("latency samples", f"{len(latencies):,}")
    for name, share in (("p50", 0.5), ("p90", 0.9), ("p99", 0.99)):
        summary.add_row(f"latency {name} (send → last seat's state)", f"{percentile(latencies, share):.1f} ms")
    summary.add_row("latency max", f"{latencies[-1] if latencies else 0.0:.1f} ms")
    lags = sorted(lag for r in results for lag in r.lags)
    summary.add_row("clients' own loop lag p99 / max", f"{percentile(lags, 0.99):.1f} / {max(lags, default=0):.1f} ms")
    played = f"{sum(r.tables for r in results)} ({sum(r.games_finished for r in results)})"
    summary.add_row("tables played (games finished)", played)
    summary.add_row("errors from the server", ", ".join(f"{k}: {v}" for k, v in errors.items()) or "none")
    before, loaded, after = run.rss
    summary.add_row("server RSS before / loaded / after", f"{before:.0f} / {loaded:.0f} / {after:.0f} MB")
    summary.add_row("server MB per table (after - before)", f"{(after - before) / args.tables:.2f} MB")
    summary.add_row("server CPU", f"{100 * run.server_cpu / wall:.0f} % of a core")
    clients = f"{args.client_processes} process{'es' if args.client_processes > 1 else ''}"
    summary.add_row("client CPU", f"{100 * sum(r.cpu for r in results) / wall:.0f} % of a core ({clients})")
    summary.add_row("load average before / after (1 min)", f"{run.load[0]:.2f} / {run.load[1]:.2f}")
    summary.add_row("cores", str(os.cpu_count()))
    if lost is not None:
        missing, bad, checked = lost
        summary.add_row("SIGKILL under load: acks checked", f"{len(acks):,} on {checked} tables")
        summary.add_row("acknowledged actions lost", f"[{'red' if missing else 'green'}]{missing}")
        summary.add_row("tables not resumed (GET fails or behind)", f"[{'red' if bad else 'green'}]{bad}")
    console.print(summary)
    return 1 if lost is not None and (lost[0] or lost[1]) else 0


if __name__ == "__main__":
    sys.exit(main())
