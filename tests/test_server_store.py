"""The store: every field of a table and its seats is stored and read back as it is; the group
commit (SQLite): actions of many tables written at once share one transaction and one commit, yet
each keeps its own compare-and-set and its own answer."""

from __future__ import annotations

import dataclasses
import threading
from collections.abc import Callable
from datetime import UTC
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import Connection
from sqlalchemy import event
from sqlalchemy.exc import OperationalError

from support.server import db_rows
from support.server import playing_tables
from thirtyone.server.db_open import open_database
from thirtyone.server.db_store import OPEN
from thirtyone.server.db_store import SeatData
from thirtyone.server.db_store import StaleError
from thirtyone.server.db_store import Store
from thirtyone.server.db_store import TableData
from thirtyone.server.history import ActionData


def test_every_field_of_a_table_and_its_seats_is_stored_and_read_back(store: Store) -> None:
    """Each field is listed once, in its dataclass: none is left out on the way in or out (before,
    the creation wrote a list of its own, and a table's record, first dealer or reason were lost)."""
    table = TableData(
        code="QWERTY",
        status="closed",
        preset="widow",
        options={"mode": "widow", "lives": 4},
        players=2,
        host_token_hash="1" * 64,
        seats=[SeatData(0, "human", None, "Ann", "2" * 64, None, "ab" * 16), SeatData(1, "bot", "easy", "Bo")],
        created_at=datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC),
        first_dealer=1,
        seq=7,
        winner=0,
        record="a record",
        public=True,
        hints=False,
        rematch="ASDFGH",
        rematch_of="ZXCVBN",
        commitment="c" * 64,
        chain_key="d" * 64,
        chain_length=16,
        close_reason="host",
        seen_at=None,
    )
    assert store.create(dataclasses.replace(table, rematch_of=None))
    loaded = store.load("QWERTY")
    assert loaded is not None
    assert loaded.table.seen_at is not None  # a person is there when it is made
    assert dataclasses.replace(loaded.table, seen_at=None) == dataclasses.replace(table, rematch_of=None)
    assert (loaded.deals, loaded.actions) == ([], [])


@pytest.fixture
def store(tmp_path: Path) -> Store:
    return Store(open_database(f"sqlite:///{tmp_path / 'store.db'}"))


def in_one_batch(store: Store, *appends: Callable[[], None]) -> None:  # the threads' own group commit
    """Run ``appends`` on threads of their own while the write lock is held, so that all of them
    wait for it; then let go: whoever takes the lock next writes them all in one transaction."""
    with store._writing:
        threads = [threading.Thread(target=append) for append in appends]
        for thread in threads:
            thread.start()
        while len(store._actions._queue) < len(appends):
            threading.Event().wait(0.01)
    for thread in threads:
        thread.join(10)


def commits(store: Store) -> list[int]:
    counted = [0]

    def count(connection: Connection) -> None:
        counted[0] += 1

    event.listen(store.engine, "commit", count)
    return counted


def test_concurrent_actions_share_commits_and_all_are_stored(store: Store, tmp_path: Path) -> None:
    codes = playing_tables(store, 12)
    counted = commits(store)
    barrier = threading.Barrier(len(codes))
    errors: list[BaseException] = []

    def play(code: str) -> None:
        try:
            for seq in range(1, 21):
                if seq == 1:
                    barrier.wait()
                store.append(code, ActionData(seq, 1, seq % 2, "draw stock", "player"), [])
        except BaseException as error:
            errors.append(error)

    threads = [threading.Thread(target=play, args=(code,)) for code in codes]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert errors == []
    db = tmp_path / "store.db"
    assert db_rows(db, "SELECT count(*) FROM actions") == [(12 * 20,)]
    assert db_rows(db, "SELECT min(seq), max(seq) FROM game_tables") == [(20, 20)]
    assert counted[0] <= 12 * 20  # never more commits than actions; fewer when they came together


