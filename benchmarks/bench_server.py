"""The server under load, then killed under load (issue: network server, load benchmark; issue 44).

Starts ``thirtyone serve`` as a subprocess (an SQLite file in a temp folder by default;
``--database-url`` for PostgreSQL) with the per-connection rate limits raised, then opens
``--tables`` tables (default 100) of ``--players`` seats each (default 4) played by scripted
WebSocket clients: each client, when its view says it is its turn, sends a legal action (a seeded
random choice among ``legal_actions``, knocking rarely so that rounds last), as fast as the server
answers (or after about ``--think`` ms, a person's pace), for ``--seconds`` (default 30). A table
whose game ends is replaced by a new one. The clients run in ``--client-processes`` processes
(default 1; each holds whole tables), and the client CPU is reported so that one can see whether
the clients, not the server, were the bottleneck.

Every seat is a person (no turn timer: the scripted people never leave), unless ``--bots LEVEL``: then each
table is one scripted person and ``--players - 1`` bots of that level (``easy``, ``medium``, ``hard``,
or ``judge``, the learned bot, offered to the server as the level ``learned`` with ``--bot
learned=judge``) at the default bot delay (``--bot-delay`` to change it), the showdown's wait off
(the scripted person reads nothing), and each bot move's lag beyond its delay is measured: from
the state that gave the bot its turn to the state of its move, less the bot delay (none for the
discard that finishes a turn).

``--servers N`` starts N server processes on one PostgreSQL database (docs/server-cluster.md) and
spreads the players over them: seat ``s`` of table ``t`` connects to process ``(t + s) mod N``, so the
players of one table are on different processes. Under load the first process is killed with
SIGKILL while the others go on; its players connect again to the next process, and the tables are
watched for ``--after`` seconds (default 20: the lease, 10 s, its renewal, 3 s, and some) to see
them go on: the time from the kill to each table's next state is reported.

Prints:
- actions/s (acknowledged) over the measured window;
- latency from sending an action to the moment the LAST person of that table got the state with
  the new seq: p50, p90, p99, max (ms); with ``--bots``, the bot moves' lag (p50, p99, max, ms);
- the server's RSS before the tables were created and after the run with them loaded, and so MB a
  table; the servers' CPU (user + system, % of one core), their bot workers' and the clients';
- on PostgreSQL, the write-ahead log written in the measured window: the rise of ``pg_stat_wal``'s
  ``wal_records``, ``wal_bytes``, ``wal_write`` (WAL buffers written out) and ``wal_sync`` (WAL
  flushes to disk: every commit waits for one, or shares one), and bytes and flushes an
  acknowledged action. These are the whole PostgreSQL cluster's counters (any other database's
  writes count too; PostgreSQL 14 or newer) as its processes last reported them (up to a second
  behind); ``wal_sync`` is 0 where ``fsync`` is off;
- the machine's load average (``os.getloadavg``) before and after.

Then, while the clients still play, the server is killed with SIGKILL (with ``--servers``, one of
them, and the rest after ``--after`` seconds); every ack each client got (table code, seq, action)
is looked up in the database after a restart on the same database, and every table must answer
``GET /api/tables/{code}`` with a ``seq`` at least the last state any of its clients saw (a state
goes out only once stored: a bot's move too). Exits 1 if any acknowledged action was lost or a
table did not resume.

Usage: ``python benchmarks/bench_server.py [--seconds S] [--tables N] [--players N] [--think MS]
[--client-processes N] [--database-url URL] [--servers N] [--after S] [--bots LEVEL]
[--bot-delay S] [--bot-workers N] [--profile FILE] [--probe FILE] [--source DIR]``. ``--profile
FILE`` runs the server under cProfile (slower) and stops it cleanly (SIGINT) to write the
statistics to FILE: no kill phase then. ``--source DIR`` runs the server of another checkout's
``src`` folder (a before-and-after on the same machine). Figures vary with the machine and with
whatever else it runs.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
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
from collections.abc import Sequence
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

from thirtyone.server.db_open import normalize_url

STARTUP_SECONDS = 60.0
"""How long the server may take to answer GET /api/health."""
STATE_PREFIX = '{"type":"state","seq":'
"""How the server writes every state message (its type, then its seq, compact JSON)."""
MY_TURN = '"is_my_turn":true'
OVER = '"phase":"over"'
KNOCK_CHANCE = 0.05
"""How often the scripted player knocks when it may (rarely: longer rounds, fewer deals)."""
BOT_LEVELS = ("easy", "medium", "hard", "judge")
"""What ``--bots`` seats."""
JUDGE_LEVEL = "learned"
"""The level the judge is offered as (``serve --bot learned=judge``): ``judge`` names a bot already,
and a level may not take a bot's name."""
DEFAULT_BOT_DELAY = 1.0
"""``thirtyone serve``'s bot delay, seconds (``ServerSettings``' default)."""

