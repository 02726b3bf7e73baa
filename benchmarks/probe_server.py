"""``thirtyone serve`` with stall probes: what holds up the event loop under load.

Runs ``python -m thirtyone serve ARGS…`` in this process with probes installed first, and every
``PROBE_EVERY`` seconds writes one JSON line to the file named by ``THIRTYONE_PROBE`` (the
bench's ``--probe FILE`` sets it):

- ``lag``: how late a 10 ms timer on the event loop fired (p50, p99, max, ms), and every lag over
  50 ms with the wall time it happened;
- ``gc``: each collection's generation and pause (ms), the slow ones listed;
- ``commit``: each batch of actions written (its size, its time on the writer thread, ms), and
  how long a call sent to asyncio's default thread pool waited for a thread (ms);
- ``write``: each other write (a table created, a seat joined, …): its time on the writer
  thread, its turn to write included (ms), by the store's method;
- ``act``: each action's time in ``TableRunner.act`` (lock, rules, write, ms), the slow ones
  listed with their wall time and the part spent waiting for the write.

Nothing of this is part of the server: the probes wrap its functions from outside.
"""

from __future__ import annotations

import asyncio
import gc
import json
import os
import statistics
import sys
import threading
import time
from typing import Any

PROBE_EVERY = 2.0


class Probe:
    def __init__(self, path: str) -> None:
        self.path = path
        self.lags: list[float] = []
        self.big_lags: list[tuple[float, float]] = []
        self.gcs: list[tuple[int, float, int]] = []
        self.commits: list[tuple[int, float, float]] = []
        self.waits: list[float] = []
        self.acts: list[tuple[float, float, float]] = []  # (wall time, act ms, of it append ms)
        self.writes: list[tuple[str, float]] = []  # (the store's method, ms)
        self._gc_start = 0.0
        self._lock = threading.Lock()
        self.started = time.time()
        self.census_done = False

    # ------------------------------------------------------------------ gc
    def on_gc(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            self._gc_start = time.perf_counter()
        else:
            pause = (time.perf_counter() - self._gc_start) * 1000
            with self._lock:
                self.gcs.append((info["generation"], pause, info.get("collected", 0)))

    # ------------------------------------------------------------------ the loop
    async def watch_loop(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            planned = loop.time() + 0.010
            await asyncio.sleep(0.010)
            lag = (loop.time() - planned) * 1000
            self.lags.append(lag)
            if lag > 50:
                self.big_lags.append((round(time.time() - self.started, 3), round(lag, 1)))

    async def report(self) -> None:
        while True:
            await asyncio.sleep(PROBE_EVERY)
            try:
                self.flush()
            except Exception as error:  # a probe must not stop
                with open(self.path, "a", encoding="utf-8") as out:
                    out.write(json.dumps({"error": repr(error)}) + "\n")

    def flush(self) -> None:
        with self._lock:
            lags, self.lags = self.lags, []
            big, self.big_lags = self.big_lags, []
            gcs, self.gcs = self.gcs, []
            commits, self.commits = self.commits, []
            waits, self.waits = self.waits, []
            acts, self.acts = self.acts, []
            writes, self.writes = self.writes, []

        def summary(values: list[float]) -> dict[str, float]:
            if not values:
                return {}
            ordered = sorted(values)
            return {
                "n": len(ordered),
                "p50": round(statistics.median(ordered), 2),
                "p99": round(ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))], 2),
                "max": round(ordered[-1], 2),
                "sum": round(sum(ordered), 1),
            }

        line: dict[str, Any] = {
            "t": round(time.time() - self.started, 2),
            "lag": summary(lags),
            "big_lags": big[:40],
            "gc": {str(g): summary([p for gen, p, _ in gcs if gen == g]) for g in (0, 1, 2)},
            "slow_gc": [(g, round(p, 1), c) for g, p, c in gcs if p > 20][:20],
            "commit_batch": summary([float(b) for b, _, _ in commits]),
            "commit_ms": summary([d for _, d, _ in commits]),
            "commit_slow": [(b, round(d, 1)) for b, d, _ in commits if d > 50][:20],
            "executor_wait_ms": summary(waits),
            "act_ms": summary([total for _, total, _ in acts]),
            "act_slow": [(round(at, 3), round(t, 1), round(append, 1)) for at, t, append in acts if t > 50][:20],
            "write_ms": {name: summary([t for n, t in writes if n == name]) for name in sorted({n for n, _ in writes})},
            "objects": len(gc.get_objects()),
        }
        if os.environ.get("THIRTYONE_PROBE_OBJECTS") and not self.census_done and line["t"] > 40:
            self.census_done = True
            counts: dict[str, int] = {}
            for item in gc.get_objects():
                kind = type(item)
                name = f"{getattr(kind, '__module__', '?')}.{getattr(kind, '__qualname__', '?')}"
                counts[name] = counts.get(name, 0) + 1
            line["census"] = sorted(counts.items(), key=lambda kv: -kv[1])[:40]
        with open(self.path, "a", encoding="utf-8") as out:
            out.write(json.dumps(line) + "\n")


