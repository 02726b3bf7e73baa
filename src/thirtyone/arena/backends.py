"""Where arena games run: in this process, in local worker processes, or on a Ray cluster.

A backend runs :class:`~thirtyone.arena.play.Task` batches of many games each and hands back each
task's results as it finishes, in whatever order tasks finish; the arena puts them back in
``(deal, rotation)`` order, so results never depend on the backend or on the number of workers.

- :class:`LocalBackend` with ``jobs=1`` plays in this process (a bot registered only here works);
  with ``jobs=N`` it uses a :class:`concurrent.futures.ProcessPoolExecutor` of ``N`` spawned
  workers (they import :mod:`thirtyone` afresh, so bots must be importable there).
- :class:`RayBackend` submits tasks to Ray (``pip install 'thirtyone[distributed]'``): the cluster
  at ``address``, or a Ray started here for the run. Ray is imported only when this backend starts.

Use a backend as a context manager: ``with LocalBackend(2) as backend: backend.run(tasks, on_results)``.
"""

from __future__ import annotations

import concurrent.futures
import contextlib
import logging
import multiprocessing
import os
import signal
from collections.abc import Callable
from collections.abc import Sequence
from types import TracebackType
from typing import Any
from typing import Protocol

from thirtyone.arena.play import GameResult
from thirtyone.arena.play import Task
from thirtyone.arena.play import play_game_safely
from thirtyone.arena.play import play_task
from thirtyone.arena.schedule import ArenaError
from thirtyone.checks import check_ray_address
from thirtyone.text import error_line

__all__ = ["Backend", "BackendError", "LocalBackend", "RayBackend", "MAX_JOBS", "make_backend", "worker_count"]

MAX_JOBS = 1024
"""The most local worker processes."""

OnResults = Callable[[list[GameResult]], None]


class BackendError(ArenaError):
    """A backend failed while games were running (a worker died, a task raised, the cluster was lost)."""


class Backend(Protocol):
    """Runs tasks; see the module docstring."""

    name: str
    """``local`` or ``ray``."""

    def start(self) -> int:
        """Start (processes, a Ray connection) and return how many tasks can run at once (≥ 1).

        Raises:
            ArenaError: when the backend cannot start (Ray missing, an unreachable address).
        """
        ...

    def run(self, tasks: Sequence[Task], on_results: OnResults) -> None:
        """Run every task, calling ``on_results`` (in this thread) with each task's results as it finishes.

        Raises:
            BackendError: when the backend fails; tasks not yet reported are lost (the arena
                reports what it has).
            KeyboardInterrupt: passed on after stopping the workers.
        """
        ...

    def close(self) -> None:
        """Stop what :meth:`start` started."""
        ...

    def __enter__(self) -> Backend: ...

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, traceback: TracebackType | None
    ) -> None: ...


class _Managed:
    """Context-manager plumbing shared by the backends."""

    def start(self) -> int:
        raise NotImplementedError

    def close(self) -> None:
        raise NotImplementedError

    def __enter__(self) -> Any:
        self.start()
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, traceback: TracebackType | None
    ) -> None:
        self.close()