UNLIMITED = [
    *("--requests-per-second", "1000000", "--tables-per-minute", "1000000", "--table-burst", "1000000"),
    *("--max-connections", "1000000", "--max-connections-per-address", "1000000", "--connections-per-second", "1e6"),
    *("--address-messages-per-second", "1000000", "--max-tables", "1000000"),
]
"""The per-address limits raised: every scripted player comes from 127.0.0.1."""
WAL_COUNTERS = ("wal_records", "wal_bytes", "wal_write", "wal_sync")
"""What is read of PostgreSQL's ``pg_stat_wal`` at the start and the end of the measured window."""

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
    extra: Sequence[str] = (),
) -> subprocess.Popen[bytes]:
    """``thirtyone serve`` on ``port``, bots at once, rate limits raised (``limits=False``: the
    defaults), then ``extra`` options (a later option wins: ``--bot-delay 1``); returns once it
    answers. ``probe``: run it under ``probe_server.py``, which writes stall probes to that file.
    ``source``: the ``src`` folder of another checkout whose server runs instead of this one's
    (put first on ``PYTHONPATH``)."""
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
    command += list(extra)
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


def server_options(args: argparse.Namespace) -> list[str]:
    """The ``serve`` options of ``--bots``, ``--bot-delay`` and ``--bot-workers``; at tables of
    people, no turn timer: the scripted people never leave, and a table opened minutes before the
    window (opening a thousand takes that on a busy machine) had its people played for by the timer,
    then at the bots' pace, racing its people (``stale``) and loading the server in the window."""
    extra = ["--friends-turn-timer", "off"]
    if args.bots is not None:
        extra += ["--bot-delay", f"{args.bot_delay:g}", "--showdown-timeout", "0"]
        if args.bots == "judge":
            extra += ["--bot", f"{JUDGE_LEVEL}=judge"]
    if args.bot_workers is not None:
        extra += ["--bot-workers", str(args.bot_workers)]
    return extra


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


def children_cpu(parents: Sequence[int]) -> dict[int, float]:
    """CPU seconds of every process whose parent is one of ``parents`` (a server's workers), by pid."""
    found: dict[int, float] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        with contextlib.suppress(OSError, IndexError, ValueError):
            fields = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()
            if int(fields[1]) in parents:
                found[int(entry)] = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return found


# ---------------------------------------------------------------------------------------------- the clients


@dataclass(frozen=True)
class Plan:
    """What every client process is told: the servers' ``ports``, seats a table (``players``), the
    level of its bots (``bots``; ``None``: every seat a person) and their delay (s), the person's
    ``think`` (s) and the measured ``seconds``."""

    ports: tuple[int, ...]
    players: int
    bots: str | None
    bot_delay: float
    think: float
    seconds: float

    @property
    def people(self) -> int:
        return 1 if self.bots is not None else self.players


