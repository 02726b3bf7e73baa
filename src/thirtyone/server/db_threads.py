"""The event loop's way to the database: the :class:`~thirtyone.server.db_store.Store`'s methods on
threads of their own, so that nothing else the server runs on threads (bots, hints) can make a
write wait, and a write never makes the loop wait.

* **Reads** (loading a table, the lobby) run on a few reader threads (``readers``).
* **Writes** run on writer threads of their own: one on SQLite, which has one writer at a time
  anyway; a few on PostgreSQL.
* **Actions** are the writes that matter most: they have a thread of their own, and on SQLite they
  take the next turn to write ahead of any other write waiting, so that a burst of other writes
  (tables created, seats joined) delays an action by one write at most. They are written
  together: every action that arrives while their thread is busy waits on the event loop, and the next batch
  takes them all, in one transaction with one commit (one wait for the disk), each with its own
  compare-and-set and its own answer (:meth:`Store.append_batch
  <thirtyone.server.db_store.Store.append_batch>`). However many actions come at once, none waits for
  a free thread and the batch grows with the load. (Before, each action held a thread of asyncio's
  small default pool while it waited for the write lock, shared with the bots and hints: under
  load the pool was full and every other database call queued behind it.)

On SQLite the write-ahead log is checkpointed every :data:`CHECKPOINT_SECONDS` on a reader thread
(:meth:`start`), so that no commit has to do it.

Every failure of the database is a :class:`~thirtyone.server.errors.DatabaseError` ("nothing was
changed, try again"); a :class:`~thirtyone.server.db_store.StaleError` passes through.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
from collections.abc import Callable
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import ParamSpec
from typing import TypeVar

from sqlalchemy.exc import SQLAlchemyError

from thirtyone.server.db_store import Store
from thirtyone.server.errors import DatabaseError
from thirtyone.server.fair import Deal
from thirtyone.server.history import ActionData

__all__ = ["Database", "database_error", "CHECKPOINT_SECONDS"]

CHECKPOINT_SECONDS = 1.0
"""How often the SQLite write-ahead log is copied back into the database file."""

log = logging.getLogger("thirtyone.server")

_P = ParamSpec("_P")
_T = TypeVar("_T")

_Job = tuple[str, ActionData, Sequence[Deal], tuple[int, str] | None]


def database_error(error: SQLAlchemyError) -> DatabaseError:
    """The client's error for a database failure (logged once, its first line)."""
    reason = str(getattr(error, "orig", None) or error).strip().splitlines()
    first = reason[0] if reason else type(error).__name__
    log.warning("database error: %s", first)
    return DatabaseError(f"the database is unavailable ({first}); nothing was changed, try again")


def _retrieved(future: asyncio.Future[None]) -> None:
    """Mark the outcome seen: a caller cancelled while its action was written does not read it."""
    if not future.cancelled():
        future.exception()