def install(path: str) -> None:
    probe = Probe(path)
    gc.callbacks.append(probe.on_gc)

    from thirtyone.server import db_store
    from thirtyone.server import service

    original_batch = db_store.Store.append_batch

    def append_batch(self: Any, jobs: Any) -> Any:
        started = time.perf_counter()
        try:
            return original_batch(self, jobs)
        finally:
            with probe._lock:
                probe.commits.append((len(jobs), (time.perf_counter() - started) * 1000, 0.0))

    db_store.Store.append_batch = append_batch  # type: ignore[method-assign]

    from thirtyone.server import db_threads

    original_write = db_threads.Database.write

    async def write(self: Any, function: Any, *args: Any, **kwargs: Any) -> Any:
        name = getattr(function, "__name__", "?")

        def timed(*inner: Any, **named: Any) -> Any:
            started = time.perf_counter()
            try:
                return function(*inner, **named)
            finally:
                with probe._lock:
                    probe.writes.append((name, (time.perf_counter() - started) * 1000))

        return await original_write(self, timed, *args, **kwargs)

    db_threads.Database.write = write  # type: ignore[method-assign]

    from thirtyone.server import runner

    appends: dict[int, float] = {}
    original_append = db_threads.Database.append

    async def append(self: Any, *args: Any, **kwargs: Any) -> Any:
        started = time.perf_counter()
        try:
            return await original_append(self, *args, **kwargs)
        finally:
            task = asyncio.current_task()
            appends[id(task)] = (time.perf_counter() - started) * 1000

    db_threads.Database.append = append  # type: ignore[method-assign]
    original_act = runner.TableRunner.act

    async def act(self: Any, *args: Any, **kwargs: Any) -> Any:
        started = time.perf_counter()
        try:
            return await original_act(self, *args, **kwargs)
        finally:
            took = (time.perf_counter() - started) * 1000
            appended = appends.pop(id(asyncio.current_task()), 0.0)
            with probe._lock:
                probe.acts.append((time.time() - probe.started, took, appended))

    runner.TableRunner.act = act  # type: ignore[method-assign]

    original_to_thread = asyncio.to_thread

    async def to_thread(function: Any, /, *args: Any, **kwargs: Any) -> Any:
        queued = time.perf_counter()

        def timed() -> Any:
            probe.waits.append((time.perf_counter() - queued) * 1000)
            return function(*args, **kwargs)

        return await original_to_thread(timed)

    asyncio.to_thread = to_thread  # type: ignore[assignment]

    original_startup = service.TableService.startup

    async def startup(self: Any) -> None:
        await original_startup(self)
        self._probe_tasks = [asyncio.create_task(probe.watch_loop()), asyncio.create_task(probe.report())]
        if os.environ.get("THIRTYONE_PROBE_SLOW"):  # asyncio's debug mode names each slow callback
            loop = asyncio.get_running_loop()
            loop.set_debug(True)
            loop.slow_callback_duration = float(os.environ["THIRTYONE_PROBE_SLOW"])

    service.TableService.startup = startup  # type: ignore[method-assign]


def main() -> int:
    path = os.environ.get("THIRTYONE_PROBE")
    if path:
        install(path)
    from thirtyone.cli import main as cli_main

    return int(cli_main(sys.argv[1:]) or 0)


if __name__ == "__main__":
    sys.exit(main())
