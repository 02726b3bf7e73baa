"""The store's writes on PostgreSQL, counted: a renewal of many leases is one statement, the
actions of many tables that arrive together share one commit (each with its own compare-and-set),
and a database that goes away answers each waiting action with its error, nothing stored, until it
is back; every connection sends TCP keepalives, so that one to a database lost half-open fails in
seconds. A throwaway PostgreSQL as tests/test_server_cluster.py makes it (skipped without one,
unless ``THIRTYONE_REQUIRE_POSTGRES=1``)."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import threading
from collections.abc import Callable
from collections.abc import Iterator
from collections.abc import Sequence
from typing import Any

import pytest
from sqlalchemy import event
from sqlalchemy.exc import OperationalError

from support.postgres import LEASE
from support.postgres import RENEW
from support.postgres import new_database  # noqa: F401 - fixtures
from support.postgres import postgres  # noqa: F401
from support.postgres import rows
from support.server import basic_choice
from support.server import create
from support.server import hello
from support.server import join
from support.server import playing_tables
from thirtyone.server import ServerSettings
from thirtyone.server.appends import AppendJob
from thirtyone.server.cluster import LISTENER_NAME
from thirtyone.server.cluster import Cluster
from thirtyone.server.db_open import KEEPALIVES
from thirtyone.server.db_open import normalize_url
from thirtyone.server.db_open import open_database
from thirtyone.server.db_store import PLAYING
from thirtyone.server.db_store import StaleError
from thirtyone.server.db_store import Store
from thirtyone.server.db_threads import Database
from thirtyone.server.history import ActionData


@pytest.fixture
def url(new_database: Callable[[], str]) -> str:  # noqa: F811
    return new_database()


@pytest.fixture
def store(url: str) -> Iterator[Store]:
    engine = open_database(url)
    yield Store(engine)
    engine.dispose()


def statements(store: Store) -> list[str]:
    """The SQL statements ``store``'s engine sends from now on."""
    sent: list[str] = []

    def count(connection: Any, cursor: Any, statement: str, *args: Any) -> None:
        sent.append(statement)

    event.listen(store.engine, "before_cursor_execute", count)
    return sent


def connection_tries(store: Store) -> list[int]:
    """How many times ``store``'s engine tries to open a connection from now on."""
    counted = [0]

    def count(*args: Any) -> None:
        counted[0] += 1

    event.listen(store.engine, "do_connect", count)
    return counted


def commits(store: Store) -> list[int]:
    counted = [0]

    def count(connection: Any) -> None:
        counted[0] += 1

    event.listen(store.engine, "commit", count)
    return counted


def test_renewing_the_leases_of_many_tables_is_one_statement(store: Store) -> None:
    codes = [f"L{index:05d}" for index in range(200)]
    sent, counted = statements(store), commits(store)
    assert store.take_leases(codes, 10.0) == set(codes)
    assert store.take_leases(codes, 10.0) == set(codes)  # renewed
    assert len(sent) == 2  # one statement each, for 200 tables
    assert counted[0] == 2  # and one commit
    other = Store(store.engine)  # another process on the same database
    assert other.take_leases(codes[:10], 10.0) == set()  # held, not expired
    assert store.take_leases(codes[:10], -1.0) == set(codes[:10])  # renewed into the past: expired
    assert other.take_leases([*codes[:10], "NEW001"], 10.0) == {*codes[:10], "NEW001"}
    assert store.take_leases(codes[:11], 10.0) == {codes[10]}
    assert store.take_leases([], 10.0) == set()


def test_actions_of_many_tables_arriving_together_share_one_commit(store: Store, url: str) -> None:
    codes = playing_tables(store, 20)
    store.append(codes[3], ActionData(1, 1, 0, "draw stock", "player"), [])
    counted, sent = commits(store), statements(store)
    jobs: list[AppendJob] = [(code, ActionData(1, 1, 0, "draw pile", "player"), [], None) for code in reversed(codes)]
    errors = store.append_batch(jobs)
    assert counted[0] == 1  # one transaction, one wait for the disk, for twenty tables
    assert len(sent) == 3  # in three round trips: lock the tables, move them on, add the actions
    assert [code for (code, *_), error in zip(jobs, errors, strict=True) if error is not None] == [codes[3]]
    assert isinstance(errors[len(codes) - 1 - 3], StaleError)  # its table was at seq 1: nothing written
    stored = rows(url, "SELECT table_code, action FROM actions ORDER BY table_code")
    assert stored == [(code, "draw stock" if code == codes[3] else "draw pile") for code in codes]
    assert rows(url, "SELECT min(seq), max(seq) FROM game_tables") == [(1, 1)]