def test_a_stale_action_in_a_batch_writes_nothing_and_the_others_are_stored(store: Store, tmp_path: Path) -> None:
    first, second = playing_tables(store, 2)
    store.append(first, ActionData(1, 1, 0, "draw stock", "player"), [])
    outcomes: dict[str, Any] = {}
    counted = commits(store)

    def append(code: str, seq: int) -> None:
        try:
            store.append(code, ActionData(seq, 1, 0, "draw pile", "player"), [])
            outcomes[code] = "stored"
        except StaleError as error:
            outcomes[code] = error

    in_one_batch(store, lambda: append(first, 1), lambda: append(second, 1))
    assert outcomes[second] == "stored"
    assert isinstance(outcomes[first], StaleError)
    assert counted[0] == 1  # one transaction, one commit, for both
    rows = db_rows(tmp_path / "store.db", "SELECT table_code, seq, action FROM actions ORDER BY table_code")
    assert rows == [(first, 1, "draw stock"), (second, 1, "draw pile")]


def test_a_failed_batch_gives_each_action_its_own_answer(store: Store, tmp_path: Path) -> None:
    first, second = playing_tables(store, 2)
    failures = [1]

    @event.listens_for(store.engine, "before_execute")
    def fail_once(connection: Connection, clause: Any, *args: Any) -> None:
        if failures and "INSERT INTO actions" in str(clause):
            failures.pop()
            raise OperationalError("INSERT", {}, Exception("disk I/O error"))

    outcomes: dict[str, Any] = {}

    def append(code: str) -> None:
        try:
            store.append(code, ActionData(1, 1, 0, "draw stock", "player"), [])
            outcomes[code] = "stored"
        except OperationalError as error:
            outcomes[code] = error

    in_one_batch(store, lambda: append(first), lambda: append(second))
    # the batch failed once; written again one by one, both are stored
    assert outcomes == {first: "stored", second: "stored"}
    assert db_rows(tmp_path / "store.db", "SELECT count(*) FROM actions") == [(2,)]


def test_actions_take_the_next_turn_to_write_ahead_of_other_writes_waiting(store: Store, tmp_path: Path) -> None:
    """A burst of other writes (tables created, seats joined) delays an action by one write at
    most: while one write holds SQLite's turn, an action that comes after eight waiting table
    creations is written before them (were the turns a plain lock, it would come first one time
    in nine)."""
    (code,) = playing_tables(store, 1)
    order: list[str] = []
    turns = store._writing
    original_write = store._actions._write_batch

    def write_batch(batch: Any) -> None:
        order.append("action")
        original_write(batch)

    store._actions._write_batch = write_batch  # type: ignore[method-assign]
    created = []

    def create(index: int) -> None:
        seats = [SeatData(0, "human", None, None)]
        new = f"N{index:05d}"
        store.create(TableData(new, OPEN, "scat", {}, 1, "0" * 64, seats, datetime.now(UTC)))
        order.append(f"create {index}")
        created.append(new)

    with turns:  # one write holds the turn
        creators = [threading.Thread(target=create, args=(index,)) for index in range(8)]
        for thread in creators:
            thread.start()
        while turns.waiting < 8:  # type: ignore[attr-defined]
            threading.Event().wait(0.01)
        action = ActionData(1, 1, 0, "draw stock", "player")
        actor = threading.Thread(target=store.append_batch, args=([(code, action, [], None)],))
        actor.start()
        while turns.waiting < 9:  # type: ignore[attr-defined]
            threading.Event().wait(0.01)
    for thread in [*creators, actor]:
        thread.join(10)
    assert order[0] == "action"
    assert sorted(order[1:]) == [f"create {index}" for index in range(8)]
    assert sorted(created) == [f"N{index:05d}" for index in range(8)]
    assert db_rows(tmp_path / "store.db", "SELECT seq FROM actions") == [(1,)]
