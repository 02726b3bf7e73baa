"""Short pauses of the garbage collector on a server that holds much for long.

A server with a thousand tables holds about a million objects that live for minutes or hours:
every connection's protocol, tasks and buffers (some 200 objects each), every game's state.
CPython's cyclic garbage collector looks at all of them in each full (generation 2) collection,
which it starts by itself whenever the long-lived objects have grown by a quarter; each such
collection stopped the event loop for 0.3–0.65 s under load (``benchmarks/probe_server.py``) while
finding almost nothing to free: the stall in the acknowledgement times' tail.

:class:`CollectorPolicy` moves what survives into the collector's permanent generation
(:func:`gc.freeze`), which the collector no longer looks at: once when the server has started
(the tables it resumed), and again after every full collection, so that each full collection
looks only at what came since the last one. Objects that die are still freed at once (reference
counting does not depend on the collector); only rubbish in reference cycles among frozen
objects waits, for a complete collection of everything (:func:`gc.unfreeze`, collect, freeze),
which runs at most every ``full_every`` seconds and only once the permanent generation has doubled
since the last one.
"""

from __future__ import annotations

import gc
import logging
import time
from collections.abc import Callable
from typing import Any

__all__ = ["CollectorPolicy", "FULL_EVERY", "THRESHOLDS"]

log = logging.getLogger("thirtyone.server")

FULL_EVERY = 3600.0
"""Seconds at least between two complete collections (of the frozen objects too)."""
THRESHOLDS = (10_000, 10, 10)
"""The collector's thresholds while the policy runs: a young collection after 10,000 new objects
(not 700), so that the many short-lived ones of each action (its messages' dicts and lists, freed
at once by reference counting) start far fewer collections."""


class CollectorPolicy:
    """See the module docstring. :meth:`start` once the server has started, :meth:`tick` now and
    then, :meth:`stop` when it stops; one at a time per process (a second start while one runs does
    nothing).
    ``clock`` gives seconds (default :func:`time.monotonic`)."""

    _active: CollectorPolicy | None = None

    def __init__(self, full_every: float = FULL_EVERY, clock: Callable[[], float] = time.monotonic) -> None:
        self.full_every = full_every
        self._clock = clock
        self._last_full = clock()
        self._frozen_after_full = 0
        self.freezes = 0
        self.full_collections = 0
        self._thresholds = gc.get_threshold()

    def start(self) -> None:
        """Collect once, freeze what is left, and freeze again after every full collection."""
        if CollectorPolicy._active is not None:
            return
        CollectorPolicy._active = self
        self._thresholds = gc.get_threshold()
        gc.set_threshold(*THRESHOLDS)
        self._complete()
        gc.callbacks.append(self._after)

    def stop(self) -> None:
        """Stop freezing, and give the frozen objects back to the collector."""
        if CollectorPolicy._active is not self:
            return
        CollectorPolicy._active = None
        if self._after in gc.callbacks:
            gc.callbacks.remove(self._after)
        gc.set_threshold(*self._thresholds)
        gc.unfreeze()

    def _after(self, phase: str, info: dict[str, Any]) -> None:
        if phase != "stop" or info.get("generation") != 2:
            return
        gc.freeze()  # the collection just ended: everything tracked now is a survivor
        self.freezes += 1

    def tick(self) -> bool:
        """Run the complete collection if it is due (see the module docstring); returns whether it
        ran. Called now and then from the event loop (never from a collection's callback, where
        the collector cannot start another)."""
        if CollectorPolicy._active is not self:
            return False
        if self._clock() - self._last_full < self.full_every:
            return False
        if gc.get_freeze_count() < 2 * max(1, self._frozen_after_full):
            return False
        self._complete()
        return True

    def _complete(self) -> None:
        """Collect everything, frozen objects included, then freeze the survivors."""
        started = time.perf_counter()
        callbacks = [callback for callback in gc.callbacks if callback == self._after]
        for callback in callbacks:
            gc.callbacks.remove(callback)
        try:
            gc.unfreeze()
            gc.collect()
            gc.freeze()
        finally:
            gc.callbacks.extend(callbacks)
        self._frozen_after_full = gc.get_freeze_count()
        self._last_full = self._clock()
        self.full_collections += 1
        log.debug(
            "garbage collector: %d objects frozen after a complete collection (%.0f ms)",
            self._frozen_after_full,
            (time.perf_counter() - started) * 1000,
        )
