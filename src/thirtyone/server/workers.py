"""Bounded pools of worker processes for the server's CPU work: the expert's hints, and the
moves of the ``medium`` and ``hard`` bots and of the levels ``serve --bot`` adds
(:mod:`thirtyone.bots.work`).

Each kind of work has its own pool, so that a flood of one never delays another, and none of them
runs in the server's own process: there a search would hold the interpreter's lock (the GIL) for
its whole 0.3 s while every table waited for the event loop. A pool runs at most ``workers`` jobs
at once and lets ``queue`` more wait; one more is refused at once (:class:`PoolBusyError`) rather
than queued for ever. Workers start as jobs come (all at once: :meth:`WorkerPool.prestart`), at a
lower priority than the server (:func:`thirtyone.bots.work.start_worker`); a worker that dies is
replaced with the whole pool, and its job fails (:class:`PoolBrokenError`). A worker ends with the
server however the server ends, even killed with SIGKILL, when nothing of the server runs to stop
it (:func:`end_with`).

``kind="thread"`` runs the jobs on threads of this process instead (for tests, where the work is
patched, and for platforms without process pools).
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import logging
import multiprocessing
import os
import signal
import sys
import threading
import time
from collections.abc import Callable
from concurrent.futures import Executor
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import ParamSpec
from typing import TypeVar

from thirtyone.bots.work import ready
from thirtyone.bots.work import start_worker
from thirtyone.errors import ThirtyOneRuntimeError

__all__ = ["WorkerPool", "PoolBusyError", "PoolBrokenError", "end_with"]

log = logging.getLogger("thirtyone.server")

_P = ParamSpec("_P")
_T = TypeVar("_T")

_PR_SET_PDEATHSIG = 1
"""Linux's prctl option: the signal this process gets when the thread that started it ends."""
_WATCH_SECONDS = 0.5
"""How often a worker looks whether its server is still there."""


def end_with(parent: int) -> None:
    """Make this process (a worker) end when the process ``parent`` (the server) ends, however it
    ends: on Linux the kernel kills it with SIGKILL the moment the server's thread that started it
    is gone (``PR_SET_PDEATHSIG``); on every platform a daemon thread looks every
    :data:`_WATCH_SECONDS` whether its parent is still ``parent`` (an orphan is adopted by another),
    and ends the process if not. A server already gone ends it at once (exit status 1)."""
    if sys.platform.startswith("linux"):
        with contextlib.suppress(OSError, AttributeError):  # no libc to ask: the watch thread alone
            ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, int(signal.SIGKILL), 0, 0, 0)
    if os.getppid() != parent:  # gone before the kernel was told: nobody would kill this one
        os._exit(1)
    threading.Thread(target=_watch, args=(parent,), name="thirtyone-parent-watch", daemon=True).start()


def _watch(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(_WATCH_SECONDS)
    os._exit(1)  # the server is gone: nothing here is worth finishing


def _start(parent: int, niceness: int, warm: bool) -> None:
    """A worker process's start: it ends with ``parent`` (:func:`end_with`), then
    :func:`~thirtyone.bots.work.start_worker` (its priority and warm-up)."""
    end_with(parent)
    start_worker(niceness, warm)


class PoolBusyError(ThirtyOneRuntimeError):
    """Every worker is busy and the queue is full: the job was not taken (try again later)."""


class PoolBrokenError(ThirtyOneRuntimeError):
    """A worker process died while it had the job (the pool is started again for the next one)."""


class WorkerPool:
    """A pool named ``name`` of ``workers`` worker processes (``kind="thread"``: threads) with room
    for ``queue`` more jobs waiting. ``running`` counts the jobs taken and not yet done."""

    def __init__(self, name: str, workers: int, queue: int = 0, kind: str = "process", warm: bool = False) -> None:
        self.name = name
        self.workers = workers
        self.capacity = workers + queue
        self.kind = kind
        self.warm = warm
        self.running = 0
        self._executor: Executor | None = None
        self._started = False

    @property
    def busy(self) -> bool:
        """True when a job now would be refused."""
        return self.workers == 0 or self.running >= self.capacity

    def _pool(self) -> Executor:
        if self._executor is None:
            if self.kind == "thread":
                self._executor = ThreadPoolExecutor(self.workers, thread_name_prefix=f"thirtyone-{self.name}")
            else:
                self._executor = ProcessPoolExecutor(
                    self.workers,
                    mp_context=multiprocessing.get_context("spawn"),
                    initializer=_start,
                    initargs=(os.getpid(), 10, self.warm),
                )
        return self._executor

    def prestart(self) -> None:
        """Start every worker now (with its warm-up) rather than when the jobs come: a pool starts
        a process only when a job finds none idle, and a process's start (its imports and warm-up,
        seconds on a busy machine) would be the wait of the first move that needs it."""
        if self._started or self.workers == 0 or self.kind == "thread":
            return
        self._started = True
        try:
            pool = self._pool()
            for _ in range(self.workers):  # each finds the others' processes busy starting: one more each
                pool.submit(ready)
        except (BrokenProcessPool, RuntimeError):  # pragma: no cover - started again with the first job
            self._reset()

    async def run(self, function: Callable[_P, _T], *args: _P.args, **kwargs: _P.kwargs) -> _T:
        """``function(*args, **kwargs)`` on a worker (``function`` and its arguments must pickle).

        Raises:
            PoolBusyError: when every worker is busy and the queue is full (nothing was started).
            PoolBrokenError: when the worker died meanwhile.
            Exception: whatever ``function`` raised.
        """
        if self.busy:
            raise PoolBusyError(f"the {self.name} workers are busy ({self.running} jobs)")
        self.running += 1
        try:
            executor = self._pool()
            try:
                future = executor.submit(function, *args, **kwargs)
            except (BrokenProcessPool, RuntimeError):  # died since the last job: start it again
                self._reset()
                future = self._pool().submit(function, *args, **kwargs)
        except BaseException:
            self.running -= 1
            raise
        loop = asyncio.get_running_loop()
        future.add_done_callback(lambda _: self._done(loop))
        try:
            return await asyncio.wrap_future(future)
        except BrokenProcessPool:
            log.warning("a %s worker died; the pool is started again", self.name)
            self._reset()
            raise PoolBrokenError(f"a {self.name} worker stopped while working") from None

    def _done(self, loop: asyncio.AbstractEventLoop) -> None:
        """The job has ended on its worker (not when its caller stopped waiting): one less running."""
        with contextlib.suppress(RuntimeError):  # the loop has closed: the server is stopping
            loop.call_soon_threadsafe(self._release)

    def _release(self) -> None:
        self.running -= 1

    def _reset(self, wait: bool = False) -> None:
        self._started = False
        executor, self._executor = self._executor, None
        if executor is not None:
            executor.shutdown(wait=wait, cancel_futures=True)

    def close(self) -> None:
        """Stop the workers (jobs waiting are dropped), waiting for the one at work to finish:
        workers left running at exit leak their semaphores (a warning at shutdown)."""
        self._reset(wait=True)