@dataclass
class ClientResult:
    """What one client process measured: latencies (ms) and acks within the window, every ack
    ``(code, seq, action)``, errors, tables played, the process's CPU seconds, and how late a 10 ms
    timer fired in its own event loop within the window (ms: a late client reads its states late,
    whatever the server did). ``bot_lags``: each bot move's lag beyond its delay within the window
    (ms); ``seen``: the last seq each table's people got; ``arrivals``: ``(code, table index, wall
    time, seq)`` of each state with a new seq (to see the tables go on after a kill)."""

    latencies: list[float] = field(default_factory=list)
    lags: list[float] = field(default_factory=list)
    bot_lags: list[float] = field(default_factory=list)
    acks_in_window: int = 0
    acks: list[tuple[str, int, str]] = field(default_factory=list)
    seen: dict[str, int] = field(default_factory=dict)
    arrivals: list[tuple[str, int, float, int]] = field(default_factory=list)
    errors: dict[str, int] = field(default_factory=dict)
    tables: int = 0
    games_finished: int = 0
    cpu: float = 0.0


@dataclass
class BotTurn:
    """The state that gave a bot its turn: when it came, its seq and phase."""

    at: float
    seq: int
    phase: str


class Clients:
    """The tables one client process plays, and what it measures."""

    def __init__(self, plan: Plan, seed: int) -> None:
        self.plan = plan
        self.rng = random.Random(seed)
        self.result = ClientResult()
        self.errors: dict[str, int] = defaultdict(int)
        self.window = (float("inf"), float("inf"))
        self.http: list[httpx.AsyncClient] = []

    def port_of(self, index: int, seat: int) -> int:
        """The server that seat ``seat`` of table ``index`` plays on: the players of one table on different ones."""
        return (index + seat) % len(self.plan.ports)

    async def open_table(self, index: int) -> tuple[str, list[str]]:
        """A new table with every person's seat taken: its code and the people's tokens."""
        plan = self.plan
        seats: list[dict[str, str]] = [{"type": "human"}] * plan.people
        if plan.bots is not None:
            level = JUDGE_LEVEL if plan.bots == "judge" else plan.bots
            seats += [{"type": "bot", "level": level}] * (plan.players - 1)
        body = {"preset": "scat", "seats": seats, "name": "P0"}
        response = await self.http[self.port_of(index, 0)].post("/api/tables", json=body)
        response.raise_for_status()
        created = response.json()
        tokens = [created["token"]]
        for seat in range(1, plan.people):
            http = self.http[self.port_of(index, seat)]
            joined = await http.post(f"/api/tables/{created['code']}/join", json={"name": f"P{seat}"})
            joined.raise_for_status()
            tokens.append(joined.json()["token"])
        self.result.tables += 1
        return created["code"], tokens

    async def connect_seat(self, code: str, token: str, server: int) -> ClientConnection:
        ws = await connect(
            f"ws://127.0.0.1:{self.plan.ports[server]}/ws/tables/{code}",
            open_timeout=60,
            close_timeout=1,
            max_size=None,
        )
        await ws.send(json.dumps({"type": "hello", "token": token}))
        return ws

    async def seat_sockets(self, code: str, tokens: list[str], index: int) -> list[ClientConnection]:
        return [await self.connect_seat(code, token, self.port_of(index, seat)) for seat, token in enumerate(tokens)]

    async def reconnect(self, code: str, token: str, server: int) -> tuple[ClientConnection, int]:
        """The seat's server is gone: connect to the next one that answers (its socket, its server)."""
        servers = len(self.plan.ports)
        for step in range(1, servers):
            with contextlib.suppress(OSError, ConnectionClosed, TimeoutError):
                return await self.connect_seat(code, token, (server + step) % servers), (server + step) % servers
        raise ConnectionClosed(None, None)

    async def play(self, code: str, index: int, tokens: list[str], sockets: list[ClientConnection]) -> bool:
        """Play the table until its game is over (True) or the servers go away (False)."""
        sent: dict[int, float] = {}  # new seq -> when the action was sent
        seen: dict[int, set[int]] = defaultdict(set)  # new seq -> seats that got its state
        over = asyncio.Event()
        bot_turn: list[BotTurn | None] = [None]

        async def seat(number: int) -> None:
            acted = -1
            server = self.port_of(index, number)
            while True:
                try:
                    async for raw in sockets[number]:
                        if isinstance(raw, str) and await self.heard(code, index, number, raw, sent, seen, bot_turn):
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
                            self.seen_state(code, index, number, seq, sent, seen)
                            view = message["view"]
                            if view is None:
                                continue
                            if self.plan.bots is not None:
                                self.bot_moved(bot_turn, message)
                            if view["phase"] == "over" or message["table"]["status"] != "playing":
                                over.set()
                                return
                            if view["is_my_turn"] and seq > acted:
                                acted = seq
                                if self.plan.think > 0:  # a person's pace, 0.5-1.5 x think: tables not in step
                                    await asyncio.sleep(self.plan.think * (0.5 + self.rng.random()))
                                sent[seq + 1] = time.perf_counter()
                                action = {"type": "action", "action": self.choose(view), "seq": seq}
                                await sockets[number].send(json.dumps(action))
                    return
                except ConnectionClosed:
                    if len(self.plan.ports) == 1:
                        raise
                    # its server was killed: on to the next, which sends the table as it is now
                    sockets[number], server = await self.reconnect(code, tokens[number], server)
                    acted = -1  # an action the dead server had not stored is asked for again

        tasks = [asyncio.create_task(seat(number)) for number in range(len(sockets))]
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

    async def heard(
        self,
        code: str,
        index: int,
        number: int,
        raw: str,
        sent: dict[int, float],
        seen: dict[int, set[int]],
        bot_turn: list[BotTurn | None],
    ) -> bool:
        """Whether ``raw`` is a state that asks nothing of this seat (not its turn, the game not
        over), read by its seq alone: the server writes "type" and "seq" first, so the load
        generator does not parse every view. With bots every state is read (their moves' lag)."""
        if self.plan.bots is not None or not raw.startswith(STATE_PREFIX) or MY_TURN in raw or OVER in raw:
            return False
        if '"status":"playing"' not in raw:
            return False
        seq = int(raw[len(STATE_PREFIX) : raw.index(",", len(STATE_PREFIX))])
        self.seen_state(code, index, number, seq, sent, seen)
        return True

    def seen_state(
        self, code: str, index: int, number: int, seq: int, sent: dict[int, float], seen: dict[int, set[int]]
    ) -> None:
        """Seat ``number`` got the state of ``seq``: an action is done when every person has its state."""
        if seq > self.result.seen.get(code, -1):
            self.result.seen[code] = seq
            self.result.arrivals.append((code, index, time.time(), seq))
        for waiting in [s for s in sent if s <= seq]:
            seen[waiting].add(number)
            if len(seen[waiting]) == self.plan.people:
                started = sent.pop(waiting)
                del seen[waiting]
                if self.window[0] <= started < self.window[1]:
                    self.result.latencies.append((time.perf_counter() - started) * 1000)

    def bot_moved(self, bot_turn: list[BotTurn | None], message: dict[str, Any]) -> None:
        """A state at a table of one person and bots: the lag of the bot move it shows (from the
        state that gave the bot its turn, less its delay: none for the discard that ends a turn),
        and whether it gives a bot the next turn."""
        now, seq, view = time.perf_counter(), message["seq"], message["view"]
        previous = bot_turn[0]
        if previous is not None and seq == previous.seq + 1 and self.window[0] <= previous.at < self.window[1]:
            delay = 0.0 if previous.phase == "discard" else self.plan.bot_delay
            self.result.bot_lags.append((now - previous.at - delay) * 1000)
        playing = message["table"]["status"] == "playing" and view["phase"] != "over"
        bots_turn = playing and view["current_seat"] is not None and not view["is_my_turn"]
        bot_turn[0] = BotTurn(now, seq, view["phase"]) if bots_turn else None

    def choose(self, view: dict[str, Any]) -> str:
        legal: list[str] = view["legal_actions"]
        if "knock" in legal and self.rng.random() >= KNOCK_CHANCE and len(legal) > 1:
            legal = [action for action in legal if action != "knock"]
        return self.rng.choice(legal)

    async def table_loop(self, index: int, first: tuple[str, list[str], list[ClientConnection]]) -> None:
        code, tokens, sockets = first
        while True:
            finished = await self.play(code, index, tokens, sockets)
            if not finished:
                return
            self.result.games_finished += 1
            try:
                code, tokens = await self.open_table(index)
                sockets = await self.seat_sockets(code, tokens, index)
            except (httpx.HTTPError, OSError, ConnectionClosed):
                return  # the server was killed meanwhile

    async def watch_lag(self) -> None:
        loop = asyncio.get_running_loop()
        while time.perf_counter() < self.window[1]:
            planned = loop.time() + 0.010
            await asyncio.sleep(0.010)
            self.result.lags.append((loop.time() - planned) * 1000)

    async def run(self, first: int, tables: int, ready: Any, start: Any) -> ClientResult:
        limits = httpx.Limits(max_connections=20)
        async with contextlib.AsyncExitStack() as stack:
            for port in self.plan.ports:
                client = httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}", timeout=60, limits=limits)
                self.http.append(await stack.enter_async_context(client))
            opened = []
            for index in range(first, first + tables):
                code, tokens = await self.open_table(index)
                opened.append((index, (code, tokens, await self.seat_sockets(code, tokens, index))))
            gc.freeze()  # the tables and sockets live all the run: no collection need look at them again
            ready.set()
            await asyncio.to_thread(start.wait)
            cpu_start = time.process_time()
            now = time.perf_counter()
            self.window = (now, now + self.plan.seconds)
            watcher = asyncio.create_task(self.watch_lag())
            await asyncio.gather(*(self.table_loop(index, table) for index, table in opened))
            watcher.cancel()
        self.result.errors = dict(self.errors)
        self.result.cpu = time.process_time() - cpu_start
        return self.result