def test_a_batch_cut_off_from_its_database_stores_nothing_and_each_action_hears_it(
    store: Store,
    url: str,
    postgres: str,  # noqa: F811
) -> None:
    """The database goes away (its connections cut, new ones refused): every action of the batch
    gets the database's error at once (none is tried again on its own, which would wait for the
    database once per action), nothing is stored; once the database is back, they are."""
    codes = playing_tables(store, 5)
    jobs: list[AppendJob] = [(code, ActionData(1, 1, 0, "draw stock", "player"), [], None) for code in codes]
    name = url.rsplit("/", 1)[1]
    with outage(postgres, name):
        sent, tries = statements(store), connection_tries(store)
        errors = store.append_batch(jobs)
        assert all(isinstance(error, OperationalError) for error in errors)
        assert not any("INSERT INTO actions" in statement for statement in sent)
        assert tries[0] == 1  # one try for the batch
    assert rows(url, "SELECT count(*) FROM actions") == [(0,)]
    assert store.append_batch(jobs) == [None] * len(codes)
    assert rows(url, "SELECT count(*) FROM actions") == [(5,)]


def test_a_server_that_loses_its_database_refuses_actions_and_takes_them_again_once_it_is_back(
    url: str,
    postgres: str,  # noqa: F811
) -> None:
    """While the database is away a person's action is answered ``database`` (nothing changed,
    try again), never ``ack``, and nothing is stored; once it is back the same action is stored and
    acknowledged, and the game goes on."""
    from fastapi.testclient import TestClient

    from thirtyone.server import ServerSettings
    from thirtyone.server import create_app

    settings = ServerSettings(
        database_url=url, bot_delay=0.0, lease_seconds=LEASE, lease_renew=RENEW, showdown_timeout=0.0
    )
    with TestClient(create_app(settings=settings)) as http:
        created = create(http, ["human", "human"], name="Ann")
        code = created["code"]
        joined = join(http, code, "Ben")
        with http.websocket_connect(f"/ws/tables/{code}") as ws0, http.websocket_connect(f"/ws/tables/{code}") as ws1:
            players = {0: hello(ws0, created["token"], 0), 1: hello(ws1, joined["token"], 1)}
            state = players[0].settle()
            mover = players[state["view"]["current_seat"]]
            action = basic_choice(mover.state or {}, seed=1)
            with outage(postgres, url.rsplit("/", 1)[1]):
                mover.act(action)
                answer = mover.next()
                while answer["type"] not in ("error", "ack"):
                    answer = mover.next()
                assert (answer["type"], answer.get("code")) == ("error", "database"), answer
                assert "nothing was changed" in answer["message"]
                assert rows_while_away(url) is None
            assert rows(url, "SELECT count(*) FROM actions") == [(0,)]
            mover.act(action)
            assert mover.until("ack")["seq"] == 1
            assert {seat: player.settle(0)["seq"] for seat, player in players.items()} == {0: 1, 1: 1}
    assert rows(url, "SELECT table_code, seq FROM actions") == [(code, 1)]


def rows_while_away(url: str) -> Any:
    """None while the database refuses connections (the outage holds)."""
    try:
        return rows(url, "SELECT 1")
    except Exception:
        return None


@contextlib.contextmanager
def outage(admin: str, name: str) -> Iterator[None]:
    """Database ``name`` refuses connections and its open ones are cut (as when its server stops),
    until the block ends; ``admin`` is the URL of another database of its server, as a superuser."""
    import psycopg

    with psycopg.connect(admin, autocommit=True) as connection:
        connection.execute(f"ALTER DATABASE {name} ALLOW_CONNECTIONS false")
        connection.execute(f"SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '{name}'")
    try:
        yield
    finally:
        with psycopg.connect(admin, autocommit=True) as connection:
            connection.execute(f"ALTER DATABASE {name} ALLOW_CONNECTIONS true")


@dataclasses.dataclass
class _Runner:
    """A table's runner as the cluster sees it: its status, and whether it leads."""

    status: str = PLAYING
    leased: bool = False

    @property
    def data(self) -> Any:
        return self

    async def lead(self, held: bool) -> None:
        self.leased = held