class Database:
    """``store``'s methods for the event loop (see the module docstring): :meth:`read`,
    :meth:`write` and :meth:`append`, on ``readers`` reader threads and ``writers`` writer threads
    (default: 1 on SQLite, 4 on PostgreSQL), started when first needed. :meth:`close` ends them."""

    def __init__(self, store: Store, readers: int = 4, writers: int | None = None) -> None:
        self.store = store
        self.readers = max(1, readers)
        self.writers = max(1, 4 if store.shared else 1) if writers is None else max(1, writers)
        self._read_pool: ThreadPoolExecutor | None = None
        self._write_pool: ThreadPoolExecutor | None = None
        self._append_pool: ThreadPoolExecutor | None = None
        self._waiting: list[tuple[_Job, asyncio.Future[None]]] = []
        self._flushing = False
        self._checkpoints: asyncio.Task[None] | None = None
        self.batches = 0
        """Batches of actions written so far (for the benchmarks)."""

    @property
    def _reads(self) -> ThreadPoolExecutor:
        if self._read_pool is None:
            self._read_pool = ThreadPoolExecutor(self.readers, thread_name_prefix="thirtyone-db-read")
        return self._read_pool

    @property
    def _writes(self) -> ThreadPoolExecutor:
        if self._write_pool is None:
            self._write_pool = ThreadPoolExecutor(self.writers, thread_name_prefix="thirtyone-db-write")
        return self._write_pool

    @property
    def _appends(self) -> ThreadPoolExecutor:
        # a thread of their own: a batch of actions never queues behind other writes (and on
        # SQLite it takes the next turn to write, Store's _WriteTurns)
        if self._append_pool is None:
            self._append_pool = ThreadPoolExecutor(1, thread_name_prefix="thirtyone-db-append")
        return self._append_pool

    async def read(self, function: Callable[_P, _T], *args: _P.args, **kwargs: _P.kwargs) -> _T:
        """``function(*args, **kwargs)`` (a Store method that reads) on a reader thread.

        Raises:
            DatabaseError: when the database cannot be read.
        """
        return await self._run(self._reads, function, *args, **kwargs)

    async def write(self, function: Callable[_P, _T], *args: _P.args, **kwargs: _P.kwargs) -> _T:
        """``function(*args, **kwargs)`` (a Store method that writes) on a writer thread.

        Raises:
            DatabaseError: when the database cannot be written (nothing was changed).
            StaleError: as the method raises it.
        """
        return await self._run(self._writes, function, *args, **kwargs)

    async def _run(
        self, pool: ThreadPoolExecutor, function: Callable[_P, _T], *args: _P.args, **kwargs: _P.kwargs
    ) -> _T:
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(pool, functools.partial(function, *args, **kwargs))
        except SQLAlchemyError as error:
            raise database_error(error) from None

    async def append(
        self, code: str, action: ActionData, deals: Sequence[Deal], finished: tuple[int, str] | None = None
    ) -> None:
        """Store one action (as :meth:`Store.append <thirtyone.server.db_store.Store.append>`), in the
        next batch of actions.

        Raises:
            StaleError: when the table is not at ``action.seq - 1`` (another writer was first).
            DatabaseError: when it could not be written (nothing was changed).
        """
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        future.add_done_callback(_retrieved)
        self._waiting.append(((code, action, deals, finished), future))
        if not self._flushing:
            self._flushing = True
            asyncio.get_running_loop().create_task(self._flush(), name="thirtyone group commit")
        await asyncio.shield(future)  # a cancelled caller does not cancel the others' batch

    async def _flush(self) -> None:
        loop = asyncio.get_running_loop()
        try:
            while self._waiting:
                batch, self._waiting = self._waiting, []
                try:
                    errors: list[Exception | None] = await loop.run_in_executor(
                        self._appends, self.store.append_batch, [job for job, _ in batch]
                    )
                except Exception as error:  # the batch as a whole failed: each caller hears it
                    errors = [error] * len(batch)
                except BaseException:  # cancelled (the server stops): the callers hear it
                    for _, future in batch:
                        if not future.done():
                            future.set_exception(RuntimeError("the server stopped while writing"))
                    raise
                self.batches += 1
                # every table of the batch resumes in the loop's next turn, and the next batch is
                # written meanwhile: answering a batch a few tables a turn made the next one wait
                # for all those turns, so under load the batches (and the acks' times) grew
                # without end (benchmarks/bench_server.py --tables 2000: batches of 600, p90 377 ms)
                for (_, future), failure in zip(batch, errors, strict=True):
                    if future.done():
                        continue
                    if failure is None:
                        future.set_result(None)
                    elif isinstance(failure, SQLAlchemyError):
                        future.set_exception(database_error(failure))
                    else:
                        future.set_exception(failure)
        finally:
            self._flushing = False

    def start(self) -> None:
        """Start the checkpoints (SQLite)."""
        if self._checkpoints is None and self.store.engine.dialect.name == "sqlite":
            self._checkpoints = asyncio.get_running_loop().create_task(self._checkpoint(), name="thirtyone checkpoint")

    async def _checkpoint(self) -> None:
        while True:
            await asyncio.sleep(CHECKPOINT_SECONDS)
            with contextlib.suppress(DatabaseError):  # logged; the next one tries again (and SQLite's own)
                await self.read(self.store.checkpoint)

    async def stop(self) -> None:
        """Stop the checkpoints."""
        task, self._checkpoints = self._checkpoints, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    def close(self) -> None:
        """End the threads (after what they are doing); they start again when next needed."""
        for pool in (self._read_pool, self._write_pool, self._append_pool):
            if pool is not None:
                pool.shutdown(wait=True, cancel_futures=True)
        self._read_pool = self._write_pool = self._append_pool = None