def client_process(plan: Plan, first: int, tables: int, seed: int, ready: Any, start: Any, out: Any) -> None:
    """One client process: open its tables (``first`` the index of its first), wait for the start,
    play until the servers are gone."""
    out.put(asyncio.run(Clients(plan, seed).run(first, tables, ready, start)))


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


def wal_counters(database_url: str) -> dict[str, float] | None:
    """PostgreSQL's write-ahead log counters now (:data:`WAL_COUNTERS` of ``pg_stat_wal``, the
    whole cluster's); ``None`` on SQLite."""
    url = normalize_url(database_url)
    if url.get_backend_name() != "postgresql":
        return None
    engine = create_engine(url)
    try:
        with engine.connect() as connection:
            row = connection.execute(text(f"SELECT {', '.join(WAL_COUNTERS)} FROM pg_stat_wal")).one()
    finally:
        engine.dispose()
    return {name: float(value) for name, value in zip(WAL_COUNTERS, row, strict=True)}


def unresumed(port: int, last: dict[str, int]) -> list[str]:
    """Tables whose GET /api/tables/{code} fails or is behind the last seq their clients got."""
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
    parser.add_argument("--players", type=int, default=4, help="seats at each table, 2-9 (default 4)")
    parser.add_argument("--client-processes", type=int, default=1, help="client processes (default 1)")
    parser.add_argument("--database-url", default=None, help="default: an SQLite file in a temp folder")
    parser.add_argument("--servers", type=int, default=1, help="server processes on the one database (PostgreSQL)")
    parser.add_argument(
        "--after", type=float, default=20.0, help="with --servers: seconds the others play on after the kill (20)"
    )
    parser.add_argument("--bots", choices=BOT_LEVELS, help="one person and bots of this level at each table")
    parser.add_argument(
        "--bot-delay", type=float, default=DEFAULT_BOT_DELAY, metavar="S", help="with --bots: the bot delay (1)"
    )
    parser.add_argument("--bot-workers", type=int, metavar="N", help="the servers' bot workers (default: theirs)")
    parser.add_argument("--think", type=float, default=0.0, metavar="MS", help="pause before each action, ms (0: none)")
    parser.add_argument("--seed", type=int, default=1, help="the scripted players' seed")
    parser.add_argument("--profile", metavar="FILE", help="run the server under cProfile; no kill phase")
    parser.add_argument("--probe", metavar="FILE", help="write the server's stall probes (probe_server.py) to FILE")
    parser.add_argument(
        "--source", metavar="DIR", help="run the server of another checkout's src folder (before/after)"
    )
    args = parser.parse_args()
    if not args.seconds > 0 or args.tables < 1 or not 2 <= args.players <= 9 or args.think < 0:
        parser.error("--seconds above 0, --tables at least 1, --players from 2 to 9, --think at least 0")
    if not 1 <= args.client_processes <= args.tables:
        parser.error("--client-processes: from 1 to the number of tables")
    if args.servers < 1 or (args.servers > 1 and not (args.database_url or "").startswith("postgresql")):
        parser.error("--servers: at least 1, and more than 1 only on PostgreSQL (--database-url postgresql://...)")
    if args.servers > 1 and (args.profile or args.probe):
        parser.error("--profile and --probe watch one server: not with --servers")
    if not args.after > 0 or not 0 <= args.bot_delay <= 60:
        parser.error("--after above 0, --bot-delay from 0 to 60")
    return args