async def test_a_wake_between_renewals_takes_only_the_leases_that_are_lacking(store: Store) -> None:
    """A renewal takes every played table's lease in one statement; a runner that wakes the
    cluster between renewals (a new table with a bot to move) makes it take only the leases its
    process lacks, not renew them all again (1,000 tables starting made 1,000 renewals of up to
    1,000 tables each)."""
    runners = {f"W{index:05d}": _Runner() for index in range(50)}
    cluster = Cluster(Database(store), ServerSettings(lease_seconds=LEASE, lease_renew=RENEW), runners)  # type: ignore[arg-type]
    asked: list[list[str]] = []
    take = store.take_leases

    def recorded(codes: Sequence[str], seconds: float) -> set[str]:
        asked.append(list(codes))
        return take(codes, seconds)

    store.take_leases = recorded  # type: ignore[method-assign]
    await cluster.renew()
    assert asked == [sorted(runners)]
    assert all(runner.leased for runner in runners.values())
    runners["W99999"] = _Runner()
    await cluster.renew(lacking=True)
    assert asked[1:] == [["W99999"]]
    assert cluster.held == set(runners)
    await cluster.renew(lacking=True)  # nothing lacking: nothing asked
    assert len(asked) == 2
    runners["W00000"].status = "finished"
    await cluster.renew()
    assert asked[2:] == [sorted(set(runners) - {"W00000"})]
    assert rows(store.engine.url.render_as_string(hide_password=False), "SELECT count(*) FROM leases") == [(50,)]
    cluster.db.close()


def test_marking_tables_seen_locks_them_in_the_order_a_batch_of_actions_does(store: Store, url: str) -> None:
    """The idle tables' sweep marks every table with someone connected seen, in one statement: it
    must take their rows' locks in the order of their codes, as a batch of actions does, or the two
    wait for each other (PostgreSQL found the deadlock under load and failed one). Tables stored in
    the reverse of their codes' order (so a plain scan meets them last code first); while another
    transaction holds the middle one, the sweep holds the first code's lock and not the last's."""
    import psycopg

    codes = playing_tables(store, 3, last_first=True)
    plain = normalize_url(url).set(drivername="postgresql").render_as_string(hide_password=False)
    with psycopg.connect(plain) as holder, psycopg.connect(plain, autocommit=True) as watcher:
        holder.execute("SELECT code FROM game_tables WHERE code = 'T00001' FOR UPDATE")
        sweep = threading.Thread(target=store.touch, args=(codes,))
        sweep.start()
        while not watcher.execute(
            "SELECT 1 FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE 'UPDATE game_tables%%'"
        ).fetchall():
            threading.Event().wait(0.01)
        locked = {}
        for code in ("T00000", "T00002"):
            try:
                with watcher.transaction():
                    watcher.execute("SELECT code FROM game_tables WHERE code = %s FOR UPDATE NOWAIT", (code,))
                locked[code] = False
            except psycopg.errors.LockNotAvailable:
                locked[code] = True
        holder.rollback()
        sweep.join(10)
    assert locked == {"T00000": True, "T00002": False}


KEPT_ALIVE = {name: str(value) for name, value in KEEPALIVES.items()}
"""libpq's keepalive options as a connection reports them (``ConnectionInfo.get_parameters()``)."""


def test_the_pools_connections_send_tcp_keepalives_unless_the_url_says_otherwise(url: str) -> None:
    """Without keepalives a connection to a database lost half-open (its host gone without closing
    it) waits for the system's default, over two hours: every connection of the pool carries
    libpq's (KEEPALIVES), and an option the URL's query sets stays the URL's."""
    for given, wanted in ((url, KEPT_ALIVE), (f"{url}?keepalives_idle=30", {**KEPT_ALIVE, "keepalives_idle": "30"})):
        engine = open_database(given)
        try:
            with engine.connect() as connection:
                dbapi: Any = connection.connection.dbapi_connection
                parameters = dbapi.info.get_parameters()
        finally:
            engine.dispose()
        assert {name: parameters.get(name) for name in KEEPALIVES} == wanted
        assert parameters.get("tcp_user_timeout") == "10000"  # a statement in flight to a lost database fails in 10 s


async def test_the_listening_connection_sends_tcp_keepalives(store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    """The cluster's listener waits on its connection for notifications, so a half-open one would
    hear none for hours: it carries the same keepalives as the pool's."""
    import psycopg

    listeners: list[psycopg.Connection[Any]] = []
    listening = threading.Event()
    connect = psycopg.connect

    def recorded(*args: Any, **kwargs: Any) -> psycopg.Connection[Any]:
        connection = connect(*args, **kwargs)
        if kwargs.get("application_name") == LISTENER_NAME:
            listeners.append(connection)
            listening.set()
        return connection

    monkeypatch.setattr(psycopg, "connect", recorded)
    cluster = Cluster(Database(store), ServerSettings(lease_seconds=LEASE, lease_renew=RENEW), {})
    await cluster.start()
    try:
        assert await asyncio.to_thread(listening.wait, 30), "the listener never connected"
        parameters = listeners[0].info.get_parameters()
    finally:
        await cluster.stop()
        cluster.db.close()
    assert {name: parameters.get(name) for name in KEEPALIVES} == KEPT_ALIVE
