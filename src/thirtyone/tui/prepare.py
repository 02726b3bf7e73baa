"""Getting the expert ready before anyone waits for it: the compiled simulator it searches with.

The expert (the ``hard`` bot and the person's hints) plays its rollouts on :mod:`thirtyone.sim`,
whose numba kernels compile on their first use after installing (up to half a minute; later
processes load them from numba's disk cache in about a second). The terminal game starts a
:class:`Preparation` when it opens, so that the compile runs on a thread of its own while the
person looks at the first hand, and a hint or an expert move asked for before it is over waits
for it with a notice on the screen instead of a silent "thinking… (0.5 s)".

>>> import threading
>>> gate = threading.Event()
>>> preparation = Preparation(gate.wait)
>>> preparation.started, preparation.ready
(False, False)
>>> preparation.start()
>>> preparation.started, preparation.ready
(True, False)
>>> gate.set()
>>> preparation.wait(timeout=10), preparation.ready, preparation.error
(True, True, None)
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

from thirtyone.bots.prepare import load_simulator
from thirtyone.rules import Rules

__all__ = ["Preparation", "load_simulator", "simulator_preparation"]


class Preparation:
    """A piece of work (``load``) done once on a daemon thread of its own, which others may wait
    for: ``start()`` begins it (again does nothing), ``ready`` is true once it has ended (well or
    not: ``error`` holds what it raised), ``elapsed()`` the seconds since it began, ``wait()``
    blocks until it has ended (for a thread of its own, never the screen's)."""

    def __init__(self, load: Callable[[], object]) -> None:
        self._load = load
        self._done = threading.Event()
        self._started_at: float | None = None
        self.error: BaseException | None = None

    def start(self) -> None:
        """Begin the work on its thread (a daemon: quitting never waits for it)."""
        if self._started_at is not None:
            return
        self._started_at = time.monotonic()
        threading.Thread(target=self._run, name="thirtyone-prepare", daemon=True).start()

    def _run(self) -> None:
        try:
            self._load()
        except BaseException as error:  # kept: whoever waits goes on, and the expert falls back
            self.error = error
        finally:
            self._done.set()

    @property
    def started(self) -> bool:
        """True once :meth:`start` was called."""
        return self._started_at is not None

    @property
    def ready(self) -> bool:
        """True once the work has ended."""
        return self._done.is_set()

    def elapsed(self) -> float:
        """Seconds since the work began (0 before it began)."""
        return 0.0 if self._started_at is None else time.monotonic() - self._started_at

    def wait(self, timeout: float | None = None) -> bool:
        """Block until the work has ended (starting it if nobody did); ``False`` if ``timeout``
        seconds passed first."""
        self.start()
        return self._done.wait(timeout)


def simulator_preparation(rules: Rules) -> Preparation:
    """The preparation the terminal game starts when it opens: :func:`load_simulator` for ``rules``."""
    return Preparation(lambda: load_simulator(rules))
