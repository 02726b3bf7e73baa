"""Getting the expert ready while nobody waits for it: the compiled simulator it searches with.

The expert (the ``hard`` bot and the person's hints) plays its rollouts on :mod:`thirtyone.sim`,
whose numba kernels compile on their first use after installing (half a minute on a busy
machine; later processes load them from numba's disk cache in about a second). The terminal
game starts a :class:`Preparation` when it opens: the kernels compile in a child process
(:func:`~thirtyone.bots.prepare.compile_apart`), so that the compile never holds the game's
interpreter, and are then loaded on a thread of the game's own. Until they are loaded the expert
searches on the engine (fewer deals in its time), so that no hint and no bot's move waits for the
compiler; the status line says so.

>>> import threading
>>> gate = threading.Event()
>>> preparation = Preparation(gate.wait)
>>> preparation.started, preparation.ready, preparation.usable
(False, False, False)
>>> preparation.start()
>>> preparation.started, preparation.ready
(True, False)
>>> gate.set()
>>> preparation.wait(timeout=10), preparation.ready, preparation.error, preparation.usable
(True, True, None, True)
"""

from __future__ import annotations

import contextlib
import subprocess
import threading
import time
from collections.abc import Callable

from thirtyone.bots.prepare import compile_apart
from thirtyone.bots.prepare import load_simulator
from thirtyone.rules import Rules

__all__ = ["Preparation", "load_simulator", "simulator_preparation"]


class Preparation:
    """A piece of work (``load``) done once on a daemon thread of its own, after an optional
    child process (``apart``: started on that thread, waited for, killed by :meth:`stop`):
    ``start()`` begins it (again does nothing), ``ready`` is true once it has ended (well or not:
    ``error`` holds what it raised, ``result`` what ``load`` returned), ``usable`` once it has
    ended well, ``elapsed()`` the seconds since it began, ``wait()`` blocks until it has ended
    (for a thread of its own, never the screen's)."""

    def __init__(
        self, load: Callable[[], object], *, apart: Callable[[], subprocess.Popen[bytes] | None] | None = None
    ) -> None:
        self._load = load
        self._apart = apart
        self._done = threading.Event()
        self._started_at: float | None = None
        self._lock = threading.Lock()
        self._child: subprocess.Popen[bytes] | None = None
        self._stopped = False
        self.error: BaseException | None = None
        self.result: object = None

    def start(self) -> None:
        """Begin the work on its thread (a daemon: quitting never waits for it)."""
        if self._started_at is not None:
            return
        self._started_at = time.monotonic()
        threading.Thread(target=self._run, name="thirtyone-prepare", daemon=True).start()

    def _run(self) -> None:
        try:
            if self._apart is not None:
                self._wait_apart()
            if not self._stopped:
                self.result = self._load()
        except BaseException as error:  # kept: whoever waits goes on, and the expert stays on the engine
            self.error = error
        finally:
            self._done.set()

    def _wait_apart(self) -> None:
        """Run the child process to its end (unless stopped); one that cannot start leaves the
        work to ``load``."""
        assert self._apart is not None
        with self._lock:
            if self._stopped:
                return
            try:
                self._child = self._apart()
            except OSError:
                return
        if self._child is not None:
            self._child.wait()

    def stop(self) -> None:
        """Stop the child process, if one runs (quitting: it must not compile on after the game)."""
        with self._lock:
            self._stopped = True
            child = self._child
        if child is not None and child.poll() is None:
            with contextlib.suppress(OSError):  # it ended meanwhile
                child.kill()
                child.wait()

    @property
    def started(self) -> bool:
        """True once :meth:`start` was called."""
        return self._started_at is not None

    @property
    def ready(self) -> bool:
        """True once the work has ended."""
        return self._done.is_set()

    @property
    def usable(self) -> bool:
        """True once the work has ended without an error (the expert may search on it)."""
        return self._done.is_set() and self.error is None

    def elapsed(self) -> float:
        """Seconds since the work began (0 before it began)."""
        return 0.0 if self._started_at is None else time.monotonic() - self._started_at

    def wait(self, timeout: float | None = None) -> bool:
        """Block until the work has ended (starting it if nobody did); ``False`` if ``timeout``
        seconds passed first."""
        self.start()
        return self._done.wait(timeout)


def simulator_preparation(rules: Rules) -> Preparation:
    """The preparation the terminal game starts when it opens: the kernels compiled apart
    (:func:`~thirtyone.bots.prepare.compile_apart`), then :func:`load_simulator` for ``rules``
    here; its ``result`` is the :data:`~thirtyone.bots.prepare.SimulatorState`."""
    return Preparation(lambda: load_simulator(rules), apart=compile_apart)
