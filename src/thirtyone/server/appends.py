"""Writing actions, the database's busiest write: each with the deals it led to and the table's
new ``seq`` together, guarded by the old ``seq`` (``UPDATE … WHERE seq = old``): when another
writer got there first (a second server process on the same PostgreSQL database), nothing is
written and :class:`~thirtyone.server.rows.StaleError` is its answer, so the table catches up.

The actions of different tables that wait at the same moment share one transaction and one commit
(a group commit: the commit's wait for the disk is paid once), each with its own guard and its own
answer. On SQLite, which has one writer at a time, the server's writes take turns
(:class:`WriteTurns`), actions ahead of every other write waiting. On PostgreSQL the batch's tables
are locked in the order of their codes (so that two processes' batches never wait for each other in
a circle), and each table's change notifies the other processes once the batch commits.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import Connection
from sqlalchemy import Engine
from sqlalchemy import bindparam
from sqlalchemy import insert
from sqlalchemy import text
from sqlalchemy import update
from sqlalchemy.exc import DBAPIError
from sqlalchemy.exc import IntegrityError
from sqlalchemy.exc import SQLAlchemyError

from thirtyone.server.fair import Deal
from thirtyone.server.history import ActionData
from thirtyone.server.models import ActionRow
from thirtyone.server.models import DealRow
from thirtyone.server.models import TableRow
from thirtyone.server.rows import FINISHED
from thirtyone.server.rows import PLAYING
from thirtyone.server.rows import StaleError
from thirtyone.server.rows import deal_values
from thirtyone.server.rows import now
from thirtyone.server.rows import rowcount

__all__ = ["WriteTurns", "FirstTurn", "ActionWriter", "AppendJob"]

AppendJob = tuple[str, ActionData, Sequence[Deal], tuple[int, str] | None]
"""One action to store: the table's code, the action, the deals it led to, and ``(winner,
record)`` when it ended the game."""


class WriteTurns:
    """SQLite's one writer at a time, in turns: ``with turns:`` waits for a turn; ``with
    FirstTurn(turns):`` (actions, whose players wait for their ack) takes the next turn ahead of every
    other write waiting, so that a burst of other writes (tables created, seats joined) delays an
    action by one write at most, not by all of them."""

    def __init__(self) -> None:
        self._changed = threading.Condition()
        self._busy = False
        self._first_waiting = 0
        self.waiting = 0
        """Writers waiting for a turn now."""

    def take(self, first: bool) -> None:
        """Wait for a turn (``first``: ahead of the writes that are not)."""
        with self._changed:
            self._first_waiting += int(first)
            self.waiting += 1
            try:
                while self._busy or (not first and self._first_waiting):
                    self._changed.wait()
            finally:
                self._first_waiting -= int(first)
                self.waiting -= 1
            self._busy = True

    def give(self) -> None:
        """End this turn."""
        with self._changed:
            self._busy = False
            self._changed.notify_all()

    def __enter__(self) -> None:
        self.take(first=False)

    def __exit__(self, *_: object) -> None:
        self.give()


class FirstTurn:
    """``with``: a turn of ``turns`` ahead of the other writes waiting (see :class:`WriteTurns`)."""

    def __init__(self, turns: WriteTurns) -> None:
        self._turns = turns

    def __enter__(self) -> None:
        self._turns.take(first=True)

    def __exit__(self, *_: object) -> None:
        self._turns.give()


@dataclass
class _Append:
    """One action waiting to be written, and what came of it."""

    code: str
    action: ActionData
    deals: Sequence[Deal]
    finished: tuple[int, str] | None
    done: bool = False
    error: Exception | None = None


class ActionWriter:
    """Writes actions to the database behind ``engine`` (see the module docstring): on PostgreSQL
    when ``shared``, each table moved notifying the other processes on ``channel`` as ``process``
    (``"CODE SEQ PROCESS"``), else in SQLite's ``turns``."""

    def __init__(
        self, engine: Engine, shared: bool, turns: WriteTurns | None, channel: str = "", process: str = ""
    ) -> None:
        self.engine = engine
        self.shared = shared
        self.channel = channel
        self.process = process
        self._first: contextlib.AbstractContextManager[Any] = (
            FirstTurn(turns) if turns is not None else contextlib.nullcontext()
        )
        self._queue: list[_Append] = []  # SQLite: actions waiting for the next group commit
        self._queue_lock = threading.Lock()

    def append(self, code: str, action: ActionData, deals: Sequence[Deal], finished: tuple[int, str] | None) -> None:
        """Store one action (:meth:`Store.append <thirtyone.server.db_store.Store.append>`).

        Raises:
            StaleError: when the table's ``seq`` is not ``action.seq - 1`` (another writer was first).
        """
        job = _Append(code, action, deals, finished)
        if self.shared:  # several processes: each action is its own transaction
            self._write_alone(job)
        else:
            self._group_commit(job)
        if job.error is not None:
            raise job.error

    def append_batch(self, jobs: Sequence[AppendJob]) -> list[Exception | None]:
        """Store several actions at once (:meth:`Store.append_batch
        <thirtyone.server.db_store.Store.append_batch>`); each one's error, or ``None``, in order."""
        batch = [_Append(code, action, deals, finished) for code, action, deals, finished in jobs]
        with self._first:
            # one lock order for every writer (PostgreSQL: no deadlock between two processes' batches)
            self._write_batch(sorted(batch, key=lambda job: job.code) if self.shared else batch)
        return [job.error for job in batch]

    def _write_batch(self, batch: list[_Append]) -> None:
        try:
            try:
                connection = self.engine.connect()
            except SQLAlchemyError as error:  # no database: each alone would wait for it again
                self._fail(batch, error)
                return
            with connection, connection.begin():
                self._write_many(connection, batch)
            for item in batch:
                item.done = True
        except DBAPIError as error:
            if error.connection_invalidated:  # the database went away meanwhile: the same
                self._fail(batch, error)
            else:
                self._write_each(batch)
        except SQLAlchemyError:
            self._write_each(batch)
        finally:
            for item in batch:
                if not item.done:  # interrupted, stored or not: its table must reload to know
                    item.error = item.error or StaleError(f"table {item.code}: the write was interrupted")
                    item.done = True

    @staticmethod
    def _fail(batch: list[_Append], error: SQLAlchemyError) -> None:
        for item in batch:
            item.error, item.done = error, True

    def _write_each(self, batch: list[_Append]) -> None:
        """The batch failed as a whole (one action's deal already stored, a full disk): each action
        alone, so that each gets its own answer."""
        for item in batch:
            item.error = None
            self._write_alone(item)

    def _group_commit(self, job: _Append) -> None:
        """SQLite: one writer at a time, and a commit waits for the disk (fsync); so whoever holds
        the write lock writes every action waiting for it in one transaction with one commit.
        Each action's compare-and-set stands alone: one that finds its table moved on writes
        nothing and gets its StaleError, the others are stored. If the transaction fails as a whole
        (a full disk, say), each action is tried again on its own, so that each gets its own answer."""
        with self._queue_lock:
            self._queue.append(job)
        with self._first:
            if job.done:  # an earlier holder of the lock wrote it
                return
            with self._queue_lock:
                batch, self._queue = self._queue, []
            self._write_batch(batch)

    def _write_alone(self, job: _Append) -> None:
        """Write one action in a transaction of its own; its error, if any, goes in ``job.error``."""
        try:
            with self.engine.begin() as connection:
                self._write_many(connection, [job])
        except IntegrityError:
            job.error = StaleError(f"table {job.code} already has an action {job.action.seq} or its deal")
        except SQLAlchemyError as error:
            job.error = error
        job.done = True

    def _write_many(self, connection: Connection, jobs: Sequence[_Append]) -> None:
        """Write actions in ``connection``'s transaction: each table's compare-and-set on its own
        (one that finds its table moved on gets its StaleError and writes nothing), then the
        actions and deals of the others in one statement each."""
        # SQLAlchemy Core with statements built once, not the ORM: this is the write of every
        # action (benchmarks/bench_server.py: the ORM's unit of work cost a third of it, building
        # each statement anew another fifth)
        at = now()
        moved = (
            self._advance_together(connection, jobs, at) if self.shared else self._advance_each(connection, jobs, at)
        )
        actions: list[dict[str, Any]] = []
        deals: list[dict[str, Any]] = []
        for job in jobs:
            action, code = job.action, job.code
            if (code, action.seq) not in moved:  # nothing written: the other actions of a batch go on
                job.error = StaleError(f"table {code} is not at seq {action.seq - 1}")
                continue
            actions.append({"table_code": code, **vars(action), "created_at": at})
            deals.extend(deal_values(code, deal, at) for deal in job.deals)
        if actions:
            connection.execute(insert(ActionRow), actions)
        if deals:
            connection.execute(insert(DealRow), deals)

    @staticmethod
    def _advance_each(connection: Connection, jobs: Sequence[_Append], at: datetime) -> set[tuple[str, int]]:
        """SQLite: each table's compare-and-set, one statement each (no round trips in a file);
        the tables and seqs moved."""
        moved: set[tuple[str, int]] = set()
        for job in jobs:
            action, code = job.action, job.code
            params: dict[str, Any] = {"b_code": code, "b_before": action.seq - 1, "b_seq": action.seq, "b_now": at}
            if job.finished is None:
                result = connection.execute(_ADVANCE, params)
            else:
                params.update(b_winner=job.finished[0], b_record=job.finished[1])
                result = connection.execute(_FINISH, params)
            if rowcount(result) == 1:
                moved.add((code, action.seq))
        return moved

    def _advance_together(self, connection: Connection, jobs: Sequence[_Append], at: datetime) -> set[tuple[str, int]]:
        """PostgreSQL: every table's compare-and-set in one statement, each notifying the other
        processes (once the transaction commits), after the tables are locked in the order of
        their codes; the tables and seqs moved. Two statements a batch, however many actions:
        each statement is a round trip to the database."""
        codes = [job.code for job in jobs]
        connection.execute(_LOCK_TABLES, {"codes": codes})
        moved = connection.execute(
            _ADVANCE_TOGETHER,
            {
                "codes": codes,
                "befores": [job.action.seq - 1 for job in jobs],
                "seqs": [job.action.seq for job in jobs],
                "finished": [job.finished is not None for job in jobs],
                "winners": [None if job.finished is None else job.finished[0] for job in jobs],
                "records": [None if job.finished is None else job.finished[1] for job in jobs],
                "now": at,
                "playing": PLAYING,
                "over": FINISHED,
                "channel": self.channel,
                "process": self.process,
            },
        )
        return {(code, seq) for code, seq, _ in moved}