@dataclass
class Run:
    """What the main process measured around the clients' play: the servers' CPU and their
    workers' (seconds within the window), the first server's RSS, the load average before and
    after, when the first server was killed (wall time; ``None``: stopped, not killed), and the
    rise of PostgreSQL's WAL counters within the window (``None`` on SQLite)."""

    results: list[ClientResult]
    wall: float
    server_cpu: float
    workers_cpu: float
    rss: tuple[float, float, float]
    load: tuple[float, float]
    killed_at: float | None
    wal: dict[str, float] | None


def load_and_kill(args: argparse.Namespace, database_url: str, ports: list[int]) -> Run:
    """Start the servers, let the client processes open their tables and play for ``args.seconds``,
    then kill the first server under load (or, with ``--profile``, stop it cleanly), and the others
    ``--after`` seconds later; every process this starts has ended when it returns, whatever happens."""
    load_before = os.getloadavg()
    extra = server_options(args)
    servers: list[subprocess.Popen[bytes]] = []
    context = multiprocessing.get_context("fork")
    ready = [context.Event() for _ in range(args.client_processes)]
    start, out = context.Event(), context.Queue()
    processes = []
    plan = Plan(tuple(ports), args.players, args.bots, args.bot_delay, args.think / 1000, args.seconds)
    try:
        for port in ports:
            servers.append(start_server(database_url, port, args.profile, args.probe, source=args.source, extra=extra))
        pids = [server.pid for server in servers]
        rss_before = rss_mb(pids[0])
        first = 0
        for i in range(args.client_processes):
            share = args.tables // args.client_processes + (i < args.tables % args.client_processes)
            work = (plan, first, share, args.seed * 1000 + i, ready[i], start, out)
            processes.append(context.Process(target=client_process, args=work))
            processes[-1].start()
            first += share
        seats = f"one person and {args.players - 1} {args.bots} bots" if args.bots else f"{args.players} people"
        console.print(f"server pids {pids}: opening {args.tables} tables of {seats} …")
        for event in ready:
            while not event.wait(1.0):
                if not all(process.is_alive() for process in processes):
                    raise SystemExit("bench_server: a client process failed while opening its tables")
        rss_loaded = rss_mb(pids[0])
        wal_start = wal_counters(database_url)
        cpu_start, wall_start = sum(cpu_seconds(pid) for pid in pids), time.perf_counter()
        workers_start = children_cpu(pids)
        start.set()
        console.print(f"playing for {args.seconds:g} s …")
        time.sleep(args.seconds)
        server_cpu, wall = sum(cpu_seconds(pid) for pid in pids) - cpu_start, time.perf_counter() - wall_start
        workers_end = children_cpu(pids)
        workers_cpu = sum(seconds - workers_start.get(pid, 0.0) for pid, seconds in workers_end.items())
        rss_after = rss_mb(pids[0])
        wal_end = wal_counters(database_url)
        wal = None if wal_start is None or wal_end is None else {k: wal_end[k] - wal_start[k] for k in WAL_COUNTERS}
        killed_at = None
        if args.profile:
            servers[0].send_signal(signal.SIGINT)
            servers[0].wait(60)
        else:
            killed_at = time.time()
            os.kill(pids[0], signal.SIGKILL)  # under load: the clients are still playing
            servers[0].wait(10)
            if len(servers) > 1:
                console.print(f"server {pids[0]} killed; the others play on for {args.after:g} s …")
                time.sleep(args.after)
                for server in servers[1:]:
                    server.kill()  # SIGKILL too: what they acknowledged must be stored as well
                    server.wait(10)
        try:
            results: list[ClientResult] = [out.get(timeout=120) for _ in processes]
        except queue.Empty:
            raise SystemExit("bench_server: a client process gave no result (see its error above)") from None
        load = (load_before[0], os.getloadavg()[0])
        rss = (rss_before, rss_loaded, rss_after)
        return Run(results, wall, server_cpu, workers_cpu, rss, load, killed_at, wal)
    finally:
        for server in servers:
            if server.poll() is None:
                server.kill()
                server.wait(10)
        for process in processes:
            process.join(30)
            if process.is_alive():
                process.kill()


