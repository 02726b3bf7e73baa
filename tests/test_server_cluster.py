"""Beyond one machine: several ``thirtyone serve`` processes on one PostgreSQL database.

Real server processes on loopback (Uvicorn, started by a small launcher rather than the CLI),
real WebSocket clients (``websockets``), and a throwaway PostgreSQL: ``THIRTYONE_TEST_POSTGRES_URL``
when set, otherwise a cluster made with ``initdb`` in a temporary folder and started with ``pg_ctl``
on a free port of 127.0.0.1 (as root, run by the ``postgres`` system user). Without PostgreSQL
the module is skipped, unless ``THIRTYONE_REQUIRE_POSTGRES=1`` (CI), where that fails.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import AsyncIterator
from collections.abc import Callable
from collections.abc import Iterator
from dataclasses import dataclass
from dataclasses import field
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import create_engine
from sqlalchemy import inspect
from sqlalchemy import text
from websockets.asyncio.client import ClientConnection
from websockets.asyncio.client import connect

from support.postgres import LEASE
from support.postgres import RENEW
from support.postgres import new_database  # noqa: F401 - fixtures
from support.postgres import postgres  # noqa: F401
from support.postgres import rows
from support.processes import free_port
from support.server import SEED
from support.server import Dealt
from support.server import basic_choice
from support.server import create
from support.server import db_rows
from support.server import join
from support.server import make_app
from support.server import waits_for_person
from thirtyone.rules import Rules
from thirtyone.server.cluster import LISTENER_NAME
from thirtyone.server.db_open import HEAD
from thirtyone.server.db_open import migrate
from thirtyone.server.db_open import normalize_url
from thirtyone.server.db_open import open_database
from thirtyone.server.db_store import Store
from thirtyone.server.serialize import spectator_view_json
from thirtyone.server.serialize import view_json

SRC = Path(__file__).resolve().parents[1] / "src"
WAIT = 20.0
"""Seconds to wait for anything before failing (a takeover needs up to LEASE + RENEW)."""


# ---------------------------------------------------------------------------------------------- server processes

_LAUNCHER = """
import logging, sys
import uvicorn
from thirtyone.server import ServerSettings, create_app
from thirtyone.server.randomness import Randomness
logging.basicConfig(level=logging.WARNING, stream=sys.stdout, format="%(name)s %(levelname)s %(message)s")
logging.getLogger("thirtyone.server").setLevel(logging.DEBUG)
url, bot_delay, lease, renew, port, seed = sys.argv[1:7]
settings = ServerSettings(
    database_url=url, bot_delay=float(bot_delay), lease_seconds=float(lease), lease_renew=float(renew),
    messages_per_second=1000.0, message_burst=1000, showdown_timeout=0.0, randomness=Randomness(int(seed)),
)
app = create_app(settings=settings)
print("process", app.state.service.store.process, flush=True)
uvicorn.run(app, host="127.0.0.1", port=int(port), log_level="warning")
"""


@dataclass
class Server:
    """One server process on loopback: its port, its log file and its process id (the lease owner)."""

    popen: subprocess.Popen[bytes]
    port: int
    log: Path
    id: str = ""

    @property
    def http(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def ws(self, code: str) -> str:
        return f"ws://127.0.0.1:{self.port}/ws/tables/{code}"

    def text(self) -> str:
        return self.log.read_text(errors="replace")

    def bot_plays(self, code: str) -> list[int]:
        """The seqs of the bot moves this process stored for table ``code`` (from its debug log)."""
        return [
            int(seq) for seq in re.findall(rf"table {code}: the bot of seat \d+ played .+ as seq (\d+)", self.text())
        ]

    def stop(self, sig: int = signal.SIGTERM) -> None:
        if self.popen.poll() is None:
            self.popen.send_signal(sig)
            try:
                self.popen.wait(15)
            except subprocess.TimeoutExpired:
                self.popen.kill()
                self.popen.wait(15)


def start_servers(url: str, folder: Path, count: int, bot_delay: float = 0.0) -> list[Server]:
    """Start ``count`` server processes on the database ``url`` and wait until each answers."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(SRC), os.environ.get("PYTHONPATH", "")]))
    servers = []
    for index in range(count):
        port = free_port()
        log = folder / f"server{index}-{port}.log"
        with log.open("wb") as out:
            popen = subprocess.Popen(
                [
                    *(sys.executable, "-c", _LAUNCHER, url, str(bot_delay), str(LEASE), str(RENEW), str(port)),
                    str(SEED + index),  # each process its own seeded randomness: their codes do not collide
                ],
                stdout=out,
                stderr=subprocess.STDOUT,
                env=env,
            )
        servers.append(Server(popen, port, log))
    try:
        _wait_ready(servers)
    except BaseException:  # one did not start: stop the others too
        for server in servers:
            server.stop(signal.SIGKILL)
        raise
    return servers