_ADVANCE = (
    update(TableRow)
    .where(TableRow.code == bindparam("b_code"), TableRow.seq == bindparam("b_before"), TableRow.status == PLAYING)
    .values(seq=bindparam("b_seq"), updated_at=bindparam("b_now"))
)
"""An action's compare-and-set: the table moves from seq ``b_before`` to ``b_seq`` (built once)."""
_FINISH = _ADVANCE.values(status=FINISHED, winner=bindparam("b_winner"), record=bindparam("b_record"))
"""The same for the action that ends the game: the table is finished with its winner and record."""
_LOCK_TABLES = text("SELECT code FROM game_tables WHERE code = ANY(CAST(:codes AS text[])) ORDER BY code FOR UPDATE")
"""PostgreSQL: lock a batch's tables in the order of their codes, as every writer of a batch does."""
_ADVANCE_TOGETHER = text(
    "UPDATE game_tables AS t SET seq = j.seq, updated_at = :now, "
    "status = CASE WHEN j.finished THEN :over ELSE t.status END, "
    "winner = CASE WHEN j.finished THEN j.winner ELSE t.winner END, "
    "record = CASE WHEN j.finished THEN j.record ELSE t.record END "
    "FROM unnest(CAST(:codes AS text[]), CAST(:befores AS integer[]), CAST(:seqs AS integer[]), "
    "CAST(:finished AS boolean[]), CAST(:winners AS integer[]), CAST(:records AS text[])) "
    "AS j(code, before, seq, finished, winner, record) "
    "WHERE t.code = j.code AND t.seq = j.before AND t.status = :playing "
    "RETURNING t.code, t.seq, pg_notify(:channel, t.code || ' ' || t.seq || ' ' || :process)"
)
"""PostgreSQL: the compare-and-set of every action of a batch (those that end the game finish
their table with its winner and record), each table moved notifying the others; returns the
tables and seqs moved."""