def check_after_restart(
    args: argparse.Namespace, database_url: str, port: int, results: list[ClientResult]
) -> tuple[int, int, int]:
    """Restart a server on the database: (acknowledged actions lost, tables not resumed, tables checked)."""
    acks = [ack for result in results for ack in result.acks]
    last: dict[str, int] = defaultdict(int)
    for result in results:
        for code, seq in result.seen.items():
            last[code] = max(last[code], seq)
    for code, seq, _ in acks:
        last[code] = max(last[code], seq)
    server = start_server(database_url, port, extra=server_options(args))
    try:
        missing, _ = lost_acks(database_url, acks)
        bad = unresumed(port, last)
    finally:
        server.terminate()
        server.wait(30)
    return missing, len(bad), len(last)


def went_on(run: Run, servers: int, people: int) -> dict[bool, list[float | None]]:
    """For each table in play at the kill, the seconds from the kill to its next state (``None``:
    none came), by whether one of its seats was on the killed server (seat ``s`` of table ``t`` is on
    server ``(t + s) mod servers``, for its ``people`` seats; the first server was killed)."""
    assert run.killed_at is not None
    first_after: dict[str, float] = {}
    playing: dict[str, int] = {}  # table code: its index, for the tables with a state before the kill
    for result in run.results:
        for code, index, at, _seq in result.arrivals:
            if at < run.killed_at:
                playing[code] = index
            elif code not in first_after or at < first_after[code]:
                first_after[code] = at
    found: dict[bool, list[float | None]] = {True: [], False: []}
    for code, index in playing.items():
        on_killed = any((index + seat) % servers == 0 for seat in range(people))
        after = first_after.get(code)
        found[on_killed].append(None if after is None else after - run.killed_at)
    return found


