"""A pool of bot workers is started whole when a table with a hard bot is made: a pool starts a
process only when a job finds none idle, so the first moves at several tables each waited for a
process to start (its imports and warm-up: seconds on a busy machine) (issue 44)."""

from __future__ import annotations

from thirtyone.server.workers import WorkerPool


def test_prestart_starts_every_worker() -> None:
    workers = 2
    pool = WorkerPool("test", workers)
    try:
        pool.prestart()
        executor = pool._executor
        assert executor is not None
        assert len(executor._processes) == workers  # type: ignore[attr-defined]
    finally:
        pool.close()


def test_prestart_on_threads_starts_nothing() -> None:
    pool = WorkerPool("test", 2, kind="thread")
    pool.prestart()
    assert pool._executor is None