def _wait_ready(servers: list[Server]) -> None:
    deadline = time.monotonic() + 60
    for server in servers:
        while True:
            if server.popen.poll() is not None:
                pytest.fail(f"a server process exited ({server.popen.returncode}):\n{server.text()}")
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(f"{server.http}/api/health", timeout=2).status_code == 200:
                    break
            if time.monotonic() > deadline:
                pytest.fail(f"a server process did not answer within 60 s:\n{server.text()}")
            time.sleep(0.1)
        found = re.search(r"^process ([0-9a-f]{16})$", server.text(), re.MULTILINE)
        assert found, server.text()
        server.id = found.group(1)


@contextlib.contextmanager
def running(url: str, folder: Path, count: int, bot_delay: float = 0.0) -> Iterator[list[Server]]:
    servers = start_servers(url, folder, count, bot_delay)
    try:
        yield servers
    finally:
        for server in servers:
            server.stop()


@pytest.fixture(scope="module")
def pair(
    new_database: Callable[[], str],  # noqa: F811 - the fixture
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[tuple[str, Server, Server]]:
    """Two server processes A and B on one new database (bots play at once)."""
    url = new_database()
    with running(url, tmp_path_factory.mktemp("pair"), 2) as (a, b):
        yield url, a, b


# ---------------------------------------------------------------------------------------------- clients


@dataclass
class Client:
    """A WebSocket client of a table: every message it received, and its latest state."""

    ws: ClientConnection
    seat: int | None
    messages: list[dict[str, Any]] = field(default_factory=list)
    state: dict[str, Any] | None = None

    async def next(self, timeout: float = WAIT) -> dict[str, Any]:
        message: dict[str, Any] = json.loads(await asyncio.wait_for(self.ws.recv(), timeout))
        self.messages.append(message)
        if message["type"] == "state":
            self.state = message
        return message

    async def until(self, kind: str, timeout: float = WAIT) -> dict[str, Any]:
        """Messages until one of ``kind`` (returned); an error fails at once."""
        while True:
            message = await self.next(timeout)
            if message["type"] == kind:
                return message
            assert message["type"] != "error", message

    async def settle(self, after: int = -1, timeout: float = WAIT) -> dict[str, Any]:
        """States until one past seq ``after`` in which the game waits for a person or is over."""
        while True:
            state = self.state
            if state is not None and state["seq"] > after and state["view"] is not None and waits_for_person(state):
                return state
            await self.next(timeout)

    async def act(self, action: str) -> int:
        """Play ``action`` at the latest state's seq; returns the acknowledged seq."""
        assert self.state is not None
        await self.ws.send(json.dumps({"type": "action", "action": action, "seq": self.state["seq"]}))
        ack = await self.until("ack")
        assert ack["action"] == action
        return int(ack["seq"])

    def states(self) -> list[dict[str, Any]]:
        """The states received once the game had started."""
        return [m for m in self.messages if m["type"] == "state" and m["view"] is not None]


@contextlib.asynccontextmanager
async def client(server: Server, code: str, token: str | None, seat: int | None) -> AsyncIterator[Client]:
    """A connected client that said hello (with a seat's token, or none to watch)."""
    async with connect(server.ws(code), open_timeout=WAIT) as ws:
        await ws.send(json.dumps({"type": "hello", "token": token} if token else {"type": "hello"}))
        player = Client(ws, seat)
        welcome = await player.next()
        assert welcome["type"] == "welcome", welcome
        assert welcome["seat"] == seat
        assert (await player.next())["type"] == "state"
        yield player


def post(server: Server, path: str, body: dict[str, Any]) -> dict[str, Any]:
    response = httpx.post(f"{server.http}{path}", json=body, timeout=WAIT)
    assert response.status_code in (200, 201), response.text
    return dict(response.json())


def new_table(server: Server, seats: list[str], name: str | None = None, **options: Any) -> dict[str, Any]:
    body: dict[str, Any] = {
        "preset": "scat",
        "options": options,
        "seats": [{"type": "human"} if seat == "human" else {"type": "bot", "level": seat} for seat in seats],
    }
    if name is not None:
        body["name"] = name
    return post(server, "/api/tables", body)


def replayed_views(url: str, code: str) -> dict[int, dict[int | None, Any]]:
    """The engine's view of each seat (and a spectator's, ``None``) after each seq of a stored game,
    as JSON, replayed from the database."""
    engine = create_engine(normalize_url(url))
    try:
        loaded = Store(engine).load(code)
    finally:
        engine.dispose()
    assert loaded is not None
    data = loaded.table
    assert data.first_dealer is not None
    dealt = Dealt(deals={deal.round: deal for deal in loaded.deals})
    game = dealt.game(Rules(**data.options), data.players, data.first_dealer)

    def views() -> dict[int | None, Any]:
        out: dict[int | None, Any] = {seat: view_json(game.view(seat)) for seat in range(data.players)}
        out[None] = spectator_view_json(game)
        return {seat: json.loads(json.dumps(view)) for seat, view in out.items()}

    by_seq = {0: views()}
    for stored in loaded.actions:
        dealt.apply(game, stored.action, stored.seat)
        by_seq[stored.seq] = views()
    return by_seq


def check_states(player: Client, views: dict[int, dict[int | None, Any]]) -> list[int]:
    """Every state the client got once the game started is the engine's view of its seat at that
    seq; returns their seqs."""
    seqs = []
    for state in player.states():
        assert state["view"] == views[state["seq"]][player.seat], f"seat {player.seat}, seq {state['seq']}"
        seqs.append(state["seq"])
    return seqs


def stored_actions(url: str, code: str) -> list[tuple[int, int, str, str]]:
    """The table's stored actions: (seq, seat, action, source), in order."""
    return [
        (int(seq), int(seat), str(action), str(source))
        for seq, seat, action, source in rows(
            url, "SELECT seq, seat, action, source FROM actions WHERE table_code = %(code)s ORDER BY seq", code=code
        )
    ]


def lease_owners(url: str, code: str) -> list[str]:
    return [str(owner) for (owner,) in rows(url, "SELECT owner FROM leases WHERE table_code = %(code)s", code=code)]


async def wait_for(check: Callable[[], bool], what: str, timeout: float = WAIT) -> None:
    """Wait until ``check()`` holds, failing with ``what`` after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        await asyncio.sleep(0.05)


# ---------------------------------------------------------------------------------------------- the tests


async def test_two_processes_play_a_whole_game_together(pair: tuple[str, Server, Server]) -> None:
    """Ann on A, Ben on B and an easy bot play a game to its end: each gets every state, the same
    seqs, each the engine's view of its seat; each bot move was played by one process only."""
    url, a, b = pair
    created = new_table(a, ["human", "human", "easy"], name="Ann", lives=1)
    code = created["code"]
    async with client(a, code, created["token"], 0) as ann, client(b, code, None, None) as watcher:
        ben_seat = post(b, f"/api/tables/{code}/join", {"name": "Ben"})  # B starts the game; A hears of it
        async with client(b, code, ben_seat["token"], 1) as ben:
            players = {0: ann, 1: ben}
            seq = -1
            while True:
                states = {seat: await player.settle(seq) for seat, player in players.items()}
                watched = await watcher.settle(seq)
                seq = states[0]["seq"]
                assert states[1]["seq"] == seq == watched["seq"]
                if states[0]["view"]["phase"] == "over":
                    break
                mover = players[states[0]["view"]["current_seat"]]
                assert await mover.act(basic_choice(mover.state or {}, seed=seq)) == seq + 1
    actions = stored_actions(url, code)
    assert [action[0] for action in actions] == list(range(1, seq + 1))  # every seq once, none lost
    views = replayed_views(url, code)
    for player in (ann, ben, watcher):
        seqs = check_states(player, views)
        # Ben connects after his join started the game: a bot may have moved before his hello
        first = 0 if player is not ben else seqs[0]
        assert seqs == list(range(first, seq + 1)), f"seat {player.seat} missed or repeated a state"
    bots = sorted(action[0] for action in actions if action[3] == "bot")
    assert bots
    assert all(action[1] == 2 for action in actions if action[3] == "bot")
    assert all(action[3] == "player" for action in actions if action[1] != 2)
    assert sorted(a.bot_plays(code) + b.bot_plays(code)) == bots  # each bot move played by exactly one process
    assert httpx.get(f"{a.http}/api/tables/{code}", timeout=WAIT).json()["table"]["status"] == "finished"
    assert httpx.get(f"{b.http}/api/tables/{code}", timeout=WAIT).json()["table"]["status"] == "finished"


async def test_an_action_on_one_process_reaches_a_spectator_on_the_other(pair: tuple[str, Server, Server]) -> None:
    url, a, b = pair
    created = new_table(b, ["human", "human"], name="Ann")
    code = created["code"]
    async with client(a, code, None, None) as watcher:
        joined = post(a, f"/api/tables/{code}/join", {"name": "Ben"})
        async with client(b, code, created["token"], 0) as ann, client(a, code, joined["token"], 1) as ben:
            state = await ann.settle()
            mover = ann if state["view"]["current_seat"] == 0 else ben
            seq = await mover.act(basic_choice(mover.state or {}))
            while watcher.state is None or watcher.state["seq"] < seq:
                await watcher.next()
    assert watcher.state["seq"] == seq == 1
    assert watcher.state["view"] == replayed_views(url, code)[1][None]


async def test_the_same_move_sent_to_both_processes_is_stored_once(pair: tuple[str, Server, Server]) -> None:
    """The player to move is connected to A and to B and sends the same move to both at once: one
    stores and acknowledges it, the other answers ``stale`` with the current state."""
    url, a, b = pair
    created = new_table(a, ["human", "human"], name="Ann")
    code = created["code"]
    tokens = {0: created["token"], 1: post(b, f"/api/tables/{code}/join", {"name": "Ben"})["token"]}
    public = httpx.get(f"{a.http}/api/tables/{code}", timeout=WAIT).json()
    mover = public["view"]["current_seat"]
    async with client(a, code, tokens[mover], mover) as on_a, client(b, code, tokens[mover], mover) as on_b:
        state = await on_a.settle()
        assert (await on_b.settle())["seq"] == state["seq"] == 0
        message = json.dumps({"type": "action", "action": basic_choice(state), "seq": 0})
        await asyncio.gather(on_a.ws.send(message), on_b.ws.send(message))
        answers = []
        for side in (on_a, on_b):
            while (got := await side.next())["type"] not in ("ack", "error"):
                pass
            answers.append(got)
    assert sorted(answer["type"] for answer in answers) == ["ack", "error"], answers
    assert [answer["code"] for answer in answers if answer["type"] == "error"] == ["stale"]
    assert [answer["seq"] for answer in answers if answer["type"] == "ack"] == [1]
    assert [action[0] for action in stored_actions(url, code)] == [1]


async def test_notifications_missed_while_the_listener_was_down_are_caught_up(pair: tuple[str, Server, Server]) -> None:
    """The listening connections are cut; an action stored meanwhile on B still reaches a
    spectator on A once A's listener is back (it catches up every table it serves)."""
    url, a, b = pair
    created = new_table(b, ["human", "human"], name="Ann")
    code = created["code"]
    async with client(a, code, None, None) as watcher:
        joined = post(b, f"/api/tables/{code}/join", {"name": "Ben"})
        async with client(b, code, created["token"], 0) as ann, client(b, code, joined["token"], 1) as ben:
            state = await ann.settle()
            await watcher.settle()
            cut = rows(
                url,
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                "WHERE application_name = %(name)s AND datname = current_database()",
                name=LISTENER_NAME,
            )
            assert len(cut) == 2  # one listener a process
            mover = ann if state["view"]["current_seat"] == 0 else ben
            seq = await mover.act(basic_choice(mover.state or {}))
            while watcher.state is None or watcher.state["seq"] < seq:
                await watcher.next()
    assert watcher.state["view"] == replayed_views(url, code)[seq][None]
    await wait_for(lambda: "opening it again" in a.text(), "A's listener to say it reconnects")


async def test_a_killed_process_tables_are_taken_over_when_its_lease_expires(
    new_database: Callable[[], str],  # noqa: F811 - the fixture
    tmp_path: Path,
) -> None:
    """One process holds the lease; Ann plays through the other; the holder is killed (SIGKILL)
    mid-game; once its lease expires the other takes it and the bots go on; nothing acknowledged
    is lost."""
    url = new_database()
    with running(url, tmp_path, 2) as servers:
        first, second = servers
        created = new_table(first, ["human", "easy", "easy"], name="Ann", lives=1)
        code = created["code"]
        await wait_for(lambda: lease_owners(url, code) == [first.id], "the creating process to take the lease")
        acked: list[int] = []
        async with client(second, code, created["token"], 0) as ann:
            await wait_for(lambda: "cluster: process" in second.text(), "the second process's cluster")
            state = await ann.settle()
            for _ in range(2):  # the bots' moves come from the holder, through the database, to Ann on the other
                acked.append(await ann.act(basic_choice(ann.state or {}, seed=state["seq"])))
                state = await ann.settle(acked[-1] - 1)
            assert lease_owners(url, code) == [first.id]  # only one process holds the table
            assert second.bot_plays(code) == []
            killed_at = state["seq"]
            first.stop(signal.SIGKILL)
            while state["view"]["phase"] != "over":
                acked.append(await ann.act(basic_choice(ann.state or {}, seed=state["seq"])))
                state = await ann.settle(acked[-1] - 1)
        assert lease_owners(url, code) in ([second.id], [])  # taken over (and given back when the game ended)
    actions = stored_actions(url, code)
    assert [action[0] for action in actions] == list(range(1, state["seq"] + 1))
    for seq in acked:  # every acknowledged action is stored, Ann's
        assert actions[seq - 1][1:] == (0, actions[seq - 1][2], "player")
    taken_over = [action[0] for action in actions if action[3] == "bot" and action[0] > killed_at]
    assert taken_over, "no bot moved after the holder was killed"
    assert sorted(second.bot_plays(code)) == taken_over
    assert set(first.bot_plays(code)).isdisjoint(taken_over)


def test_one_process_on_postgresql_plays_a_round(new_database: Callable[[], str]) -> None:  # noqa: F811 - the fixture
    """The server works on PostgreSQL at all: create, join, play a round (in-process test client)."""
    from fastapi.testclient import TestClient

    from support.server import hello
    from thirtyone.server import ServerSettings
    from thirtyone.server import create_app

    url = new_database()
    app = create_app(
        settings=ServerSettings(
            database_url=url, bot_delay=0.0, lease_seconds=LEASE, lease_renew=RENEW, showdown_timeout=0.0
        )
    )
    with TestClient(app) as http:
        created = create(http, ["human", "human", "easy"], name="Ann")
        code = created["code"]
        joined = join(http, code, "Ben")
        with http.websocket_connect(f"/ws/tables/{code}") as ws0, http.websocket_connect(f"/ws/tables/{code}") as ws1:
            players = {0: hello(ws0, created["token"], 0), 1: hello(ws1, joined["token"], 1)}
            seq = -1
            while True:
                states = {seat: player.settle(seq) for seat, player in players.items()}
                seq = states[0]["seq"]
                view = states[0]["view"]
                if view["round"] > 1 or view["phase"] == "over":
                    break
                mover = players[view["current_seat"]]
                mover.act(basic_choice(mover.state or {}, seed=seq))
                assert mover.until("ack")["seq"] == seq + 1
        assert any(m["type"] == "round_end" for m in players[1].messages)
    assert [action[0] for action in stored_actions(url, code)] == list(range(1, seq + 1))
    assert lease_owners(url, code) == []  # given back on shutdown


@pytest.mark.parametrize("kind", ["postgresql", "sqlite"])
def test_the_leases_migration_runs_and_a_second_upgrade_changes_nothing(
    kind: str,
    new_database: Callable[[], str],  # noqa: F811 - the fixture
    tmp_path: Path,
) -> None:
    url = new_database() if kind == "postgresql" else f"sqlite:///{tmp_path / 't.db'}"
    engine = open_database(url)
    try:
        migrate(engine)  # a second upgrade to head
        with engine.connect() as connection:
            assert connection.execute(text("SELECT version_num FROM alembic_version")).scalars().all() == [HEAD]
            columns = {column["name"] for column in inspect(connection).get_columns("leases")}
            assert columns == {"table_code", "owner", "expires_at"}
            assert {"game_tables", "seats", "actions", "deals", "leases"} <= set(inspect(connection).get_table_names())
            tables = {column["name"] for column in inspect(connection).get_columns("game_tables")}
            assert {"commitment", "chain_key", "chain_length", "seated", "seen_at", "close_reason"} <= tables
            assert "seed" in {column["name"] for column in inspect(connection).get_columns("seats")}
            assert "review" in tables
    finally:
        engine.dispose()
    assert HEAD == "0005"


@pytest.mark.parametrize("kind", ["postgresql", "sqlite"])
def test_the_reviews_migration_keeps_a_finished_games_review_once(
    kind: str,
    new_database: Callable[[], str],  # noqa: F811 - the fixture
    tmp_path: Path,
) -> None:
    """0004 -> 0005 on a database holding a finished table: its review is none yet, then one is
    kept, once (a second, another process's, is not kept); 0005 -> 0004 drops the column."""
    from alembic import command
    from alembic.config import Config

    from thirtyone.server import db_open

    url = new_database() if kind == "postgresql" else f"sqlite:///{tmp_path / 't.db'}"
    engine = create_engine(normalize_url(url))
    config = Config()
    config.set_main_option("script_location", str(db_open._MIGRATIONS))
    try:
        with engine.begin() as connection:
            config.attributes["connection"] = connection
            command.upgrade(config, "0004")
            connection.execute(
                text(
                    "INSERT INTO game_tables (code, status, preset, rules, players, host_token_hash, seq, record, "
                    "created_at, updated_at, seated) VALUES ('ABCDEF', 'finished', 'scat', '{}', 2, 'x', 0, "
                    "'the record', CURRENT_TIMESTAMP, CURRENT_TIMESTAMP, 1)"
                )
            )
        migrate(engine)
        store = Store(engine)
        assert store.review("ABCDEF") is None
        assert store.keep_review("ABCDEF", '{"first": true}')
        assert not store.keep_review("ABCDEF", '{"second": true}')
        assert store.review("ABCDEF") == '{"first": true}'
        assert not store.keep_review("ZZZZZZ", "{}")  # no such table
        assert store.review("ZZZZZZ") is None
        loaded = store.load("ABCDEF")
        assert loaded is not None
        assert loaded.table.record == "the record"
        with engine.begin() as connection:
            config.attributes["connection"] = connection
            command.downgrade(config, "0004")
            assert "review" not in {column["name"] for column in inspect(connection).get_columns("game_tables")}
    finally:
        engine.dispose()


def test_on_sqlite_every_lease_is_the_process_own(tmp_path: Path) -> None:
    """One process on SQLite: no notifications, leases trivially held, nothing written for them."""
    from fastapi.testclient import TestClient

    path = tmp_path / "t.db"
    with TestClient(make_app(path)) as http:
        service = http.app.state.service  # type: ignore[attr-defined]
        assert not service.store.shared
        assert service.store.take_leases(["ABCDEF"], LEASE) == {"ABCDEF"}
        created = create(http, ["human", "easy"], name="Ann")
        assert service.cluster.held == set()
        runner = service._runners[created["code"]]
        assert runner.leased
    assert db_rows(path, "SELECT COUNT(*) FROM leases") == [(0,)]


def test_lease_settings_are_checked() -> None:
    from thirtyone.server import ServerSettings
    from thirtyone.server.errors import InputError

    with pytest.raises(InputError, match="lease_renew"):
        ServerSettings(lease_seconds=2.0, lease_renew=1.5)
    with pytest.raises(InputError, match="lease_seconds"):
        ServerSettings(lease_seconds=0.1)
    assert ServerSettings(lease_seconds=2.0, lease_renew=0.5).lease_renew == 0.5


async def test_chat_a_seat_for_a_bot_and_a_rematch_reach_the_other_process(pair: tuple[str, Server, Server]) -> None:
    """Ann on A and Ben on B: a line Ann says on A reaches Ben on B (once); the host on B gives
    the seat of Cy, who never came back, to a bot, and A's clients hear of it; the rematch made on
    B is offered to Ann on A."""
    _url, a, b = pair
    created = new_table(a, ["human", "human", "human"], name="Ann", lives=1)
    code = created["code"]
    ben = post(b, f"/api/tables/{code}/join", {"name": "Ben"})
    cy = post(b, f"/api/tables/{code}/join", {"name": "Cy2"})
    async with client(a, code, created["token"], 0) as ann, client(b, code, ben["token"], 1) as ben_client:
        await ann.ws.send(json.dumps({"type": "chat", "text": "hi from A"}))
        line = await ben_client.until("chat")
        assert (line["seat"], line["text"]) == (0, "hi from A")
        host = {"Authorization": f"Bearer {created['host_token']}"}
        answer = httpx.post(f"{b.http}/api/tables/{code}/seats/2/bot", headers=host, json={"level": "easy"})
        assert answer.status_code == 200, answer.text
        while (await ann.until("table"))["table"]["seats"][2]["kind"] != "bot":
            pass
        players = {0: ann, 1: ben_client}
        seq = -1
        while True:
            states = {seat: await player.settle(seq) for seat, player in players.items()}
            state = states[0]
            seq = state["seq"]
            if state["view"]["phase"] == "over":
                break
            if state["view"]["current_seat"] not in players:
                seq -= 1
                await ann.next()
                continue
            await players[state["view"]["current_seat"]].act(
                basic_choice(players[state["view"]["current_seat"]].state or {}, seed=seq)
            )
        made = httpx.post(f"{b.http}/api/tables/{code}/rematch", headers={"Authorization": f"Bearer {ben['token']}"})
        assert made.status_code == 200, made.text
        offer = await ann.until("rematch")
        assert offer["code"] == made.json()["code"]
        assert [m["text"] for m in ben_client.messages if m["type"] == "chat"] == ["hi from A"]
    assert cy["seat"] == 2