def main() -> int:
    args = parse_args()
    folder = None if args.database_url else tempfile.mkdtemp(prefix="bench-server-")
    database_url = args.database_url or f"sqlite:///{folder}/bench.db"
    ports = [free_port() for _ in range(args.servers)]
    try:
        run = load_and_kill(args, database_url, ports)
        lost = None if args.profile else check_after_restart(args, database_url, ports[-1], run.results)
    finally:
        if folder is not None:
            shutil.rmtree(folder, ignore_errors=True)
    report(args, database_url, run, lost)
    return 1 if lost is not None and (lost[0] or lost[1]) else 0


def report(args: argparse.Namespace, database_url: str, run: Run, lost: tuple[int, int, int] | None) -> None:
    results, wall = run.results, run.wall
    latencies = sorted(value for result in results for value in result.latencies)
    errors: dict[str, int] = defaultdict(int)
    for result in results:
        for code, count in result.errors.items():
            errors[code] += count
    pace = "as fast as possible" if args.think <= 0 else f"about {args.think:g} ms to think"
    seats = f"1 person + {args.players - 1} {args.bots} bots" if args.bots else f"{args.players} people"
    summary = Table(title=f"thirtyone serve under load: {args.tables} tables x {seats}, {pace}")
    summary.add_column("measure")
    summary.add_column("value", justify="right")
    summary.add_row("database", database_url.split("@")[-1] if args.database_url else "SQLite (temp file)")
    summary.add_row("server processes", str(args.servers))
    summary.add_row("measured window", f"{wall:.1f} s")
    summary.add_row("actions/s (acknowledged)", f"{sum(r.acks_in_window for r in results) / wall:,.0f}")
    summary.add_row("latency samples", f"{len(latencies):,}")
    for name, share in (("p50", 0.5), ("p90", 0.9), ("p99", 0.99)):
        summary.add_row(f"latency {name} (send → last person's state)", f"{percentile(latencies, share):.1f} ms")
    summary.add_row("latency max", f"{latencies[-1] if latencies else 0.0:.1f} ms")
    if args.bots:
        moves = sorted(lag for r in results for lag in r.bot_lags)
        summary.add_row("bot moves measured (bot delay)", f"{len(moves):,} ({args.bot_delay:g} s)")
        shown = " / ".join(f"{percentile(moves, share):.1f}" for share in (0.5, 0.99))
        summary.add_row("bot move lag beyond its delay p50 / p99 / max", f"{shown} / {max(moves, default=0):.1f} ms")
    lags = sorted(lag for r in results for lag in r.lags)
    summary.add_row("clients' own loop lag p99 / max", f"{percentile(lags, 0.99):.1f} / {max(lags, default=0):.1f} ms")
    played = f"{sum(r.tables for r in results)} ({sum(r.games_finished for r in results)})"
    summary.add_row("tables played (games finished)", played)
    summary.add_row("errors from the server", ", ".join(f"{k}: {v}" for k, v in errors.items()) or "none")
    before, loaded, after = run.rss
    summary.add_row("server RSS before / loaded / after", f"{before:.0f} / {loaded:.0f} / {after:.0f} MB")
    summary.add_row("server MB per table (after - before)", f"{(after - before) / args.tables:.2f} MB")
    summary.add_row("server CPU (all processes)", f"{100 * run.server_cpu / wall:.0f} % of a core")
    summary.add_row("their workers' CPU (bots, hints)", f"{100 * run.workers_cpu / wall:.0f} % of a core")
    clients = f"{args.client_processes} process{'es' if args.client_processes > 1 else ''}"
    summary.add_row("client CPU", f"{100 * sum(r.cpu for r in results) / wall:.0f} % of a core ({clients})")
    if run.wal is not None:
        wal, acked = run.wal, max(1, sum(r.acks_in_window for r in results))
        written = f"{wal['wal_records']:,.0f} records, {wal['wal_bytes'] / 1e6:,.2f} MB"
        summary.add_row("PostgreSQL WAL in the window (whole cluster)", written)
        flushes = f"{wal['wal_write']:,.0f} / {wal['wal_sync']:,.0f} ({wal['wal_sync'] / wall:,.0f}/s)"
        summary.add_row("WAL writes / flushes (wal_write / wal_sync)", flushes)
        each = f"{wal['wal_bytes'] / acked:,.0f} bytes / {wal['wal_sync'] / acked:.2f} flushes"
        summary.add_row("WAL an acknowledged action", each)
    summary.add_row("load average before / after (1 min)", f"{run.load[0]:.2f} / {run.load[1]:.2f}")
    summary.add_row("cores", str(os.cpu_count()))
    if run.killed_at is not None and args.servers > 1:
        for on_killed, times in went_on(run, args.servers, 1 if args.bots else args.players).items():
            done = sorted(t for t in times if t is not None)
            where = "with a seat on the killed server" if on_killed else "all seats elsewhere"
            line = f"{len(done)} of {len(times)}"
            if done:
                line += f"; p50 {percentile(done, 0.5):.1f} s, max {done[-1]:.1f} s"
            summary.add_row(f"tables going on after the kill ({where})", line)
    if lost is not None:
        missing, bad, checked = lost
        acks = sum(len(r.acks) for r in results)
        summary.add_row("SIGKILL under load: acks checked", f"{acks:,} on {checked} tables")
        summary.add_row("acknowledged actions lost", f"[{'red' if missing else 'green'}]{missing}")
        summary.add_row("tables not resumed (GET fails or behind)", f"[{'red' if bad else 'green'}]{bad}")
    console.print(summary)


if __name__ == "__main__":
    sys.exit(main())