def _ignore_interrupts() -> None:
    """Worker initializer: Ctrl-C goes to the main process only, which stops the workers itself."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _check_jobs(jobs: int) -> None:
    if isinstance(jobs, bool) or not isinstance(jobs, int) or not 1 <= jobs <= MAX_JOBS:
        raise ArenaError(f"--jobs {jobs}: use from 1 to {MAX_JOBS} worker processes")


def worker_count(jobs: int, games: int, cpus: int | None = None) -> int:
    """The local worker processes started for ``--jobs jobs`` and ``games`` games:
    ``min(jobs, games, cpus)``, at least 1; ``cpus`` defaults to :func:`os.cpu_count` (1 when
    unknown). More workers than games would sit idle, more than CPUs would only take turns.

    >>> worker_count(999, 12, cpus=4), worker_count(999, 3, cpus=16), worker_count(2, 100, cpus=16)
    (4, 3, 2)
    """
    if cpus is None:
        cpus = os.cpu_count() or 1
    return max(1, min(jobs, games, cpus))


class LocalBackend(_Managed):
    """Tasks on this machine: in this process (``jobs=1``) or in ``jobs`` worker processes.

    Raises:
        ArenaError: for ``jobs`` outside 1 … :data:`MAX_JOBS`.
    """

    name = "local"

    def __init__(self, jobs: int = 1) -> None:
        _check_jobs(jobs)
        self.jobs = jobs
        self._pool: concurrent.futures.ProcessPoolExecutor | None = None

    def start(self) -> int:
        if self.jobs > 1 and self._pool is None:
            self._pool = concurrent.futures.ProcessPoolExecutor(
                max_workers=self.jobs,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=_ignore_interrupts,
            )
        return self.jobs

    def run(self, tasks: Sequence[Task], on_results: OnResults) -> None:
        if self._pool is None:  # in this process, one game at a time: an interruption loses nothing
            for task in tasks:
                if task.engine == "sim":  # the simulator plays a task in a blink
                    on_results(play_task(task))
                    continue
                for deal, rotation in task.keys:
                    on_results([play_game_safely(task.rules, task.bots, task.seed, deal, rotation)])
            return
        futures = [self._pool.submit(play_task, task) for task in tasks]
        try:
            for future in concurrent.futures.as_completed(futures):
                try:
                    results = future.result()
                except Exception as error:
                    raise BackendError(f"a local worker failed: {error_line(error)}") from error
                on_results(results)
        except BaseException:
            self._stop(futures)
            raise

    def _stop(self, futures: Sequence[concurrent.futures.Future[list[GameResult]]]) -> None:
        pool, self._pool = self._pool, None
        if pool is None:
            return
        for future in futures:
            future.cancel()
        # Python 3.11 has no public way to stop running workers; a task may take long with slow bots.
        processes: dict[int, multiprocessing.process.BaseProcess] = getattr(pool, "_processes", None) or {}
        for process in list(processes.values()):
            process.terminate()
        pool.shutdown(wait=True, cancel_futures=True)

    def close(self) -> None:
        pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=True, cancel_futures=True)


class RayBackend(_Managed):
    """Tasks on Ray: the cluster at ``address`` (``host:port``, ``ray://host:port`` or ``auto``),
    or, without one, a local Ray started for the run and stopped after it. In a process that has
    already called ``ray.init``, that Ray is used. Every node needs this version of ``thirtyone``.

    Raises (from :meth:`start`):
        ArenaError: when Ray is not installed, or the address cannot be reached.
    """

    name = "ray"

    def __init__(self, address: str | None = None) -> None:
        self.address = address
        self._ray: Any = None
        self._started = False

    def start(self) -> int:
        if self._ray is None:
            self._connect()
        cpus = self._ray.cluster_resources().get("CPU", 1)
        return max(1, int(cpus))

    def _connect(self) -> None:
        try:
            import ray
        except ImportError:
            raise ArenaError(
                "the ray backend needs Ray: pip install 'thirtyone[distributed]' (or use --backend local)"
            ) from None
        if self.address is not None:
            check_ray_address(self.address, "--address", ArenaError)
        if not ray.is_initialized():
            try:
                if self.address is None:
                    ray.init(include_dashboard=False, logging_level=logging.ERROR, log_to_driver=False)
                else:
                    ray.init(address=self.address, logging_level=logging.ERROR, log_to_driver=False)
            except Exception as error:
                where = "start a local Ray" if self.address is None else f"connect to Ray at {self.address}"
                raise ArenaError(f"cannot {where}: {error_line(error)}") from None
            self._started = True
        self._ray = ray

    def run(self, tasks: Sequence[Task], on_results: OnResults) -> None:
        ray = self._ray
        if ray is None:
            raise BackendError("the ray backend was not started")
        remote = ray.remote(num_cpus=1)(play_task)
        pending = [remote.remote(task) for task in tasks]
        try:
            while pending:
                ready, pending = ray.wait(pending, num_returns=1)
                try:
                    results: list[GameResult] = ray.get(ready[0])
                except Exception as error:
                    raise BackendError(f"a Ray task failed: {error_line(error)}") from error
                on_results(results)
        except BaseException:
            for ref in pending:
                with contextlib.suppress(Exception):  # best effort while stopping
                    ray.cancel(ref, force=True)
            raise

    def close(self) -> None:
        if self._started and self._ray is not None:
            self._ray.shutdown()
        self._ray = None
        self._started = False


def make_backend(
    name: str, jobs: int = 1, address: str | None = None, games: int | None = None
) -> LocalBackend | RayBackend:
    """The backend called ``name`` (``local`` or ``ray``); with ``games`` (the games to play) the
    local backend starts :func:`worker_count` ``(jobs, games)`` workers, else ``jobs``.

    Raises:
        ArenaError: for an unknown name, a bad ``jobs``, or an ``address`` with the local backend.
    """
    if name == "local":
        if address is not None:
            raise ArenaError("--address is for --backend ray; the local backend uses --jobs")
        _check_jobs(jobs)
        return LocalBackend(jobs if games is None else worker_count(jobs, games))
    if name == "ray":
        return RayBackend(address)
    raise ArenaError(f"unknown backend {name!r}: choose local or ray")
